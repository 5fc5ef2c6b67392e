// The cache-friendly compositor against the straightforward reference (ReferenceCompositor),
// byte for byte: every layout, both directions, odd sizes, strips wider and narrower than a
// chroma pixel, offsets far past the frame's edges, overshooting curves, a transparent
// background, whole frames and motion-blur samples between them.

import Testing
@testable import SliceKit

@Suite("Compositor against the reference")
struct CompositorReferenceTests {
    /// One situation to render every frame of.
    struct Scenario: CustomStringConvertible {
        var width: Int, height: Int, strips: Int
        var travel: ClosedRange<Double>
        var easing: Easing
        var background = RGBAColor.black
        var stagger = 0.0
        var description: String { "\(width)x\(height), \(strips) strips, K \(travel), \(easing), \(background)" }
    }

    static let scenarios: [Scenario] = [
        // Strips ~3 px wide: narrower than one chroma pixel's pair once halved.
        Scenario(width: 16, height: 8, strips: 5, travel: 0.2...1.6, easing: .linear),
        // Odd sizes: chroma planes rounded up, strips of unequal widths.
        Scenario(width: 17, height: 9, strips: 3, travel: 1...4, easing: .seedSpring),
        Scenario(width: 33, height: 7, strips: 7, travel: 0.5...2, easing: .penner(PennerCurve(.elastic, .inOut))),
        // More strips than pixels across: empty strips, and one-pixel strips next to each other.
        Scenario(width: 20, height: 12, strips: 75, travel: 1...4, easing: .seedSpring, stagger: 0.01),
        // Far past the edges: K up to 6 frame sizes, and a curve that first moves backwards.
        Scenario(width: 24, height: 14, strips: 4, travel: 3...6, easing: .penner(PennerCurve(.back, .in))),
        // Wide strips (several 16-byte moves per row) and a transparent background.
        Scenario(width: 150, height: 22, strips: 2, travel: 0.3...1.2, easing: .penner(PennerCurve(.back, .out)),
                 background: RGBAColor(red: 200, green: 40, blue: 90, alpha: 0)),
        // Rows past memcpy's threshold, in a larger frame.
        Scenario(width: 322, height: 180, strips: 11, travel: 0.1...0.9, easing: .linear,
                 background: RGBAColor(red: 255, green: 255, blue: 255)),
    ]

    static func spec(_ s: Scenario, _ direction: StripDirection) -> TransitionSpec {
        var spec = TransitionSpec()
        spec.width = s.width
        spec.height = s.height
        spec.strips = s.strips
        spec.direction = direction
        spec.travel = s.travel
        spec.easing = s.easing
        spec.background = s.background
        spec.stagger = s.stagger
        spec.hold = 0.1
        spec.duration = 0.6
        spec.frameRate = FrameRate(20)
        return spec
    }

    /// A still whose bytes are pseudo-random, so a byte from the wrong place shows.
    static func still(width: Int, height: Int, layout: PixelLayout, seed: UInt64) -> PlanarImage {
        var random = SplitMix64(seed: seed)
        return PlanarImage.patterned(width: width, height: height, layout: layout) { _, _, _ in
            UInt8(truncatingIfNeeded: random.next())
        }
    }

    /// A buffer painted with `value`, so a pixel left unwritten shows.
    static func canvas(like still: PlanarImage, painted value: UInt8) -> PlanarImage {
        let image = PlanarImage(width: still.width, height: still.height, layout: still.layout)
        for plane in image.planes { for y in 0..<plane.height { plane.row(y).update(repeating: value, count: plane.rowBytes) } }
        return image
    }

    @Test("every frame and blur sample matches the reference", arguments: PixelLayout.allCases, StripDirection.allCases)
    func framesMatchTheReference(layout: PixelLayout, direction: StripDirection) {
        for scenario in Self.scenarios {
            let plan = FramePlan(spec: Self.spec(scenario, direction))
            let source = Self.still(width: scenario.width, height: scenario.height, layout: layout, seed: 1)
            let destination = Self.still(width: scenario.width, height: scenario.height, layout: layout, seed: 2)
            let compositor = Compositor(plan: plan, source: source, destination: destination)
            let reference = ReferenceCompositor(plan: plan, source: source, destination: destination)
            // Every frame, and times a third of the way between frames (as blur samples are).
            let times = (0..<plan.frameCount).flatMap { [plan.time(ofFrame: $0), plan.time(ofFrame: $0) + 1 / 60] }
            for time in times {
                let content = plan.content(atTime: time)
                let drawn = Self.canvas(like: source, painted: 0xEE)
                let expected = Self.canvas(like: source, painted: 0x11)
                compositor.render(content, into: drawn)
                reference.render(content, into: expected)
                #expect(drawn.hasSamePixels(as: expected), "\(scenario), t = \(time)")
            }
        }
    }

