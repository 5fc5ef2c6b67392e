// MakeJob's own decisions: request checks and the layouts a set of outputs is rendered in.

import Foundation
import SliceKit
import SliceMedia
import Testing
@testable import SlicePipeline

@Suite struct MakeJobTests {
    @Test func eachOutputIsRenderedInTheLayoutItAsksFor() throws {
        let dir = NSTemporaryDirectory() + "slicevid-canvas-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        func layouts(_ outputs: [String], background: String = "#000000") throws -> [PixelLayout] {
            var spec = TransitionSpec()
            try spec.set(.background, to: background)
            return try MakeJob.plan(try MakeRequest.parsing(spec: spec, outputs: outputs.map { $0 == "null" ? $0 : dir + "/" + $0 })).renderLayouts
        }
        #expect(try layouts(["a.mp4"]) == [.yuv420p])
        // More than 8 bits: that output's frames are 16-bit; an 8-bit output beside it keeps its own.
        #expect(try layouts(["a.mp4:pix-fmt=yuv420p10le"]) == [.yuv420p16])
        #expect(try layouts(["a.mp4", "b.mp4:pix-fmt=yuv420p10le"]) == [.yuv420p, .yuv420p16])
        #expect(try layouts(["%03d.png"]) == [.gbrp])
        #expect(try layouts(["a.mp4", "%03d.png"]) == [.yuv420p, .gbrp])
        #expect(try layouts(["a.gif", "a.mp4"]) == [.gbrp, .yuv420p])
        // Outputs that ask for the same layout share one pass.
        #expect(try layouts(["a.mp4", "a.webm", "a.y4m", "a.jpg:sheet=2x2"]) == [.yuv420p])
        #expect(try layouts(["a.png", "a.jpg", "a.webp", "a.gif"]) == [.gbrp])
        #expect(try layouts(["a.mp4:pix-fmt=yuv444p"]) == [.yuv444p])
        #expect(try layouts(["a.mov"]) == [.yuv444p16])
        #expect(try layouts(["a.webm"], background: "transparent") == [.yuva420p])
        #expect(try layouts(["a.webm", "a.mov"], background: "transparent") == [.yuva420p, .gbrap16])
        #expect(try layouts(["a.webm", "poster.png"], background: "transparent") == [.yuva420p, .gbrap])
        #expect(try layouts(["null"]) == [.yuv420p])
        #expect(try layouts(["null", "a.png"]) == [.gbrp])
    }

    @Test func badRequestsAreUsageErrors() {
        // A name no other process uses: an existing file there would be refused (73) first.
        let dir = NSTemporaryDirectory(), name = "slicevid-never-\(UUID().uuidString).mp4"
        #expect(refusalCategory { () throws(SlicevidError) in try .parsing(stills: ["a.png"], outputs: [dir + name]) } == .usage)
        #expect(refusalCategory { () throws(SlicevidError) in try .parsing(outputs: []) } == .usage)
        #expect(refusalCategory { () throws(SlicevidError) in try .parsing(outputs: [dir + name, dir + "./" + name]) } == .usage)
        #expect(refusalCategory { () throws(SlicevidError) in try .parsing(outputs: [dir + "clip.txt"]) } == .usage)
        // Two streams on one stdout would interleave: refused before anything is written.
        #expect(refusalCategory { () throws(SlicevidError) in try .parsing(outputs: ["-", "-"]) } == .usage)
        #expect(refusalCategory { () throws(SlicevidError) in try .parsing(outputs: ["-:crf=20", "-"]) } == .usage)
        #expect(refusalCategory { () throws(SlicevidError) in try .parsing(outputs: [dir + name], jobs: 0) } == .usage)
        #expect(refusalCategory { () throws(SlicevidError) in try .parsing(outputs: [dir + name], jobs: 65) } == .usage)
        #expect(refusalCategory { () throws(SlicevidError) in try .parsing(outputs: [dir + name], encoder: EncoderSettings(crf: 60)) } == .usage)
        var odd = TransitionSpec()
        odd.width = 33
        #expect(refusalCategory { () throws(SlicevidError) in try .parsing(spec: odd, outputs: [dir + name]) } == .usage)
        #expect(!FileManager.default.fileExists(atPath: dir + name))
    }

    @Test func rendersTheDemoToAPNGSequenceLosslessly() throws {
        let dir = NSTemporaryDirectory() + "slicevid-make-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var spec = TransitionSpec()
        spec.width = 48
        spec.height = 32
        spec.hold = 0.1
        spec.duration = 0.2
        spec.frameRate = FrameRate(20)
        let report = try MakeJob.run(try .parsing(spec: spec, outputs: [dir + "/%03d.png"], jobs: 2))
        #expect(report.frames == 7)
        let files = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        #expect(files == (0..<7).map { String(format: "%03d.png", $0) })
        let last = try MediaReader.frames(path: dir + "/006.png", layout: .gbrp)
        let destination = DemoCards.destination(width: 48, height: 32).planar(.gbrp)
        #expect(last.count == 1)
        #expect(last.first?.hasSamePixels(as: destination) == true)
    }
}
