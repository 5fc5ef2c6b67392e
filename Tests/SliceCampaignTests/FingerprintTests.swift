// Fingerprints change exactly when an output would: a still's bytes, a setting of any
// transition, the layout the frames were rendered in (the output's own), the encoder settings
// of a video, or the slicevid version.

import SliceKit
import SliceMedia
import Testing
@testable import SliceCampaign
@testable import SlicePipeline

@Suite struct FingerprintTests {
    private let sequence = SequenceSpec(base: TransitionSpec(), imageCount: 3)
    private let hashes = ["aa", "bb", "cc"]

    /// The plan of an output of `format` for `sequence`'s clip.
    private func plan(_ format: OutputFormat, encoder: EncoderSettings = EncoderSettings(),
                      sequence: SequenceSpec? = nil) throws -> EncodingPlan {
        let spec = (sequence ?? self.sequence).segments[0]
        let clip = Clip(width: spec.width, height: spec.height, frameRate: spec.frameRate,
                        frameCount: SequencePlan(spec: sequence ?? self.sequence).frameCount)
        let path = format == .pngSequence ? "f%03d.png" : "x.\(format.rawValue)"
        return try EncodingPlan.resolve(path: path, format: format, runWide: encoder, clip: clip)
    }

    private func value(_ sequence: SequenceSpec? = nil, hashes: [String]? = nil, version: String = "1.0",
                       format: OutputFormat = .mp4,
                       encoder: EncoderSettings = EncoderSettings()) throws -> String {
        Fingerprint(sequence: sequence ?? self.sequence, imageHashes: hashes ?? self.hashes, version: version)
            .output(try plan(format, encoder: encoder, sequence: sequence)).value
    }

    @Test func sameInputsGiveTheSameFingerprint() throws {
        #expect(try value() == value())
        #expect(try value().count == 64)
    }

    @Test func everyIngredientChangesIt() throws {
        var slower = sequence
        slower.segments[1].easing = .linear
        var held = sequence
        held.setHold(2, ofImage: 2)
        var focused = sequence
        focused.setFocus(Focus(x: 0, y: 1)!, ofImage: 1)
        var allFocused = sequence
        for k in allFocused.segments.indices { allFocused.segments[k].focus = Focus(x: 0.5, y: 0)! }
        var moving = sequence
        for k in moving.segments.indices { moving.segments[k].motion = StillMotion(kind: .pushIn) }
        var further = moving
        for k in further.segments.indices { further.segments[k].motion.amount = 0.3 }
        var eased = moving
        for k in eased.segments.indices { eased.segments[k].motion.easing = .cubicBezier(.easeInOut) }
        var ownMotion = sequence
        ownMotion.setMotion(StillMotion(kind: .panLeft), ofImage: 2)
        var ownAmount = sequence
        ownAmount.setMotion(StillMotion(kind: .panLeft, amount: 0.2), ofImage: 2)
        let variants = [
            try value(moving),
            try value(further),
            try value(eased),
            try value(ownMotion),
            try value(ownAmount),
            try value(hashes: ["aa", "bb", "cd"]),
            try value(hashes: ["bb", "aa", "cc"]),
            try value(slower),
            try value(held),
            try value(focused),
            try value(allFocused),
            try value(version: "1.1"),
            try value(format: .pngSequence),
            try value(encoder: EncoderSettings(crf: 20)),
            try value(encoder: EncoderSettings(preset: "fast")),
            try value(encoder: EncoderSettings(codec: CodecChoice(codec: .hevc))),
            try value(encoder: EncoderSettings(pixelFormat: "yuv420p10le")),
            try value(format: .webm),
            try value(format: .gif),
        ]
        #expect(Set(variants + [try value()]).count == variants.count + 1)
    }

    @Test func imageSequencesIgnoreVideoEncoderSettings() throws {
        #expect(try value(format: .pngSequence) == value(format: .pngSequence, encoder: EncoderSettings(crf: 30, preset: "fast")))
    }

    @Test func theLinesSayWhatIsCovered() throws {
        let lines = Fingerprint(sequence: sequence, imageHashes: hashes, version: "1.0").output(try plan(.mp4)).lines
        #expect(lines.first == "slicevid 1.0")
        #expect(lines.contains("image 2 cc"))
        #expect(lines.contains { $0.hasSuffix(" motion-blur=1 motion=none motion-amount=0.1 motion-easing=linear") })
        var moving = sequence
        moving.setMotion(StillMotion(kind: .pullOut, amount: 0.25, easing: .cubicBezier(.easeOut)), ofImage: 1)
        #expect(Fingerprint(sequence: moving, imageHashes: hashes, version: "1.0").lines
            .contains("image 1 bb motion=pull-out motion-amount=0.25 motion-easing=ease-out"))
        #expect(lines.contains { $0.hasPrefix("transition 1 size=1920x1080 fps=30 ") && $0.contains(" easing=spring ") })
        let output = try #require(lines.last)
        #expect(output.hasPrefix("output mp4 canvas=yuv420p codec=h264 encoder=libx264 profile=high pix_fmt=yuv420p "), "\(output)")
        #expect(output.contains(" size=1920x1080 ") && output.hasSuffix(" crf=18 preset=medium color_primaries=bt709 color_transfer=bt709 color_space=bt709 color_range=tv"), "\(output)")
    }
}
