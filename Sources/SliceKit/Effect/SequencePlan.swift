// The timeline of a sequence: the segments' FramePlans laid end to end, and the mapping from a
// frame of the whole video to a frame of one segment.

/// Where a frame of a sequence comes from.
package struct SequenceFrame: Sendable, Equatable {
    /// The transition (pair of images) the frame belongs to.
    package var segment: Int
    /// The frame's index within that segment's `FramePlan`.
    package var frame: Int
}

/// One `FramePlan` per transition, concatenated.
///
/// A segment's last frame is the next image exactly, which is also the next segment's first
/// frame (its hold starts there); it is shown once, so segment `k < last` contributes
/// `frameCount − 1` frames and the last segment all of its frames. With two images the plan
/// is the single `FramePlan`, frame for frame. Each segment is rounded to whole frames on its
/// own, so a long sequence may drift from the sum of its seconds by up to half a frame per
/// transition.
package struct SequencePlan: Sendable {
    /// One plan per consecutive pair of images.
    package let segments: [FramePlan]
    /// The global index of each segment's first frame.
    package let starts: [Int]
    /// Frames in the whole video.
    package let frameCount: Int
    /// How each image moves, on the whole video's clock; nil for an image that does not move.
    package private(set) var motions: [MotionPath?]

    /// - Precondition: `spec` is valid (`spec.validate()` did not throw).
    package init(spec: SequenceSpec) {
        segments = spec.segments.map(FramePlan.init(spec:))
        var starts: [Int] = []
        var next = 0
        for plan in segments {
            starts.append(next)
            next += plan.frameCount - 1
        }
        self.starts = starts
        frameCount = next + 1
        let segments = segments
        // Image k shows from the moment its strips start to arrive (the video's start for the
        // first) until the last of them has left (the last frame for the last image).
        let time = { (frame: Int) in segments[0].time(ofFrame: frame) }
        motions = (0..<spec.imageCount).map { k in
            let motion = spec.motion(ofImage: k)
            guard motion.moves else { return nil }
            let start = k == 0 ? 0 : time(starts[k - 1]) + segments[k - 1].spec.hold
            let end = k == segments.count ? time(next) : time(starts[k]) + segments[k].spec.hold + segments[k].spec.transitionSeconds
            return MotionPath(motion: motion, focus: spec.focus(ofImage: k), start: start, end: end)
        }
    }

    /// This plan with each moving image zooming toward `focuses[k]` (fractions of the frame:
    /// where its focus landed once fitted) instead of its focus's fractions of the still.
    package func moving(toward focuses: [Int: Focus]) -> SequencePlan {
        var plan = self
        plan.motions = motions.enumerated().map { k, path in
            guard let path, let focus = focuses[k] else { return path }
            return MotionPath(motion: path.motion, focus: focus, start: path.start, end: path.end)
        }
        return plan
    }

    /// How transition `pair`'s stills move; nil when neither does.
    package func motion(ofTransition pair: Int, pictures: PicturePool) -> TransitionMotion? {
        guard motions[pair] != nil || motions[pair + 1] != nil else { return nil }
        return TransitionMotion(source: motions[pair], destination: motions[pair + 1], firstFrame: starts[pair], pictures: pictures)
    }

    /// The segment and local frame that global frame `index` shows.
    /// - Precondition: `0 <= index < frameCount`.
    package func locate(frame index: Int) -> SequenceFrame {
        precondition(index >= 0 && index < frameCount, "frame \(index) is outside the sequence")
        // The last segment whose first frame is at or before `index`; a boundary frame
        // belongs to the segment it starts (shown as that segment's source hold).
        var low = 0, high = starts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if starts[mid] <= index { low = mid } else { high = mid - 1 }
        }
        return SequenceFrame(segment: low, frame: index - starts[low])
    }
}
