// The timeline and strip offsets: stagger makes a wave and lengthens the clip, the last frame
// is always the destination, and horizontal strips travel across the frame's width.

import Testing
@testable import SliceKit

@Suite struct StaggerPlanTests {
    /// Four strips that all travel exactly one frame size (K = 1), linear, no hold, 10 fps.
    static func spec(stagger: Double, direction: StripDirection = .vertical) -> TransitionSpec {
        var spec = TransitionSpec()
        spec.width = 40
        spec.height = 20
        spec.strips = 4
        spec.travel = 1...1
        spec.easing = .linear
        spec.hold = 0
        spec.duration = 1
        spec.frameRate = FrameRate(10)
        spec.stagger = stagger
        spec.direction = direction
        return spec
    }

    @Test func staggerDelaysEachStripAndLengthensTheClip() {
        let plan = FramePlan(spec: StaggerPlanTests.spec(stagger: 0.1))
        // 1 s + 0.1 s × 3 strips = 1.3 s at 10 fps: 13 intervals, 14 frames.
        #expect(plan.spec.transitionSeconds == 1.3)
        #expect(plan.frameCount == 14)
        // At 0.25 s strip i has moved 0.25 − 0.1·i of the way (strip 3 not yet started).
        // Outgoing strips alternate up (−) and down; incoming ones start below (+), above.
        #expect(StaggerPlanTests.offsets(plan.content(atTime: 0.25), [-5, 3, -1, 0], [15, -17, 19, -20]))
        // At 1.2 s the first three have arrived and the last is 90 % of the way.
        #expect(StaggerPlanTests.offsets(plan.content(ofFrame: 12), [-20, 20, -20, 18], [0, 0, 0, -2]))
        #expect(plan.content(ofFrame: 13) == .destination)
    }

    @Test func withoutStaggerEveryStripMovesTogether() {
        let plan = FramePlan(spec: StaggerPlanTests.spec(stagger: 0))
        #expect(plan.frameCount == 11)
        #expect(plan.content(atTime: 0.25) == .strips(outgoing: [-5, 5, -5, 5], incoming: [15, -15, 15, -15]))
    }

    /// A transition that ends between two frames gets one more frame, so the clip still ends
    /// on the destination rather than cutting the last strip short.
    @Test func aTimelineEndingBetweenFramesIsRoundedUp() {
        let plan = FramePlan(spec: StaggerPlanTests.spec(stagger: 0.0125))
        #expect(plan.frameCount == 12)
        guard case .strips = plan.content(ofFrame: 10) else {
            Issue.record("at 1.0 s the later strips are still moving")
            return
        }
        #expect(plan.content(ofFrame: 11) == .destination)
    }

    @Test func frameCountsAtTheDefaultsAndAtNTSCRates() {
        #expect(FramePlan(spec: TransitionSpec()).frameCount == 61)
        var spec = TransitionSpec()
        spec.frameRate = FrameRate(30000, 1001)
        spec.endHold = 0.5
        // 2.5 s × 29.97 = 74.925 frame intervals → 75, 76 frames; the last is the destination.
        let plan = FramePlan(spec: spec)
        #expect(plan.frameCount == 76)
        #expect(plan.content(ofFrame: 75) == .destination)
        // Frame 29 is at 0.968 s, still in the 1 s hold; frame 30 (1.001 s) moves.
        #expect(plan.content(ofFrame: 29) == .source)
        #expect(plan.content(ofFrame: 30) != .source)
    }

    @Test func horizontalStripsTravelAcrossTheWidth() {
        let plan = FramePlan(spec: StaggerPlanTests.spec(stagger: 0, direction: .horizontal))
        #expect(plan.travelExtent == 40)
        #expect(plan.content(atTime: 0.25) == .strips(outgoing: [-10, 10, -10, 10], incoming: [30, -30, 30, -30]))
    }

    /// Horizontal bands slide sideways: with column-gradient stills a band's pixels show the
    /// exact shift. Band 0 (rows 0–4) at 25 %: the source moved 10 px left, the destination
    /// is still 30 px to the right and drawn over it.
    @Test func horizontalStripsAreDrawnShiftedSideways() {
        let spec = StaggerPlanTests.spec(stagger: 0, direction: .horizontal)
        let source = StaggerPlanTests.gradient(width: 40, height: 20, base: 0)
        let destination = StaggerPlanTests.gradient(width: 40, height: 20, base: 100)
        let compositor = Compositor(plan: FramePlan(spec: spec), source: source, destination: destination)
        let frame = PlanarImage(width: 40, height: 20, layout: .gbrp)
        compositor.render(compositor.plan.content(atTime: 0.25), into: frame)
        let band0 = Array(UnsafeBufferPointer(start: frame.planes[0].row(2), count: 40))
        #expect(band0 == (10..<40).map(UInt8.init) + (100..<110).map(UInt8.init))
        // Band 1 (rows 5–9): the source moved 10 px right (background on the left), the
        // destination is 30 px to the left, its last 10 columns showing.
        let band1 = Array(UnsafeBufferPointer(start: frame.planes[0].row(7), count: 40))
        #expect(band1 == (130..<140).map(UInt8.init) + (0..<30).map(UInt8.init))
    }

    @Test func stripWidthGivesACountThatFollowsTheFrame() throws {
        var spec = TransitionSpec()
        try spec.set(.slices, to: "24px")
        #expect(spec.strips == 80) // 1920 / 24
        spec.width = 1080
        #expect(spec.strips == 45)
        spec.direction = .horizontal
        #expect(spec.strips == 45) // across the 1080 px height
        spec.height = 100
        #expect(spec.strips == 4) // 100 / 24 = 4.17
        spec.height = 10
        #expect(spec.strips == 1) // never fewer than one
        #expect(spec.text(of: .slices) == "24px")
        spec.strips = 30
        #expect(spec.division == .count(30))
        #expect(spec.text(of: .slices) == "30")
    }

    /// Whether `content` is strips at these offsets (to rounding error).
    static func offsets(_ content: FrameContent, _ outgoing: [Double], _ incoming: [Double]) -> Bool {
        guard case .strips(let out, let inc) = content, out.count == outgoing.count, inc.count == incoming.count else { return false }
        return zip(out + inc, outgoing + incoming).allSatisfy { abs($0 - $1) < 1e-9 }
    }

    /// A still whose every plane holds `base + x` in column x.
    static func gradient(width: Int, height: Int, base: Int) -> PlanarImage {
        let image = PlanarImage(width: width, height: height, layout: .gbrp)
        for plane in image.planes {
            for y in 0..<plane.height {
                for x in 0..<plane.width { plane.row(y)[x] = UInt8(base + x) }
            }
        }
        return image
    }
}