    @Test("a blurred frame is the rounded mean of the reference's samples", arguments: [
        (PixelLayout.yuv420p, StripDirection.vertical), (.yuva420p, .horizontal), (.gbrap, .vertical), (.yuv444p, .horizontal),
        (.yuv420p16, .vertical), (.gbrap16, .horizontal),
    ])
    func blurMatchesTheReference(layout: PixelLayout, direction: StripDirection) {
        // 161 pixels wide: a blur band of 32 KiB holds 203 such rows, so a taller frame spans bands.
        var spec = Self.spec(Scenario(width: 161, height: 250, strips: 9, travel: 0.5...2, easing: .seedSpring), direction)
        spec.motionBlur = 5
        let plan = FramePlan(spec: spec)
        let source = Self.still(width: 161, height: 250, layout: layout, seed: 3)
        let destination = Self.still(width: 161, height: 250, layout: layout, seed: 4)
        let blur = MotionBlur(Compositor(plan: plan, source: source, destination: destination))
        let reference = ReferenceCompositor(plan: plan, source: source, destination: destination)
        for frame in [3, 6, 10] {  // in motion (frame 2 ends the hold and is the still itself)
            let samples = blur.sampleTimes(ofFrame: frame).map { time in
                let image = Self.canvas(like: source, painted: 0)
                reference.render(plan.content(atTime: time), into: image)
                return image
            }
            let blurred = Self.canvas(like: source, painted: 0xEE)
            blur.render(frame: frame, into: blurred)
            var same = true
            for (p, plane) in blurred.planes.enumerated() {
                for y in 0..<plane.height {
                    for x in 0..<plane.width {
                        let sum = samples.reduce(0) { $0 + $1.sample(plane: p, x: x, y: y) }
                        same = same && blurred.sample(plane: p, x: x, y: y) == (sum + 2) / 5
                    }
                }
            }
            #expect(same, "frame \(frame)")
        }
    }

    @Test("neighbouring strips that show the same thing are drawn as one patch")
    func alikeStripsMerge() {
        // Mid-way with K ≥ 3 on both sides, every strip has left the frame: one fill patch per
        // plane, not one per strip. Linear progress 0.5 at t = 0.4 s.
        let spec = Self.spec(Scenario(width: 40, height: 20, strips: 10, travel: 3...4, easing: .linear), .vertical)
        let still = Self.still(width: 40, height: 20, layout: .yuv420p, seed: 5)
        let compositor = Compositor(plan: FramePlan(spec: spec), source: still, destination: still)
        let drawing = compositor.drawing(of: compositor.plan.content(atTime: 0.4))
        #expect(drawing.map(\.patchCount) == [1, 1, 1])
        // The same frame horizontally: one band, one patch.
        let across = Compositor(plan: FramePlan(spec: Self.spec(Scenario(width: 40, height: 20, strips: 10, travel: 3...4,
                                                                           easing: .linear), .horizontal)),
                                source: still, destination: still)
        #expect(across.drawing(of: across.plan.content(atTime: 0.4)).map(\.patchCount) == [1, 1, 1])
    }

    @Test("row copies of every width from 0 to 300 bytes write exactly their bytes")
    func rowCopiesOfEveryWidth() {
        var random = SplitMix64(seed: 9)
        let source = (0..<3 * 320).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        for width in 0...300 {
            // Three rows, 320 bytes apart in the source and 330 in the target; guard bytes around.
            var target = [UInt8](repeating: 0xA5, count: 3 * 330 + 32)
            source.withUnsafeBufferPointer { from in
                target.withUnsafeMutableBufferPointer { to in
                    Patch.copyRows(3, width: width, from: from.baseAddress! + 1, step: 320, to: to.baseAddress! + 16, stride: 330)
                }
            }
            var expected = [UInt8](repeating: 0xA5, count: 3 * 330 + 32)
            for r in 0..<3 { for i in 0..<width { expected[16 + r * 330 + i] = source[1 + r * 320 + i] } }
            #expect(target == expected, "width \(width)")
        }
    }

    @Test("the blur's mean by multiply and shift is exact for every count and sum")
    func sampleMeanIsExact() {
        for count in 1...MotionBlur.maximumSamples {
            let mean = SampleMean(count)
            let wrong = (0...count * 255).first { sum in Int(mean.of(UInt16(sum))) != (sum + count / 2) / count }
            #expect(wrong == nil, "\(count) samples, sum \(wrong ?? 0)")
        }
    }
}
