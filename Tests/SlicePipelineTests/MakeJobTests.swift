// MakeJob's own decisions: request checks and the canvas layout for a set of outputs.

import Foundation
import SliceKit
import SliceMedia
import Testing
@testable import SlicePipeline

@Suite struct MakeJobTests {
    @Test func canvasIsTheRichestLayoutAskedFor() throws {
        let dir = NSTemporaryDirectory() + "slicevid-canvas-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        func layout(_ outputs: [String], background: String = "#000000") throws -> PixelLayout {
            var spec = TransitionSpec()
            try spec.set(.background, to: background)
            return try MakeJob.plan(try MakeRequest.parsing(spec: spec, outputs: outputs.map { $0 == "null" ? $0 : dir + "/" + $0 })).renderLayout
        }
        #expect(try layout(["a.mp4"]) == .yuv420p)
        // More than 8 bits anywhere: the render is 16-bit (8-bit outputs reduce it exactly).
        #expect(try layout(["a.mp4:pix-fmt=yuv420p10le"]) == .yuv420p16)
        #expect(try layout(["a.mp4", "b.mp4:pix-fmt=yuv420p10le"]) == .yuv420p16)
        #expect(try layout(["%03d.png"]) == .gbrp)
        #expect(try layout(["a.mp4", "%03d.png"]) == .gbrp)
        #expect(try layout(["a.gif", "a.mp4"]) == .gbrp)
        #expect(try layout(["a.mp4:pix-fmt=yuv444p"]) == .yuv444p)
        #expect(try layout(["a.mov"]) == .yuv444p16)
        #expect(try layout(["a.webm"], background: "transparent") == .yuva420p)
        #expect(try layout(["a.webm", "a.mov"], background: "transparent") == .gbrap16)
        #expect(try layout(["a.webm", "poster.png"], background: "transparent") == .gbrap)
        #expect(try layout(["null"]) == .yuv420p)
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
