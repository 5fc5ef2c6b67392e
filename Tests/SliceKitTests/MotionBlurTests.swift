// Motion blur: moving frames are the rounded mean of their sub-frame samples over a 180°
// shutter, and frames showing a still stay exactly that still.

import Testing
@testable import SliceKit

@Suite struct MotionBlurTests {
    /// 32x16, 4 strips, linear over 1 s after a 0.5 s hold, 10 fps: strips move 1.6–4.8 rows
    /// per 0.1 s frame, so samples 12 ms apart land on different rows.
    static func compositor(samples: Int) -> Compositor {
        var spec = TransitionSpec()
        spec.width = 32
        spec.height = 16
        spec.strips = 4
        spec.easing = .linear
        spec.hold = 0.5
        spec.duration = 1
        spec.frameRate = FrameRate(10)
        spec.motionBlur = samples
        let source = FramePlanTests.gradient(width: 32, height: 16, base: 0)
        let destination = FramePlanTests.gradient(width: 32, height: 16, base: 120)
        return Compositor(plan: FramePlan(spec: spec), source: source, destination: destination)
    }

    static func render(_ blur: MotionBlur, frame: Int) -> PlanarImage {
        let image = PlanarImage(width: 32, height: 16, layout: .gbrp)
        blur.render(frame: frame, into: image)
        return image
    }

    @Test func samplesSpanAHalfFrameCentredOnTheFrameTime() {
        let blur = MotionBlur(MotionBlurTests.compositor(samples: 4))
        // Frame 10 at 1.0 s, exposed over 1.0 ± 0.025 s, sampled at the middles of 4 parts.
        let expected = [0.98125, 0.99375, 1.00625, 1.01875]
        #expect(zip(blur.sampleTimes(ofFrame: 10), expected).allSatisfy { abs($0 - $1) < 1e-12 })
        #expect(MotionBlur(MotionBlurTests.compositor(samples: 1)).sampleTimes(ofFrame: 10) == [1.0])
    }

    @Test func aMovingFrameIsTheRoundedMeanOfItsSamples() {
        let compositor = MotionBlurTests.compositor(samples: 4)
        let blur = MotionBlur(compositor)
        let blurred = MotionBlurTests.render(blur, frame: 10)
        let sharp = MotionBlurTests.render(MotionBlur(MotionBlurTests.compositor(samples: 1)), frame: 10)
        #expect(!blurred.hasSamePixels(as: sharp))

        let samples = blur.sampleTimes(ofFrame: 10).map { time -> PlanarImage in
            let image = PlanarImage(width: 32, height: 16, layout: .gbrp)
            compositor.render(compositor.plan.content(atTime: time), into: image)
            return image
        }
        for p in 0..<3 {
            for y in 0..<16 {
                for x in 0..<32 {
                    let sum = samples.reduce(0) { $0 + Int($1.planes[p].row(y)[x]) }
                    #expect(Int(blurred.planes[p].row(y)[x]) == (sum + 2) / 4, "plane \(p) (\(x), \(y))")
                }
            }
        }
    }

    @Test func stillFramesStayExact() {
        let compositor = MotionBlurTests.compositor(samples: 8)
        let blur = MotionBlur(compositor)
        // Frame 5 is the last of the hold (0.5 s), though half its exposure overlaps the
        // motion; frame 15 is the last frame.
        #expect(compositor.plan.frameCount == 16)
        for frame in [0, 5] {
            #expect(MotionBlurTests.render(blur, frame: frame).hasSamePixels(as: compositor.source))
        }
        #expect(MotionBlurTests.render(blur, frame: 15).hasSamePixels(as: compositor.destination))
    }

    @Test func oneSampleIsTheCompositorsOwnFrame() {
        let compositor = MotionBlurTests.compositor(samples: 1)
        let sharp = PlanarImage(width: 32, height: 16, layout: .gbrp)
        compositor.render(frame: 8, into: sharp)
        #expect(MotionBlurTests.render(MotionBlur(compositor), frame: 8).hasSamePixels(as: sharp))
    }
}
