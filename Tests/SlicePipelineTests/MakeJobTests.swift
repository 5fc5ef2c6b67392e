// MakeJob's own decisions: request checks and the canvas layout for a set of outputs.

import Foundation
import SliceKit
import SliceMedia
import Testing
@testable import SlicePipeline

@Suite struct MakeJobTests {
    @Test func canvasIsTheRichestLayoutAskedFor() {
        #expect(MakeJob.canvasLayout(for: [.mp4]) == .yuv420p)
        #expect(MakeJob.canvasLayout(for: [.pngSequence]) == .gbrp)
        #expect(MakeJob.canvasLayout(for: [.mp4, .pngSequence]) == .gbrp)
    }

    @Test func badRequestsAreUsageErrors() {
        func category(_ request: MakeRequest) -> SlicevidError.Category? {
            do { _ = try MakeJob.run(request); return nil } catch { return error.category }
        }
        let dir = NSTemporaryDirectory()
        #expect(category(MakeRequest(from: "a.png", outputs: [dir + "x.mp4"])) == .usage)
        #expect(category(MakeRequest(outputs: [])) == .usage)
        #expect(category(MakeRequest(outputs: [dir + "x.mp4", dir + "./x.mp4"])) == .usage)
        #expect(category(MakeRequest(outputs: [dir + "x.mp4"], jobs: 0)) == .usage)
        #expect(category(MakeRequest(outputs: [dir + "x.mp4"], encoder: EncoderSettings(crf: 60))) == .usage)
        var odd = TransitionSpec()
        odd.width = 33
        #expect(category(MakeRequest(spec: odd, outputs: [dir + "x.mp4"])) == .usage)
        #expect(!FileManager.default.fileExists(atPath: dir + "x.mp4"))
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
        let report = try MakeJob.run(MakeRequest(spec: spec, outputs: [dir + "/%03d.png"], jobs: 2))
        #expect(report.frames == 7)
        let files = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        #expect(files == (0..<7).map { String(format: "%03d.png", $0) })
        let last = try MediaReader.frames(path: dir + "/006.png", layout: .gbrp)
        let destination = try StillConverter.planar(DemoCards.destination(width: 48, height: 32), layout: .gbrp)
        #expect(last.count == 1)
        #expect(last.first?.hasSamePixels(as: destination) == true)
    }
}
