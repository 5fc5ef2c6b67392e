// Sequences: segments laid end to end without repeating the shared image, holds per image,
// a seed per transition, and the two-image case identical to a single clip.

import Testing
@testable import SliceKit

@Suite struct SequencePlanTests {
    /// 64x36 at 10 fps, 0.2 s hold, 0.3 s transition: 6 frames per two-image clip.
    private func base() -> TransitionSpec {
        var spec = TransitionSpec()
        spec.width = 64
        spec.height = 36
        spec.frameRate = FrameRate(10)
        spec.hold = 0.2
        spec.duration = 0.3
        spec.strips = 8
        return spec
    }

    @Test func boundaryFramesAreShownOnce() {
        var spec = base()
        spec.endHold = 0.2
        let plan = SequencePlan(spec: SequenceSpec(base: spec, imageCount: 4))
        // Segments: 6, 6 and 8 frames (the last with the end hold); two shared boundaries.
        #expect(plan.segments.map(\.frameCount) == [6, 6, 8])
        #expect(plan.starts == [0, 5, 10])
        #expect(plan.frameCount == 5 + 5 + 8)
        #expect(plan.locate(frame: 4) == SequenceFrame(segment: 0, frame: 4))
        #expect(plan.locate(frame: 5) == SequenceFrame(segment: 1, frame: 0))
        #expect(plan.locate(frame: 17) == SequenceFrame(segment: 2, frame: 7))
    }

