// `--from` / `--to` stills of other sizes and aspects: cover fills the frame and crops, contain
// letterboxes onto `--background`, and neither distorts the picture.

import Foundation
import SliceKit
import SliceMedia
import Testing

@Suite("slicevid make --from --to --fit")
struct FitTests {
    static let green = RGBAColor(red: 30, green: 160, blue: 60)
    static let blue = RGBAColor(red: 40, green: 60, blue: 200)
    static let red = RGBAColor(red: 255, green: 0, blue: 0)

    /// A square PNG (90x90, 30 px white square) and a portrait JPEG (40x80, 20 px square),
    /// neither of the 16:9 frame's shape.
    private func writeStills(in folder: String) throws {
        try Still.write(Still.squareOn(Self.green, width: 90, height: 90, side: 30), "A.png", in: folder)
        try Still.write(Still.squareOn(Self.blue, width: 40, height: 80, side: 20), "B.jpg", in: folder, format: .jpeg)
        try FileManager.default.createDirectory(atPath: folder + "/seq", withIntermediateDirectories: false)
    }

    /// The first and last frames of the PNG sequence `seq/%03d.png`.
    private func ends(in folder: String) throws -> (first: PlanarImage, last: PlanarImage) {
        let first = try MediaReader.frames(path: folder + "/seq/000.png", layout: .gbrp)
        let last = try MediaReader.frames(path: folder + "/seq/" + String(format: "%03d.png", tinyClipFrames - 1), layout: .gbrp)
        try #require(first.count == 1 && last.count == 1)
        return (first[0], last[0])
    }

    /// How many pixels of row `y` (or column `x`) are white: the square's size on screen.
    private func whiteRun(_ image: PlanarImage, row y: Int) -> Int {
        (0..<image.width).filter { Pixels.isClose(Pixels.color(image, $0, y), Still.white, within: 40) }.count
    }

    private func whiteRun(_ image: PlanarImage, column x: Int) -> Int {
        (0..<image.height).filter { Pixels.isClose(Pixels.color(image, x, $0), Still.white, within: 40) }.count
    }

    private func columns(_ image: PlanarImage, _ xs: Range<Int>, areAll color: RGBAColor, within tolerance: Int) -> Bool {
        xs.allSatisfy { x in (0..<image.height).allSatisfy { Pixels.isClose(Pixels.color(image, x, $0), color, within: tolerance) } }
    }

    @Test("cover (the default) fills the frame, crops the overflow and keeps the aspect")
    func cover() throws {
        try withScratchFolder { folder in
            try writeStills(in: folder)
            let result = try CLI.make(tinyClip + ["--from", "A.png", "--to", "B.jpg", "--background", "#ff0000",
                                                  "-o", "seq/%03d.png", "-o", "clip.mp4"], in: folder)
            #expect(result.status == 0, "\(result)")
            let (first, last) = try ends(in: folder)

            // No letterbox: the background never shows.
            #expect(columns(first, 0..<4, areAll: Self.green, within: 8))
            #expect(columns(first, 60..<64, areAll: Self.green, within: 8))
            #expect(columns(last, 0..<4, areAll: Self.blue, within: 12))
            #expect(columns(last, 60..<64, areAll: Self.blue, within: 12))
            // 90 → 64 wide scales the 30 px square to ~21 px both ways (not squashed to 16:9).
            let (wide, tall) = (whiteRun(first, row: 18), whiteRun(first, column: 32))
            #expect((19...23).contains(wide) && abs(wide - tall) <= 2, "square became \(wide)x\(tall)")
            // 40 → 64 wide is ×1.6: the 20 px square is 32 px, fully inside the 36 rows kept.
            let (wide2, tall2) = (whiteRun(last, row: 18), whiteRun(last, column: 32))
            #expect((30...34).contains(wide2) && abs(wide2 - tall2) <= 2, "square became \(wide2)x\(tall2)")

            // The video starts and ends on the same fitted pictures.
            let fittedA = try StillDecoder.load(path: folder + "/A.png", width: 64, height: 36, fit: .cover, background: Self.red)
            let fittedB = try StillDecoder.load(path: folder + "/B.jpg", width: 64, height: 36, fit: .cover, background: Self.red)
            #expect(Pixels.maximumError(first, fittedA.planar(.gbrp)) <= 1)
            #expect(Pixels.maximumError(last, fittedB.planar(.gbrp)) <= 1)
            let video = try MediaReader.frames(path: folder + "/clip.mp4", layout: .yuv420p)
            try #require(video.count == tinyClipFrames)
            #expect(Pixels.meanAbsoluteError(video[0], fittedA.planar(.yuv420p)) < 3)
            #expect(Pixels.meanAbsoluteError(video[tinyClipFrames - 1], fittedB.planar(.yuv420p)) < 3)
        }
    }

    @Test("--fit contain letterboxes onto the --background colour")
    func contain() throws {
        try withScratchFolder { folder in
            try writeStills(in: folder)
            let result = try CLI.make(tinyClip + ["--from", "A.png", "--to", "B.jpg", "--fit", "contain",
                                                  "--background", "#ff0000", "-o", "seq/%03d.png"], in: folder)
            #expect(result.status == 0, "\(result)")
            let (first, last) = try ends(in: folder)

            // A: 90x90 → 36x36 at x 14..<50; bars of exactly #ff0000 either side.
            #expect(columns(first, 0..<13, areAll: Self.red, within: 0))
            #expect(columns(first, 51..<64, areAll: Self.red, within: 0))
            #expect(columns(first, 16..<20, areAll: Self.green, within: 8))
            let (wide, tall) = (whiteRun(first, row: 18), whiteRun(first, column: 32))
            #expect((10...14).contains(wide) && abs(wide - tall) <= 2, "square became \(wide)x\(tall)")
            // B: 40x80 → 18x36 at x 23..<41.
            #expect(columns(last, 0..<22, areAll: Self.red, within: 0))
            #expect(columns(last, 42..<64, areAll: Self.red, within: 0))
            #expect(columns(last, 24..<26, areAll: Self.blue, within: 12))
            let (wide2, tall2) = (whiteRun(last, row: 18), whiteRun(last, column: 32))
            #expect((7...11).contains(wide2) && abs(wide2 - tall2) <= 2, "square became \(wide2)x\(tall2)")
        }
    }
}
