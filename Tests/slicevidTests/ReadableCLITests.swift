// Readable by construction, as a user meets it: a scrim darkens what is under its box by its
// opacity; white text on a white still is refused (65) naming the layer, the ratio and the frame
// where the layout asks for it, a warning line otherwise, and a dark scrim makes it pass; two
// overlapping layers and a shrunk auto size are one warning line each; a batch tells a warning
// once for its layout, not once per job.

import Foundation
import SliceKit
import SliceMedia
import Testing

@Suite("readable layouts on the command line", .timeLimit(.minutes(10)))
struct ReadableCLITests {
    static let white = RGBAColor(red: 255, green: 255, blue: 255)

    static let flags = ["--from", "white.png", "--to", "white.png", "--layout", "layout.json", "--size", "320x180", "--fps", "10",
                        "--hold", "0.3", "--duration", "0.6", "--slices", "8"]

    /// A white still and `layout` as the layout file.
    /// A still of `width` (the frame's 320 is decoded the short way, straight to the render's layout).
    static func campaign(_ layout: String, in folder: String, width: Int = 160) throws {
        _ = try Still.write(RGBAImage(width: width, height: width * 9 / 16, color: white), "white.png", in: folder)
        try writeFile(folder + "/layout.json", Data(layout.utf8))
    }

    @Test("a black scrim at 0.6 leaves 40 % of the white under its box; the rest of the frame stays white; -j does not change a byte")
    func scrimDarkensByItsOpacity() throws {
        try withScratchFolder { folder in
            // The words sit in the box's top row of text; the scrim fills the whole box (y 90…180).
            try Self.campaign("""
                {"layers": [{"name": "name", "text": "Flat White", "box": [0, 0.5, 1, 0.5], "size": 20, "valign": "top", "color": "#FFFFFF",
                             "scrim": {"color": "#000000", "opacity": 0.6}}]}
                """, in: folder)
            let run = try CLI.make(Self.flags + ["-o", "poster.png"], in: folder)
            #expect(run.status == 0, "\(run)")
            let frame = try #require(try MediaReader.frames(path: folder + "/poster.png", layout: .gbrp).first)
            // Below the words (y 140…179): 255 × 0.4 = 102 in every channel.
            for y in stride(from: 140, to: 180, by: 7) {
                for x in stride(from: 0, to: 320, by: 13) {
                    let colour = Pixels.color(frame, x, y)
                    #expect(Pixels.isClose(colour, RGBAColor(red: 102, green: 102, blue: 102), within: 1), "(\(x), \(y)): \(colour)")
                }
            }
            // Above the box the still is untouched.
            #expect(Pixels.color(frame, 100, 40) == Self.white && Pixels.color(frame, 5, 89) == Self.white)
            // The same bytes whatever the thread count.
            let one = try CLI.make(Self.flags + ["-o", "one.mp4", "-j", "1"], in: folder)
            let two = try CLI.make(Self.flags + ["-o", "two.mp4", "-j", "2"], in: folder)
            #expect(one.status == 0 && two.status == 0, "\(one) \(two)")
            #expect(FileManager.default.contents(atPath: folder + "/one.mp4") == FileManager.default.contents(atPath: folder + "/two.mp4"))
        }
    }

    static let whiteOnWhite = ##"{"contrast": {"refuse": true}, "layers": [{"name": "name", "on": "to", "text": "Flat White", "box": [0.1, 0.6, 0.8, 0.2], "color": "#FFFFFF"}]}"##