    @Test func everyImageIsHeldAndTheLastEndsTheVideo() {
        var sequence = SequenceSpec(base: base(), imageCount: 3)
        sequence.setHold(0.5, ofImage: 1)
        sequence.setHold(0.3, ofImage: 2)
        #expect(sequence.segments[1].hold == 0.5)
        #expect(sequence.segments[1].endHold == 0.3)
        #expect(sequence.hold(ofImage: 2) == 0.3)
        let plan = SequencePlan(spec: sequence)
        // What each global frame shows: image k held, strips in motion (nil), image k+1.
        let shown: [Int?] = (0..<plan.frameCount).map { index in
            let at = plan.locate(frame: index)
            switch plan.segments[at.segment].content(ofFrame: at.frame) {
            case .source: return at.segment
            case .destination: return at.segment + 1
            case .strips: return nil
            }
        }
        #expect(shown == [0, 0, 0, nil, nil,
                          1, 1, 1, 1, 1, 1, nil, nil,
                          2, 2, 2, 2])
    }

    @Test func eachTransitionHasItsOwnSeedAndTwoImagesAreTheClip() {
        let spec = base()
        let sequence = SequenceSpec(base: spec, imageCount: 4)
        let seeds = sequence.segments.map(\.seed)
        #expect(seeds[0] == spec.seed)
        #expect(Set(seeds).count == 3)
        var generator = SplitMix64(seed: spec.seed)
        #expect(seeds[1] == generator.next())
        #expect(seeds[2] == generator.next())
        #expect(SequenceSpec(base: spec, imageCount: 2).segments == [spec])
        #expect(SequencePlan(spec: SequenceSpec(base: spec, imageCount: 2)).frameCount == FramePlan(spec: spec).frameCount)
    }

    @Test func transitionsMustShareTheFrame() {
        var sequence = SequenceSpec(base: base(), imageCount: 3)
        #expect(throws: Never.self) { try sequence.validate() }
        sequence.segments[1].easing = .linear
        #expect(throws: Never.self) { try sequence.validate() }
        sequence.segments[1].frameRate = FrameRate(25)
        #expect(throws: SpecError.self) { try sequence.validate() }
    }

    /// Three hours bounds a video to 2 592 001 frames at 240 fps, which keeps every frame and
    /// timestamp product (frames × numerator × denominator) far inside 64 bits.
    @Test func aVideoLastsAtMostThreeHours() throws {
        var spec = base()
        spec.hold = 3600
        var sequence = SequenceSpec(base: spec, imageCount: 3)
        #expect(throws: Never.self) { try sequence.validate() }
        sequence = SequenceSpec(base: spec, imageCount: 4)
        let error = try #require(throws: SpecError.self) { try sequence.validate() }
        #expect(error.field == "images")
        #expect(error.description == "images: 4 images make a video of 10801 s; a video lasts at most 10800 s (3 hours): use fewer images or shorter holds and durations")
        #expect(SequenceSpec.maximumFrames == 2_592_001)
    }

    @Test func theSequenceCompositorDrawsEachPairFromItsOwnStills() {
        let spec = base()
        let plan = SequencePlan(spec: SequenceSpec(base: spec, imageCount: 3))
        let colors = [RGBAColor(red: 250, green: 0, blue: 0), RGBAColor(red: 0, green: 250, blue: 0),
                      RGBAColor(red: 0, green: 0, blue: 250)]
        let stills = colors.map { color -> PlanarImage in
            let image = PlanarImage(width: 64, height: 36, layout: .gbrp)
            image.fill(color)
            return image
        }
        let compositor = SequenceCompositor(plan: plan, stills: stills)
        let frame = PlanarImage(width: 64, height: 36, layout: .gbrp)
        for (index, image) in [(0, 0), (5, 1), (plan.frameCount - 1, 2)] {
            compositor.render(frame: index, into: frame)
            #expect(frame.hasSamePixels(as: stills[image]), "frame \(index) shows image \(image)")
        }
    }

    @Test func blurredTransitionsOfASequenceShareTheirScratchBuffers() {
        var spec = base()
        spec.motionBlur = 4
        let plan = SequencePlan(spec: SequenceSpec(base: spec, imageCount: 5))
        let stills = (0..<5).map { index -> PlanarImage in
            let image = PlanarImage(width: 64, height: 36, layout: .yuv420p)
            image.fill(RGBAColor(red: UInt8(40 * index), green: 100, blue: UInt8(200 - 40 * index)))
            return image
        }
        let compositor = SequenceCompositor(plan: plan, stills: stills)
        let frame = PlanarImage(width: 64, height: 36, layout: .yuv420p)
        for index in 0..<plan.frameCount { compositor.render(frame: index, into: frame) }
        // Four blurred transitions, one thread: one set, not one per transition.
        #expect(compositor.scratchBuffersMade == 1)
    }

    @Test func aStillBetweenTwoTransitionsIsCutOnceAndEachTransitionDrawsItsOwnStrips() {
        let stills = (0..<3).map {
            CompositorReferenceTests.still(width: 64, height: 36, layout: .yuv420p, seed: UInt64($0))
        }
        for secondStrips in [5, 9] {
            var spec = base()
            spec.duration = 1
            spec.travel = 0.3...1  // both stills stay partly in view for most of the motion
            var sequence = SequenceSpec(base: spec, imageCount: 3)
            sequence.segments[0].strips = 5
            sequence.segments[1].strips = secondStrips
            let plan = SequencePlan(spec: sequence)
            let compositor = SequenceCompositor(plan: plan, stills: stills)
            // Image 1 ends one transition and starts the next: cut once when both have 5 strips.
            #expect(compositor.stillsCut == (secondStrips == 5 ? 3 : 4))
            let frame = PlanarImage(width: 64, height: 36, layout: .yuv420p)
            let alone = PlanarImage(width: 64, height: 36, layout: .yuv420p)
            for index in 0..<plan.frameCount {
                let at = plan.locate(frame: index)
                compositor.render(frame: index, into: frame)
                Compositor(plan: plan.segments[at.segment], source: stills[at.segment], destination: stills[at.segment + 1])
                    .render(frame: at.frame, into: alone)
                #expect(frame.hasSamePixels(as: alone), "frame \(index), \(secondStrips) strips in the second transition")
            }
        }
    }
}
