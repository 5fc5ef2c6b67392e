// Still outputs: posters as PNG, JPEG and WebP show the same frame; a storyboard
// (`-o board.png:sheet=3x2`) is one picture of evenly spaced frames, each labelled with its
// time; and every output's record says what the file holds (a GIF's own frames, a poster 1).

import Foundation
import SliceKit
import SliceMedia
import Testing

@Suite("posters, storyboards and records", .serialized)
struct StillOutputsTests {
    static let red = RGBAColor(red: 220, green: 30, blue: 30), blue = RGBAColor(red: 30, green: 60, blue: 220)

    /// Solid red and blue stills: a cell's colour tells which end of the clip it shows.
    private func stills(in folder: String) throws -> [String] {
        try Still.write(RGBAImage(width: 64, height: 36, color: Self.red), "red.png", in: folder)
        try Still.write(RGBAImage(width: 64, height: 36, color: Self.blue), "blue.png", in: folder)
        return ["--from", "red.png", "--to", "blue.png"]
    }

    @Test("a storyboard shows frames evenly spaced from the first to the last, each labelled with its time")
    func storyboard() throws {
        try withScratchFolder { folder in
            let result = try CLI.make(tinyClip + (try stills(in: folder)) + ["-o", "board.png:sheet=3x2", "-o", "board.jpg:sheet=2x2"], in: folder)
            #expect(result.status == 0, "\(result)")
            #expect(result.stderr.contains("wrote board.png (1 frame, "), "\(result)")
            let sheet = try #require(Sheet(parsing: "3x2"))
            let board = try #require(try MediaReader.frames(path: folder + "/board.png", layout: .gbrp).first)
            let size = sheet.size(width: 64, height: 36)
            #expect(board.width == size.width && board.height == size.height)
            #expect(sheet.frames(of: tinyClipFrames) == Array(0..<tinyClipFrames))
            let picture = RGBAImage(width: board.width, height: board.height,
                                    pixels: (0..<(board.width * board.height)).flatMap { i -> [UInt8] in
                                        let color = Pixels.color(board, i % board.width, i / board.width)
                                        return [color.red, color.green, color.blue, 255]
                                    })
            for cell in 0..<sheet.count {
                let origin = sheet.origin(ofCell: cell, width: 64, height: 36)
                // The label sits under the cell, never over the picture: the frame's time.
                let label = TimeLabel.read(picture, x: origin.x, y: origin.y + 36, scale: 1, count: 5)
                #expect(label == TimeLabel.text(seconds: Double(cell) / 10), "cell \(cell)")
            }
            // The first cell is the source still, the last the destination (at their middles,
            // clear of the label).
            let first = sheet.origin(ofCell: 0, width: 64, height: 36), last = sheet.origin(ofCell: 5, width: 64, height: 36)
            #expect(Pixels.isClose(Pixels.color(board, first.x + 40, first.y + 10), Self.red, within: 3))
            // The cell's bottom-left corner, where the label once sat, shows the frame.
            #expect(Pixels.isClose(Pixels.color(board, first.x + 2, first.y + 34), Self.red, within: 3))
            #expect(Pixels.isClose(Pixels.color(board, last.x + 40, last.y + 10), Self.blue, within: 3))
            let jpeg = try MediaReader.info(path: folder + "/board.jpg")
            let grid = try #require(Sheet(parsing: "2x2")).size(width: 64, height: 36)
            #expect(jpeg.codecName == "mjpeg" && jpeg.width == grid.width && jpeg.height == grid.height)
        }
    }

    @Test("JPEG and WebP posters show the frame the PNG poster shows")
    func posters() throws {
        try withScratchFolder { folder in
            let flags = tinyClip + (try stills(in: folder)) + ["--poster-at", "0", "-o", "p.png", "-o", "p.jpg", "-o", "p.webp"]
            let result = try CLI.make(flags, in: folder)
            #expect(result.status == 0, "\(result)")
            let png = try #require(try MediaReader.frames(path: folder + "/p.png", layout: .gbrp).first)
            for (name, tolerance) in [("p.jpg", 4), ("p.webp", 10)] {
                let other = try #require(try MediaReader.frames(path: folder + "/" + name, layout: .gbrp).first, "\(name)")
                #expect(other.width == 64 && other.height == 36)
                #expect(Pixels.isClose(Pixels.color(other, 32, 18), Pixels.color(png, 32, 18), within: tolerance), "\(name)")
                #expect(Pixels.isClose(Pixels.color(other, 32, 18), Self.red, within: tolerance), "\(name) shows frame 0")
            }
            #expect(try MediaReader.info(path: folder + "/p.jpg").colorRange == "pc", "JPEG is full range")
            // No alpha in these two: a transparent background is refused before anything renders.
            let refused = try CLI.make(tinyClip + ["--background", "transparent", "-o", "t.jpg"], in: folder)
            #expect(refused.status == 64 && refused.stderrIsOneLine && refused.stderr.contains("t.jpg"), "\(refused)")
            let sheetOnVideo = try CLI.make(tinyClip + ["-o", "v.mp4:sheet=2x2"], in: folder)
            #expect(sheetOnVideo.status == 64 && sheetOnVideo.stderr.contains("sheet=2x2: applies to .png, .jpg and .webp outputs only"))
        }
    }

    @Test("sidecars and the report record each output as written: a GIF's own frames, a poster 1 frame and 0 s")
    func records() throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        let manifest = try folder.campaign(jobs: [["id": "promo", "images": ["s0.png", "s1.png"],
                                                   "outputs": ["out/promo.mp4", "out/promo.gif:gif-fps=5", "out/promo.jpg", "out/promo-board.webp:sheet=2x1"]]])
        let run = try BatchCLI.run(["batch", manifest, "--report", "report.json"], in: folder.path)
        #expect(run.status == 0, "\(run.stderr)")
        let gifFrames = try MediaReader.info(path: folder.path + "/out/promo.gif").frameCount
        let outputs = try #require(try folder.report().jobs["promo"]?["outputs"] as? [[String: Any]])
        let byName = Dictionary(outputs.map { (URL(fileURLWithPath: $0["path"] as? String ?? "").lastPathComponent, $0) }) { first, _ in first }
        #expect(byName["promo.mp4"]?["frames"] as? Int == 6 && byName["promo.mp4"]?["seconds"] as? Double == 0.6)
        #expect(byName["promo.gif"]?["frames"] as? Int == gifFrames && gifFrames == 4)
        #expect(byName["promo.gif"]?["seconds"] as? Double == 0.8 && byName["promo.gif"]?["fps"] as? String == "5")
        for still in ["promo.jpg", "promo-board.webp"] {
            #expect(byName[still]?["frames"] as? Int == 1 && byName[still]?["seconds"] as? Double == 0 && byName[still]?["fps"] is NSNull, "\(still)")
            let sidecar = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder.path + "/out/.\(still).slicevid.json"))) as? [String: Any])
            #expect(sidecar["frames"] as? Int == 1 && sidecar["seconds"] as? Double == 0 && sidecar["fps"] is NSNull)
        }
        #expect(run.stderr.contains("promo.jpg (1 frame, ") && run.stderr.contains("promo.gif (4 frames, 0.80 s, "), "\(run.stderr)")
        // Records that describe the files make a re-run skip them all.
        let again = try BatchCLI.run(["batch", manifest], in: folder.path)
        #expect(again.stderr.contains("up to date, skipped"), "\(again.stderr)")
    }
}