    @Test("white text on a white still is refused (65) naming the layer, the ratio and the frame, for a video and a poster alike; nothing is written",
          arguments: [("out/clip.mp4", 160, "to", 9), ("out/poster.png", 320, "over", 0)])
    func contrastRefusal(_ output: String, _ width: Int, _ on: String, _ frame: Int) throws {
        try withScratchFolder { folder in
            // On the landing card (first read at frame 9 of 10: 0.3 s hold + 0.6 s at 10 fps), or
            // over the frames from the first one, on a still the frame's size.
            try Self.campaign(Self.whiteOnWhite.replacingOccurrences(of: #""on": "to""#, with: #""on": "\#(on)""#), in: folder, width: width)
            let before = FolderSnapshot(folder)
            let run = try CLI.make(Self.flags + ["-o", output], in: folder)
            #expect(run.status == 65 && run.stderrIsOneLine, "\(run)")
            #expect(run.stderr.contains("layout 'layout.json': layer 'name': contrast 1.00:1") && run.stderr.contains("at frame \(frame) "), "\(run)")
            // Auto size set it large (at least 24 px at 1080p), so 3:1 is what it must keep.
            #expect(run.stderr.contains("below the 3:1"), "\(run)")
            #expect(FolderSnapshot(folder) == before, "something was written")
        }
    }

    @Test("a dark scrim makes the same text pass; without refuse it is a warning line and the clip is made")
    func scrimPassesAndWarningWithoutRefusal() throws {
        try withScratchFolder { folder in
            try Self.campaign(Self.whiteOnWhite.replacingOccurrences(of: ##""color": "#FFFFFF"}"##,
                                                                   with: ##""color": "#FFFFFF", "scrim": {"opacity": 0.8}}"##), in: folder)
            let passed = try CLI.make(Self.flags + ["-o", "clip.mp4"], in: folder)
            #expect(passed.status == 0 && !passed.stderr.contains("warning"), "\(passed)")

            try Self.campaign(Self.whiteOnWhite.replacingOccurrences(of: #""refuse": true"#, with: #""refuse": false"#), in: folder)
            let warned = try CLI.make(Self.flags + ["-o", "warned.mp4"], in: folder)
            #expect(warned.status == 0, "\(warned)")
            let lines = warned.stderr.split(separator: "\n").filter { $0.contains("warning") }
            #expect(lines.count == 1 && lines[0].contains("layer 'name': contrast 1.00:1"), "\(warned)")
            #expect(FileManager.default.fileExists(atPath: folder + "/warned.mp4"))
        }
    }

    /// A name that shrinks below the layout's 60 px and a price over part of its box (its
    /// contrast not asked for: black on the strips' black gaps is another test's).
    static let crowded = """
        {"smallest-size": 60, "contrast": {"minimum": 1, "large": 1}, "layers": [{"name": "name", "text": "A rather long product name that has to shrink", "box": [0.1, 0.1, 0.3, 0.1], "color": "#000000", "max-size": 60},
                    {"name": "price", "text": "2,49", "box": [0.3, 0.15, 0.3, 0.2], "color": "#000000"}]}
        """

    @Test("two layers that overlap, and an auto size that shrank below the smallest size, are one warning line each")
    func overlapAndSmallSize() throws {
        try withScratchFolder { folder in
            try Self.campaign(Self.crowded, in: folder)
            let run = try CLI.make(Self.flags + ["-o", "clip.mp4"], in: folder)
            #expect(run.status == 0, "\(run)")
            let lines = run.stderr.split(separator: "\n").filter { $0.contains("warning") }
            #expect(lines.filter { $0.contains("layer 'name' and layer 'price' overlap") }.count == 1, "\(run)")
            #expect(lines.filter { $0.contains("layer 'name': auto size shrank its text") }.count == 1, "\(run)")
            #expect(lines.count == 2, "\(run)")
            // --dry-run says the same, without a frame.
            let dry = try CLI.make(Self.flags + ["-o", "dry.mp4", "--dry-run"], in: folder)
            let said = dry.stderr.split(separator: "\n").filter { $0.hasPrefix("slicevid: warning: layout 'layout.json' at 320x180: layer 'name'") }
            #expect(dry.status == 0 && said.count == 2, "\(dry)")
        }
    }

    @Test("a batch tells a layout's warning once, not once per job, in its log and its report")
    func batchTellsOnce() throws {
        try withScratchFolder { folder in
            try Self.campaign(Self.whiteOnWhite.replacingOccurrences(of: #""refuse": true"#, with: #""refuse": false"#), in: folder)
            let job = #"{"images": ["white.png", "white.png"], "layout": "layout.json", "size": "320x180", "fps": 10, "hold": 0.3, "duration": 0.6, "slices": 8, "encoder-preset": "ultrafast""#
            try writeFile(folder + "/campaign.json", Data("""
                {"jobs": [\(job), "id": "a", "outputs": ["a.mp4"]}, \(job), "id": "b", "outputs": ["b.mp4"]}, \(job), "id": "c", "outputs": ["c.mp4"]}]}
                """.utf8))
            let run = try CLI.run(["batch", "campaign.json", "--log-format", "plain", "--report", "report.json"], in: folder)
            #expect(run.status == 0, "\(run)")
            let lines = run.stderr.split(separator: "\n").filter { $0.contains("warning") }
            #expect(lines.count == 1 && lines[0].contains("layer 'name': contrast 1.00:1"), "\(run)")
            let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/report.json"))) as? [String: Any])
            let warnings = (report["jobs"] as? [[String: Any]] ?? []).flatMap { $0["warnings"] as? [String] ?? [] }
            #expect(warnings.count == 1 && warnings[0].contains("layer 'name': contrast 1.00:1"), "\(warnings)")
        }
    }

    @Test("a brand file restyles every job that imports it: its bytes are in the fingerprint, and --plan says a scrim was added")
    func brandFileAndPlanWords() throws {
        try withScratchFolder { folder in
            _ = try Still.write(RGBAImage(width: 160, height: 90, color: RGBAColor(red: 30, green: 60, blue: 220)), "blue.png", in: folder)
            try writeFile(folder + "/brand.json", Data(##"{"colors": {"ink": "#FFFFFF"}, "styles": {"price": {"color": "@ink", "size": 40}}}"##.utf8))
            try writeFile(folder + "/layout.json", Data(##"{"brand": "brand.json", "layers": [{"name": "price", "text": "2,49 €", "box": [0.1, 0.6, 0.8, 0.3], "style": "price"}]}"##.utf8))
            let job = ##"{"images": ["blue.png", "blue.png"], "layout": "layout.json", "size": "320x180", "fps": 10, "hold": 0.3, "duration": 0.6, "slices": 8, "encoder-preset": "ultrafast""##
            try writeFile(folder + "/campaign.json", Data("""
                {"jobs": [\(job), "id": "a", "outputs": ["a.mp4"]}, \(job), "id": "b", "outputs": ["b.mp4"]}]}
                """.utf8))
            let first = try CLI.run(["batch", "campaign.json", "-q"], in: folder)
            #expect(first.status == 0, "\(first)")
            let same = try CLI.run(["batch", "campaign.json", "--plan"], in: folder)
            #expect(same.stderr.contains("job 'a': up to date") || !same.stderr.contains("will render"), "\(same)")
            // Only the brand file's words change: its bytes are what the jobs follow.
            try writeFile(folder + "/brand.json", Data(##"{"description": "spring", "colors": {"ink": "#FFFFFF"}, "styles": {"price": {"color": "@ink", "size": 40}}}"##.utf8))
            let touched = try CLI.run(["batch", "campaign.json", "--plan"], in: folder)
            #expect(touched.stderr.contains("job 'a': will render: a font, image or brand file of the layout changed"), "\(touched)")
            #expect(touched.stderr.contains("job 'b': will render"), "\(touched)")
            // The brand's colour changes every job's text, said in words.
            try writeFile(folder + "/brand.json", Data(##"{"colors": {"ink": "#FFCC00"}, "styles": {"price": {"color": "@ink", "size": 40, "scrim": {"opacity": 0.6}}}}"##.utf8))
            let restyled = try CLI.run(["batch", "campaign.json", "--plan"], in: folder)
            #expect(restyled.stderr.contains("layer 'price' color #ffffff → #ffcc00"), "\(restyled)")
            #expect(restyled.stderr.contains("layer 'price' scrim unset → box/#000000/0.6"), "\(restyled)")
        }
    }

    @Test("batch --plan and --check say a layout's overlap and shrunk size once, for the first job of three")
    func planAndCheckWarnOnce() throws {
        try withScratchFolder { folder in
            try Self.campaign(Self.crowded, in: folder)
            let job = #"{"images": ["white.png", "white.png"], "layout": "layout.json", "size": "320x180", "fps": 10, "hold": 0.3, "duration": 0.6, "slices": 8"#
            try writeFile(folder + "/campaign.json", Data("""
                {"jobs": [\(job), "id": "a", "outputs": ["a.mp4"]}, \(job), "id": "b", "outputs": ["b.mp4"]}, \(job), "id": "c", "outputs": ["c.mp4"]}]}
                """.utf8))
            for flag in ["--plan", "--check"] {
                let run = try CLI.run(["batch", "campaign.json", flag], in: folder)
                #expect(run.status == 0, "\(run)")
                let lines = run.stderr.split(separator: "\n").filter { $0.contains("warning") }
                #expect(lines.count == 2 && lines.allSatisfy { $0.hasPrefix("slicevid: campaign.json: job 'a': warning: layout '") && $0.contains("layout.json' at 320x180: layer 'name'") },
                        "\(flag): \(run)")
            }
        }
    }
}
