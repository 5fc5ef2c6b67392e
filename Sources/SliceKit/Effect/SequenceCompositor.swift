// Draws any frame of a sequence: finds the transition it belongs to and lets that pair's
// Compositor draw it (through MotionBlur, a plain render when the blur is off), so a sequence
// renders through one closure like a single clip.

/// Renders the frames of a `SequencePlan` from its stills, already fitted to the frame.
///
/// Thread-safe like `Compositor`: it only reads its stills, and neighbouring transitions share
/// a still rather than copying it.
package struct SequenceCompositor: Sendable {
    package let plan: SequencePlan
    private let compositors: [MotionBlur]
    /// Stills cut into strips for the sequence's vertical transitions: one per still and strip
    /// count, however many transitions share it.
    let stillsCut: Int
    /// Pictures moving stills are warped into, shared by every transition.
    package let pictures: PicturePool

    /// - Parameters:
    ///   - plan: the sequence's timeline.
    ///   - stills: one picture per image, in order (`plan.segments.count + 1` of them), all of
    ///     the frame size and one layout.
    package init(plan: SequencePlan, stills: [PlanarImage]) {
        precondition(stills.count == plan.segments.count + 1, "one still per image of the sequence")
        self.plan = plan
        // One scratch pool for every transition: a blurred frame's buffers are the frame's size
        // whichever transition it belongs to, and a pool per transition would keep a set per
        // thread for each of them until the end of the run.
        let scratch = ScratchPool()
        // Likewise one pool for the pictures moving stills are warped into.
        let pictures = PicturePool()
        self.pictures = pictures
        // A still between two transitions is cut into strips once for both (when they have
        // as many strips), not once per transition.
        var cuts: [ObjectIdentifier: [Int: StillStrips]] = [:]
        compositors = plan.segments.enumerated().map { pair, segment in
            let cut = { (still: PlanarImage, sampleBytes: [Int]) -> StillStrips in
                if let made = cuts[ObjectIdentifier(still)]?[segment.layout.count] { return made }
                let made = StillStrips(still, strips: segment.layout, sampleBytes: sampleBytes)
                cuts[ObjectIdentifier(still), default: [:]][segment.layout.count] = made
                return made
            }
            let compositor = Compositor(plan: segment, source: stills[pair], destination: stills[pair + 1], cut: cut,
                                        motion: plan.motion(ofTransition: pair, pictures: pictures))
            return MotionBlur(compositor, scratch: scratch)
        }
        stillsCut = cuts.values.reduce(0) { $0 + $1.count }
    }

    /// Scratch sets made for blurred frames over the whole sequence (they are shared by its
    /// transitions): at most one per thread blurring at the same time.
    var scratchBuffersMade: Int {
        var pools: [ObjectIdentifier: Int] = [:]
        for blur in compositors { pools[ObjectIdentifier(blur.scratchPool)] = blur.scratchBuffersMade }
        return pools.values.reduce(0, +)
    }

    /// The sequence's last picture, which every frame after the last transition shows.
    package var lastStill: PlanarImage? { compositors.last?.compositor.destination }

    /// Frames in the whole video.
    package var frameCount: Int { plan.frameCount }

    /// Draws global frame `index` into `target`, overwriting every pixel.
    package func render(frame index: Int, into target: PlanarImage) {
        let location = plan.locate(frame: index)
        compositors[location.segment].render(frame: location.frame, into: target)
    }
}
