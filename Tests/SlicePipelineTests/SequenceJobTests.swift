// `slicevid make a b c …` end to end: frame counts, each hold showing its own image, and the
// usage errors for half-given sequences.

import Foundation
import ScratchFixtures
import SliceKit
import SliceMedia
import Testing
@testable import SlicePipeline

@Suite struct SequenceJobTests {
    /// A scratch folder with `count` distinct 64x36 PNG stills.
    private static func stills(_ count: Int) throws -> (scratch: Scratch, paths: [String]) {
        let scratch = try Scratch()
        return (scratch, try (0..<count).map { try scratch.still("still\($0).png", index: $0) })
    }

    private static func spec() -> TransitionSpec {
        var spec = TransitionSpec()
        spec.width = 64
        spec.height = 36
        spec.frameRate = FrameRate(10)
        spec.hold = 0.2
        spec.duration = 0.3
        spec.endHold = 0.2
        spec.strips = 8
        return spec
    }

    @Test func eachHoldShowsItsOwnImage() throws {
        let (scratch, paths) = try Self.stills(3)
        defer { scratch.remove() }
        let folder = scratch.path
        try FileManager.default.createDirectory(atPath: folder + "/frames", withIntermediateDirectories: false)
        let report = try MakeJob.run(try .parsing(spec: Self.spec(), stills: paths, outputs: [folder + "/frames/%03d.png"], jobs: 2))
        // 6 frames for the first pair, 8 for the second (with the end hold), the shared image once.
        #expect(report.frames == 5 + 8)
        let frames = try (0..<report.frames).map { index in
            try MediaReader.frames(path: folder + String(format: "/frames/%03d.png", index), layout: .gbrp)[0]
        }
        let images = try paths.map { path in
            try StillDecoder.load(path: path, width: 64, height: 36, fit: .cover, background: .black).planar(.gbrp)
        }
        for (image, held) in [(0, 0...2), (1, 5...7), (2, 10...12)] {
            for index in held {
                #expect(frames[index].hasSamePixels(as: images[image]), "frame \(index) shows image \(image)")
            }
        }
        for index in [3, 4, 8, 9] {
            #expect(!images.contains { frames[index].hasSamePixels(as: $0) }, "frame \(index) is mid-transition")
        }
    }

    @Test func aFourImageReelHasEveryFrameInOneVideo() throws {
        let (scratch, paths) = try Self.stills(4)
        defer { scratch.remove() }
        let folder = scratch.path
        var encoder = EncoderSettings()
        encoder.preset = "ultrafast"
        let report = try MakeJob.run(try .parsing(spec: Self.spec(), stills: paths, outputs: [folder + "/reel.mp4"], encoder: encoder, jobs: 2))
        #expect(report.frames == 5 + 5 + 8)
        let info = try MediaReader.info(path: folder + "/reel.mp4")
        #expect(info.frameCount == 18)
        #expect(info.width == 64 && info.height == 36)
    }

    @Test func halfGivenSequencesAreUsageErrors() {
        let out = NSTemporaryDirectory() + "slicevid-never.mp4"
        #expect(refusalCategory { () throws(SlicevidError) in try .parsing(spec: Self.spec(), stills: ["a.png"], outputs: [out]) } == .usage)
        var wrongSize = SequenceSpec(base: Self.spec(), imageCount: 3)
        wrongSize.segments[1].width = 128
        #expect(refusalCategory { () throws(SlicevidError) in
            var request = try MakeRequest.parsing(spec: Self.spec(), stills: ["a.png", "b.png", "c.png"], outputs: [out])
            request.sequence = wrongSize
            return request
        } == .usage)
        #expect(refusalCategory { () throws(SlicevidError) in
            var request = try MakeRequest.parsing(spec: Self.spec(), stills: ["a.png", "b.png", "c.png"], outputs: [out])
            request.sequence = SequenceSpec(base: Self.spec(), imageCount: 4)
            return request
        } == .usage)
        #expect(!FileManager.default.fileExists(atPath: out))
    }
}
