// Why a job renders, read from the difference between the fingerprint lines its sidecar kept
// and this run's: values with spaces (easings) stay whole, and frames and length that follow
// from a changed setting are not named on their own.

import SliceKit
import Testing
@testable import SliceCampaign
@testable import SlicePipeline

@Suite struct RenderReasonTests {
    @Test func valuesWithSpacesStayWhole() {
        let fields = RenderReason.fields(of: "transition 0 size=64x36 easing=spring(damping: 0.8, velocity: 0) seed=7")
        #expect(fields.map(\.key) == ["size", "easing", "seed"])
        #expect(fields[1].value == "spring(damping: 0.8, velocity: 0)")
    }

    @Test func eachChangeIsNamedOnceWithItsValues() {
        let old = ["slicevid 0.2.0", "image 0 aaa", "image 1 bbb", "transition 0 size=64x36 easing=linear seed=1",
                   "output mp4 canvas=yuv420p codec=h264 frames=6 duration=0.600 crf=18"]
        var new = old
        new[2] = "image 1 ccc"
        new[3] = "transition 0 size=64x36 easing=spring(damping: 0.8, velocity: 0) seed=1"
        new[4] = "output mp4 canvas=yuv420p codec=h264 frames=7 duration=0.700 crf=20"
        let reasons = RenderReason.changes(from: old, to: new, output: "/o/a.mp4", images: ["/s/a.png", "/s/b.png"])
        #expect(reasons.map(\.description) == ["still 1 (/s/b.png) changed", "easing linear → spring(damping: 0.8, velocity: 0)",
                                               "crf 18 → 20 (/o/a.mp4)"])
        #expect(reasons.map(\.kind) == [.stillChanged, .settingChanged, .outputSettingChanged])
        // Frames alone changed (a GIF's rate, say): then they are the reason.
        var rate = old
        rate[4] = "output mp4 canvas=yuv420p codec=h264 frames=7 duration=0.700 crf=18"
        #expect(RenderReason.changes(from: old, to: rate, output: "x", images: []).map(\.field) == ["frames", "duration"])
        // A sidecar without its lines (slicevid 0.1) can only say the fingerprint differs.
        #expect(RenderReason.changes(from: [], to: new, output: "x", images: []).map(\.kind) == [.fingerprintChanged])
    }

    @Test func aChangedMotionIsNamedInWords() {
        var sequence = SequenceSpec(base: TransitionSpec(), imageCount: 2)
        let old = Fingerprint(sequence: sequence, imageHashes: ["aa", "bb"], version: "1").lines
        for k in sequence.segments.indices { sequence.segments[k].motion = StillMotion(kind: .pushIn, amount: 0.2) }
        var new = Fingerprint(sequence: sequence, imageHashes: ["aa", "bb"], version: "1").lines
        #expect(RenderReason.changes(from: old, to: new, output: "x", images: []).map(\.description)
            == ["motion none → push-in", "motion-amount 0.1 → 0.2"])
        // An image's own motion, its bytes unchanged: the setting is named, not the still.
        let shared = new
        sequence.setMotion(StillMotion(kind: .panUp, amount: 0.2), ofImage: 1)
        new = Fingerprint(sequence: sequence, imageHashes: ["aa", "bb"], version: "1").lines
        #expect(RenderReason.changes(from: shared, to: new, output: "x", images: ["a.png", "b.png"]).map(\.description)
            == ["still 1 motion the job's → pan-up", "still 1 motion-amount the job's → 0.2", "still 1 motion-easing the job's → linear"])
    }
}
