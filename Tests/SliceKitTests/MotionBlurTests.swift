// Motion blur: moving frames are the rounded mean of their sub-frame samples over a 180°
// shutter, and frames showing a still stay exactly that still.

import Testing
@testable import SliceKit

@Suite struct MotionBlurTests {
    /// StaggerPlanTests' 40x20 clip of 4 strips (linear, 10 fps) after a 0.5 s hold, each strip
    /// travelling 4 frame heights: 8 rows per 0.1 s frame, so a frame's samples land on
    /// different rows.
    static func compositor(samples: Int) -> Compositor {
        var spec = StaggerPlanTests.spec(stagger: 0)
        spec.hold = 0.5
        spec.travel = 4...4
        spec.motionBlur = samples
        let source = StaggerPlanTests.gradient(width: 40, height: 20, base: 0)
        let destination = StaggerPlanTests.gradient(width: 40, height: 20, base: 120)
        return Compositor(plan: FramePlan(spec: spec), source: source, destination: destination)
    }

    static func render(_ blur: MotionBlur, frame: Int) -> PlanarImage {
        let image = PlanarImage(width: 40, height: 20, layout: .gbrp)
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
        // Frame 6, 0.1 s into the motion: the source strips have moved 7–9 rows during its exposure.
        let blurred = MotionBlurTests.render(blur, frame: 6)
        let sharp = MotionBlurTests.render(MotionBlur(MotionBlurTests.compositor(samples: 1)), frame: 6)
        #expect(!blurred.hasSamePixels(as: sharp))

        let samples = blur.sampleTimes(ofFrame: 6).map { time -> PlanarImage in
            let image = PlanarImage(width: 40, height: 20, layout: .gbrp)
            compositor.render(compositor.plan.content(atTime: time), into: image)
            return image
        }
        for p in 0..<3 {
            for y in 0..<20 {
                for x in 0..<40 {
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
        let sharp = PlanarImage(width: 40, height: 20, layout: .gbrp)
        compositor.render(frame: 8, into: sharp)
        #expect(MotionBlurTests.render(MotionBlur(compositor), frame: 8).hasSamePixels(as: sharp))
    }

    @Test func scratchBuffersAreReusedAndFramesDoNotLeakIntoEachOther() {
        let blur = MotionBlur(MotionBlurTests.compositor(samples: 4))
        // Rendered twice in a row on one thread, in an order that reuses the sums of a busier
        // frame: each frame must equal a fresh render of it, and one set serves them all.
        let frames = Array(5...12)
        let fresh = frames.map { MotionBlurTests.render(MotionBlur(MotionBlurTests.compositor(samples: 4)), frame: $0) }
        for _ in 0..<2 {
            for (frame, expected) in zip(frames.reversed(), fresh.reversed()) {
                #expect(MotionBlurTests.render(blur, frame: frame).hasSamePixels(as: expected), "frame \(frame)")
            }
        }
        #expect(blur.scratchBuffersMade == 1)
    }
}
