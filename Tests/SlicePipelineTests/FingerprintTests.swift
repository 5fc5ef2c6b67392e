// Fingerprints change exactly when an output would: a still's bytes, a setting of any
// transition, the layout the frames were rendered in, the encoder settings of a video, or the
// slicevid version.

import SliceKit
import SliceMedia
import Testing
@testable import SlicePipeline

@Suite struct FingerprintTests {
    private let sequence = SequenceSpec(base: TransitionSpec(), imageCount: 3)
    private let hashes = ["aa", "bb", "cc"]

    private func value(_ sequence: SequenceSpec? = nil, hashes: [String]? = nil, version: String = "1.0",
                       format: OutputFormat = .mp4, canvas: PixelLayout = .yuv420p,
                       encoder: EncoderSettings = EncoderSettings()) -> String {
        Fingerprint(sequence: sequence ?? self.sequence, imageHashes: hashes ?? self.hashes, version: version)
            .output(format, canvas: canvas, encoder: encoder).value
    }

    @Test func sameInputsGiveTheSameFingerprint() {
        #expect(value() == value())
        #expect(value().count == 64)
    }

    @Test func everyIngredientChangesIt() {
        var slower = sequence
        slower.segments[1].easing = .linear
        var held = sequence
        held.setHold(2, ofImage: 2)
        let variants = [
            value(hashes: ["aa", "bb", "cd"]),
            value(hashes: ["bb", "aa", "cc"]),
            value(slower),
            value(held),
            value(version: "1.1"),
            value(format: .pngSequence),
            value(canvas: .gbrp),
            value(encoder: EncoderSettings(crf: 20)),
            value(encoder: EncoderSettings(preset: "fast")),
        ]
        #expect(Set(variants + [value()]).count == variants.count + 1)
    }

    @Test func imageSequencesIgnoreVideoEncoderSettings() {
        #expect(value(format: .pngSequence) == value(format: .pngSequence, encoder: EncoderSettings(crf: 30, preset: "fast")))
    }

    @Test func theLinesSayWhatIsCovered() {
        let lines = Fingerprint(sequence: sequence, imageHashes: hashes, version: "1.0").output(.mp4, canvas: .yuv420p, encoder: EncoderSettings()).lines
        #expect(lines.first == "slicevid 1.0")
        #expect(lines.contains("image 2 cc"))
        #expect(lines.contains { $0.hasPrefix("transition 1 size=1920x1080 fps=30 ") && $0.contains(" easing=spring ") })
        #expect(lines.last == "output mp4 canvas=yuv420p crf=18 encoder-preset=medium")
    }
}
