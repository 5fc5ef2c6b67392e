// A layer's motion in a job's fingerprint: a line for its entrance and one for its exit (none
// for a layer that does not move, so other jobs keep their fingerprints), and `--plan`'s words
// for a change: `layer 'price' in: slide-up → fade`.

import Foundation
import SliceKit
import Testing
@testable import SliceCampaign
@testable import SlicePipeline

@Suite struct LayerMotionFingerprintTests {
    static func plan(_ layers: String) throws -> LayoutPlan {
        let layout = try Layout(json: Data(#"{"layers": [\#(layers)]}"#.utf8), file: "promo.json", folder: "/campaign")
        return try LayoutPlan.resolve(layout, width: 64, height: 36, stills: 2, variables: [:], safeZones: [])
    }

    static func lines(_ layers: String) throws -> [String] {
        Fingerprint(lines: []).adding(try plan(layers), fileHashes: [:]).lines
    }

    @Test("every motion field is in the fingerprint; a still layer adds no line")
    func linesCoverEveryField() throws {
        let still = try Self.lines(#"{"name": "price", "text": "x", "box": [0, 0, 1, 1]}"#)
        #expect(!still.contains { $0.hasPrefix("layer 1 in") || $0.hasPrefix("layer 1 out") })
        let moving = try Self.lines(#"""
            {"name": "price", "text": "x", "box": [0, 0, 1, 1],
             "in": {"at": "landed+0.1", "effect": "slide-up", "distance": 60, "duration": 0.5, "easing": "ease-out-back"},
             "out": {"effect": "pop", "from": 0.2}}
            """#)
        #expect(moving.contains("layer 1 in effect=slide-up(distance 60) at=landed+0.1 duration=0.5 easing=ease-out-back"), "\(moving)")
        #expect(moving.contains("layer 1 out effect=pop(from 0.2) at=default duration=default easing=default"), "\(moving)")
        // Each field changes the lines.
        let entrance = #""at": "landed+0.1", "effect": "slide-up", "distance": 60, "duration": 0.5, "easing": "ease-out-back""#
        let same = try Self.lines(#"{"name": "price", "text": "x", "box": [0, 0, 1, 1], "in": {\#(entrance)}}"#)
        for (was, now) in [("landed+0.1", "landed+0.2"), ("slide-up", "slide-down"), ("60", "61"), ("0.5", "0.6"), ("ease-out-back", "linear")] {
            let other = try Self.lines(#"{"name": "price", "text": "x", "box": [0, 0, 1, 1], "in": {\#(entrance.replacingOccurrences(of: was, with: now))}}"#)
            #expect(other != same, "\(was) → \(now) left the fingerprint as it was")
        }
    }

    @Test("--plan says what changed in words")
    func reasons() throws {
        let layer = #"{"name": "price", "text": "x", "box": [0, 0, 1, 1], "in": {"at": "landed+0.1", "effect": "EFFECT"}, "out": {"at": "AT"}}"#
        func lines(_ effect: String, _ at: String) throws -> [String] {
            try Self.lines(layer.replacingOccurrences(of: "EFFECT", with: effect).replacingOccurrences(of: "AT", with: at))
        }
        let reasons = RenderReason.changes(from: try lines("slide-up", "end-0.4"), to: try lines("fade", "end-0.6"), output: "a.mp4", images: [],
                                           layers: ["layer 'price'"])
        #expect(reasons.map(\.description) == ["layer 'price' in: slide-up → fade", "layer 'price' out at end-0.4 → end-0.6"])
        let added = RenderReason.changes(from: try Self.lines(#"{"name": "price", "text": "x", "box": [0, 0, 1, 1]}"#), to: try lines("pop", "end-0.4"),
                                         output: "a.mp4", images: [], layers: ["layer 'price'"])
        #expect(added.map(\.description).contains("layer 'price' in: none → pop"), "\(added.map(\.description))")
    }
}

@Suite struct RevealFingerprintTests {
    @Test("a reveal and its stagger are in the fingerprint, and --plan says a change in words")
    func revealFields() throws {
        let layer = #"{"name": "claim", "text": "x", "box": [0, 0, 1, 1], "in": {"at": "landed", "effect": "EFFECT"}}"#
        func lines(_ effect: String) throws -> [String] {
            try LayerMotionFingerprintTests.lines(layer.replacingOccurrences(of: "\"EFFECT\"", with: effect))
        }
        let words = try lines(#""words", "stagger": 0.2"#)
        #expect(words.contains("layer 1 in effect=words(stagger 0.2) at=landed duration=default easing=default"), "\(words)")
        #expect(try lines(#""words", "stagger": 0.25"#) != words, "the stagger left the fingerprint as it was")
        #expect(try lines(#""words", "stagger": 0.2, "each": "slide-up""#) != words, "each left the fingerprint as it was")
        #expect(try lines(#""words", "stagger": 0.2, "each": "slide-up""#) != (try lines(#""words", "stagger": 0.2, "each": "slide-up", "distance": 50"#)))
        #expect(try lines(#""lines", "stagger": 0.2"#) != words && (try lines(#""typewriter""#)) != (try lines(#""words""#)))
        let reasons = RenderReason.changes(from: try lines(#""typewriter""#), to: words, output: "a.mp4", images: [], layers: ["layer 'claim'"])
        #expect(reasons.map(\.description) == ["layer 'claim' in: typewriter → words(stagger 0.2)"], "\(reasons.map(\.description))")
    }
}
