// `slicevid make` end to end: run the binary, decode what it wrote, and check the stream facts
// and pixels a user would notice.

import Foundation
import SliceKit
import SliceMedia
import Testing

@Suite("slicevid make")
struct MakeCommandTests {
    @Test("the demo clip is playback-safe H.264 that starts on the source card and ends on the destination")
    func demoClip() throws {
        try withScratchFolder { folder in
            // The default x264 preset: ultrafast would give Constrained Baseline, not High.
            let result = try CLI.make(tinyClip(["--encoder-preset": nil]) + ["-o", "demo.mp4"], in: folder)
            #expect(result.status == 0, "\(result)")
            #expect(FolderSnapshot(folder).entries.keys.sorted() == ["demo.mp4"])

            let info = try MediaReader.info(path: folder + "/demo.mp4")
            #expect(info.codecName == "h264")
            #expect(info.profileName == "High")
            #expect(info.pixelFormat == "yuv420p")
            #expect(info.width == 64 && info.height == 36)
            #expect(info.colorPrimaries == "bt709" && info.colorTransfer == "bt709" && info.colorSpace == "bt709")
            #expect(info.colorRange == "tv")
            #expect(info.frameRate == 10)
            #expect(info.frameCount == tinyClipFrames)

            let frames = try MediaReader.frames(path: folder + "/demo.mp4", layout: .yuv420p)
            try #require(frames.count == tinyClipFrames)
            let source = DemoCards.source(width: 64, height: 36).planar(.yuv420p)
            let destination = DemoCards.destination(width: 64, height: 36).planar(.yuv420p)
            // Frames 0–2 fall in the 0.2 s hold: the source card, unchanged.
            for index in 0...2 {
                #expect(Pixels.meanAbsoluteError(frames[index], source) < 3, "frame \(index) should be the source card")
            }
            #expect(Pixels.meanAbsoluteError(frames[tinyClipFrames - 1], destination) < 3, "the last frame should be the destination card")
            // A third into the spring (t = 0.3 s) the strips are still travelling: neither card.
            let middle = frames[3]
            #expect(Pixels.meanAbsoluteError(middle, source) > 10)
            #expect(Pixels.meanAbsoluteError(middle, destination) > 10)
        }
    }

    @Test("a PNG sequence holds one numbered, lossless file per frame")
    func pngSequence() throws {
        try withScratchFolder { folder in
            try FileManager.default.createDirectory(atPath: folder + "/frames", withIntermediateDirectories: false)
            let result = try CLI.make(tinyClip + ["-o", "frames/%05d.png"], in: folder)
            #expect(result.status == 0, "\(result)")
            let names = (0..<tinyClipFrames).map { String(format: "%05d.png", $0) }
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/frames").sorted() == names)
            #expect(leftovers(in: folder).isEmpty)

            let first = try MediaReader.frames(path: folder + "/frames/00000.png", layout: .gbrp)
            let last = try MediaReader.frames(path: folder + "/frames/\(names.last!)", layout: .gbrp)
            try #require(first.count == 1 && last.count == 1)
            #expect(first[0].width == 64 && first[0].height == 36)
            let source = DemoCards.source(width: 64, height: 36).planar(.gbrp)
            let destination = DemoCards.destination(width: 64, height: 36).planar(.gbrp)
            #expect(Pixels.maximumError(first[0], source) <= 1)
            #expect(Pixels.maximumError(last[0], destination) <= 1)
        }
    }

    @Test("one run writes every -o output")
    func severalOutputs() throws {
        try withScratchFolder { folder in
            try FileManager.default.createDirectory(atPath: folder + "/seq", withIntermediateDirectories: false)
            let result = try CLI.make(tinyClip + ["-o", "a.mp4", "-o", "seq/%03d.png"], in: folder)
            #expect(result.status == 0, "\(result)")
            #expect(try MediaReader.info(path: folder + "/a.mp4").frameCount == tinyClipFrames)
            let names = (0..<tinyClipFrames).map { String(format: "%03d.png", $0) }
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/seq").sorted() == names)
            #expect(leftovers(in: folder).isEmpty)
            // Rendered once, encoded twice: both end on the same picture.
            let video = try MediaReader.frames(path: folder + "/a.mp4", layout: .yuv420p)
            let png = try MediaReader.frames(path: folder + "/seq/\(names.last!)", layout: .yuv420p)
            try #require(video.count == tinyClipFrames && png.count == 1)
            #expect(Pixels.meanAbsoluteError(video[tinyClipFrames - 1], png[0]) < 3)
        }
    }

    @Test("--force replaces an existing output")
    func forceReplaces() throws {
        try withScratchFolder { folder in
            let old = Data("an older clip".utf8)
            try writeFile(folder + "/out.mp4", old)
            let result = try CLI.make(tinyClip + ["-o", "out.mp4", "--force"], in: folder)
            #expect(result.status == 0, "\(result)")
            #expect(FileManager.default.contents(atPath: folder + "/out.mp4") != old)
            #expect(try MediaReader.info(path: folder + "/out.mp4").frameCount == tinyClipFrames)
            #expect(FolderSnapshot(folder).entries.keys.sorted() == ["out.mp4"])
        }
    }

    @Test("--force over a longer PNG sequence leaves no frames of the old one behind")
    func forceReplacesWholeSequence() throws {
        try withScratchFolder { folder in
            try FileManager.default.createDirectory(atPath: folder + "/f", withIntermediateDirectories: false)
            let long = try CLI.make(tinyClip(["--duration": "1"]) + ["-o", "f/%02d.png"], in: folder)
            #expect(long.status == 0, "\(long)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/f").count == 13)
            let short = try CLI.make(tinyClip + ["-o", "f/%02d.png", "--force"], in: folder)
            #expect(short.status == 0, "\(short)")
            // Readers take every consecutive number, so stale frames 06…12 would play on.
            let names = (0..<tinyClipFrames).map { String(format: "%02d.png", $0) }
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/f").sorted() == names)
        }
    }
}
