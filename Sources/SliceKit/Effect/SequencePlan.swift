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
