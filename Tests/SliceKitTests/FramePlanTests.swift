// The timeline: how many frames, which frames hold the stills, and where every strip is on
// the frames in between.

import Testing
import SliceKit

@Suite("FramePlan")
struct FramePlanTests {
    /// The per-strip offsets the design prescribes at eased progress `p`.
    static func expectedOffsets(_ plan: FramePlan, progress p: Double, extent: Double) -> (outgoing: [Double], incoming: [Double]) {
        let layout = plan.layout
        let outgoing = (0..<layout.count).map { i in (i % 2 == 0 ? -1.0 : 1.0) * layout.outgoingTravel[i] * extent * p }
        let incoming = (0..<layout.count).map { i in (i % 2 == 0 ? 1.0 : -1.0) * layout.incomingTravel[i] * extent * (1 - p) }
        return (outgoing, incoming)
    }

    static func strips(_ content: FrameContent) -> (outgoing: [Double], incoming: [Double])? {
        if case .strips(let outgoing, let incoming) = content { return (outgoing, incoming) }
        return nil
    }

    @Test("the default spec gives 61 frames: source on 0…30, destination on 60")
    func defaultTimeline() {
        let plan = FramePlan(spec: TransitionSpec())
        #expect(plan.frameCount == 61)
        #expect(plan.content(ofFrame: 0) == .source)
        for frame in 0...30 { #expect(plan.content(ofFrame: frame) == .source, "frame \(frame)") }
        for frame in 31...59 { #expect(Self.strips(plan.content(ofFrame: frame)) != nil, "frame \(frame)") }
        #expect(plan.content(ofFrame: 60) == .destination)
        #expect(plan.content(ofFrame: plan.frameCount - 1) == .destination)
    }

    @Test("the still-only shortcuts agree with content(ofFrame:) on every frame, end hold and stagger included")
    func stillOnlyFrames() {
        var spec = TransitionSpec()
        spec.endHold = 0.5
        spec.stagger = 0.01
        spec.strips = 12
        let plan = FramePlan(spec: spec)
        for frame in 0..<plan.frameCount {
            let content = plan.content(ofFrame: frame)
            #expect(plan.showsSourceOnly(frame: frame) == (content == .source), "frame \(frame)")
            #expect(plan.showsDestinationOnly(frame: frame) == (content == .destination), "frame \(frame)")
        }
    }

    @Test("frame count is ⌈total × fps⌉ + 1, so the last frame is never before the end", arguments: [
        (1.0, 1.0, 0.0, FrameRate(30), 61), (1.0, 1.0, 0.5, FrameRate(30), 76), (0.0, 1.0, 0.0, FrameRate(24), 25),
        (1.0, 1.0, 0.0, FrameRate(30000, 1001), 61), (0.5, 0.7, 0.0, FrameRate(25), 31), (0.3, 0.31, 0.0, FrameRate(10), 8), (0.1, 0.2, 0.0, FrameRate(20), 7),
    ])
    func frameCount(hold: Double, duration: Double, endHold: Double, rate: FrameRate, expected: Int) {
        var spec = TransitionSpec()
        spec.hold = hold; spec.duration = duration; spec.endHold = endHold; spec.frameRate = rate
        #expect(FramePlan(spec: spec).frameCount == expected)
    }

    @Test("frame times are index × 1001 / 30000 at 29.97 fps")
    func ntscTimes() {
        var spec = TransitionSpec()
        spec.frameRate = FrameRate(30000, 1001)
        let plan = FramePlan(spec: spec)
        #expect(plan.time(ofFrame: 0) == 0)
        #expect(abs(plan.time(ofFrame: 1) - 1001.0 / 30000) < 1e-15)
        #expect(abs(plan.time(ofFrame: 30) - 1.001) < 1e-12)
        #expect(abs(plan.time(ofFrame: 30000) - 1001) < 1e-9)
        // Frame 30 is 1 ms past the hold, so it already moves; frame 60 (2.002 s) is the end.
        #expect(plan.content(ofFrame: 29) == .source)
        #expect(Self.strips(plan.content(ofFrame: 30)) != nil)
        #expect(plan.content(ofFrame: 60) == .destination)
    }

    @Test("offsets are sign × K × H × progress (incoming: × (1 − progress)) with linear easing")
    func linearOffsets() throws {
        var spec = TransitionSpec()
        spec.easing = .linear
        let plan = FramePlan(spec: spec)
        for frame in 31...59 {
            let progress = Double(frame) / 30 - 1
            let expected = Self.expectedOffsets(plan, progress: progress, extent: 1080)
            let actual = try #require(Self.strips(plan.content(ofFrame: frame)))
            #expect(actual.outgoing.count == 75 && actual.incoming.count == 75)
            for i in 0..<75 {
                #expect(abs(actual.outgoing[i] - expected.outgoing[i]) < 1e-9)
                #expect(abs(actual.incoming[i] - expected.incoming[i]) < 1e-9)
            }
        }
    }

    @Test("with the seed spring, offsets follow the reference curve values")
    func springOffsets() throws {
        var spec = TransitionSpec()
        spec.frameRate = FrameRate(4)  // frames 5, 6, 7 fall at 0.25, 0.5, 0.75 s into the spring
        let plan = FramePlan(spec: spec)
        for (frame, progress) in [(5, 0.74837), (6, 1.00908), (7, 1.00755)] {
            let expected = Self.expectedOffsets(plan, progress: progress, extent: 1080)
            let actual = try #require(Self.strips(plan.content(ofFrame: frame)))
            let tolerance = 4 * 1080 * 1e-4  // K ≤ 4, curve values given to 1e-4
            for i in 0..<75 {
                #expect(abs(actual.outgoing[i] - expected.outgoing[i]) < tolerance)
                #expect(abs(actual.incoming[i] - expected.incoming[i]) < tolerance)
            }
            // Past the peak the incoming strips overshoot: they sit on the other side of rest.
            if progress > 1 { #expect(actual.incoming[0] < 0 && actual.incoming[1] > 0) }
        }
        #expect(plan.content(ofFrame: 8) == .destination)
    }

    @Test("the first outgoing strip moves up and the first incoming strip comes from below")
    func directions() throws {
        let plan = FramePlan(spec: TransitionSpec())
        let offsets = try #require(Self.strips(plan.content(ofFrame: 40)))
        #expect(offsets.outgoing[0] < 0 && offsets.outgoing[1] > 0)
        #expect(offsets.incoming[0] > 0 && offsets.incoming[1] < 0)
    }

    @Test("horizontal strips travel in frame widths")
    func horizontalExtent() throws {
        var spec = TransitionSpec()
        spec.direction = .horizontal
        spec.strips = 40
        spec.easing = .linear
        let plan = FramePlan(spec: spec)
        #expect(plan.travelExtent == 1920)
        let expected = Self.expectedOffsets(plan, progress: 0.5, extent: 1920)
        let actual = try #require(Self.strips(plan.content(ofFrame: 45)))
        for i in 0..<40 {
            #expect(abs(actual.outgoing[i] - expected.outgoing[i]) < 1e-9)
            #expect(abs(actual.incoming[i] - expected.incoming[i]) < 1e-9)
        }
    }

    @Test("the end hold shows the destination")
    func endHold() {
        var spec = TransitionSpec()
        spec.endHold = 0.5
        let plan = FramePlan(spec: spec)
        #expect(plan.frameCount == 76)
        for frame in 60..<76 { #expect(plan.content(ofFrame: frame) == .destination) }
    }

    /// A UIKit spring with the largest velocity over an hour reaches ~7000 travels; with 100
    /// frame heights of travel that is far past anything whole pixels can hold safely. Offsets
    /// stop at `offsetLimit` frame sizes, where a strip is long off the frame anyway.
    @Test("strip offsets are clamped to ±1024 frame sizes")
    func offsetsAreBounded() throws {
        var spec = TransitionSpec()
        spec.width = 64
        spec.height = 36
        spec.hold = 0
        spec.duration = 3600
        spec.travel = 100...100
        spec.strips = 2
        try spec.set(.easing, to: "spring(damping: 0.9, velocity: 100)")
        try spec.validate()
        let plan = FramePlan(spec: spec)
        let limit = FramePlan.offsetLimit * 36
        let offsets = try #require(Self.strips(plan.content(atTime: 198)))
        #expect(offsets.outgoing == [-limit, limit])
        #expect(offsets.incoming.allSatisfy { abs($0) <= limit })
        // An ordinary frame is untouched.
        let seed = FramePlan(spec: TransitionSpec())
        let expected = Self.expectedOffsets(seed, progress: TransitionSpec().easing.progress(elapsed: 0.5, duration: 1), extent: 1080)
        #expect(Self.strips(seed.content(atTime: 1.5))! == expected)
    }

    @Test("a frame's content depends only on its index and the spec")
    func deterministic() {
        let a = FramePlan(spec: TransitionSpec())
        let b = FramePlan(spec: TransitionSpec())
        for frame in stride(from: a.frameCount - 1, through: 0, by: -1) {
            #expect(a.content(ofFrame: frame) == b.content(ofFrame: frame))
        }
        var other = TransitionSpec()
        other.seed = 1
        #expect(FramePlan(spec: other).content(ofFrame: 40) != a.content(ofFrame: 40))
    }
}
