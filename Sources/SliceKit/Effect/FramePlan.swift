// Frame index → time → eased progress → strip offsets. Pure and cheap, so any render thread
// can ask about any frame in any order and get the same answer.

/// What one frame shows.
package enum FrameContent: Sendable, Equatable {
    /// The source picture unchanged (the hold before the transition).
    case source
    /// The destination picture unchanged (the end of the transition and the end hold).
    case destination
    /// Strips in motion; offsets in pixels of the full-size frame along the strip axis.
    case strips(outgoing: [Double], incoming: [Double])
}

/// The timeline of a transition video and the strip offsets of each of its frames.
///
/// Frame `i` shows time `i / fps`. The timeline is `hold + duration + stagger × (strips − 1)
/// + endHold` seconds long and the clip has `⌈total × fps⌉ + 1` frames, so the last frame's
/// time is at or just past the end of the timeline; the last frame always shows the
/// destination, exactly.
package struct FramePlan: Sendable {
    package let spec: TransitionSpec
    package let layout: StripLayout
    package let frameCount: Int

    /// - Precondition: `spec` is valid (`spec.validate()` did not throw).
    package init(spec: TransitionSpec) {
        self.spec = spec
        layout = StripLayout(count: spec.strips, seed: spec.seed, travel: spec.travel)
        // Rounded up so the last frame is not before the end of the timeline (a staggered
        // transition rarely ends on a frame boundary); the tolerance keeps sums such as
        // 0.1 + 0.2 s at 20 fps at 6 frame intervals, not 7.
        frameCount = Int((spec.totalSeconds * spec.frameRate.value - 1e-6).rounded(.up)) + 1
    }

    /// Seconds at which frame `index` is shown.
    package func time(ofFrame index: Int) -> Double {
        Double(index) * Double(spec.frameRate.denominator) / Double(spec.frameRate.numerator)
    }

    /// The pixel extent strips travel in: frame height for vertical strips, width otherwise.
    package var travelExtent: Double {
        Double(spec.direction == .vertical ? spec.height : spec.width)
    }

    /// Whether frame `index` is the unchanged destination (the end of the transition, the end
    /// hold, and always the last frame).
    package func showsDestinationOnly(frame index: Int) -> Bool {
        index >= frameCount - 1 || time(ofFrame: index) - spec.hold >= spec.transitionSeconds
    }

    /// Whether frame `index` is the unchanged source (the hold), which needs no destination.
    package func showsSourceOnly(frame index: Int) -> Bool {
        index < frameCount - 1 && time(ofFrame: index) - spec.hold <= 0
    }

    /// What frame `index` shows. The last frame is the destination by definition.
    package func content(ofFrame index: Int) -> FrameContent {
        if index >= frameCount - 1 { return .destination }
        return content(atTime: time(ofFrame: index))
    }

    /// What the timeline shows at `time` seconds, which need not fall on a frame (motion blur
    /// samples between frames).
    ///
    /// Strip i moves during `[hold + i × stagger, hold + i × stagger + duration]`; before the
    /// first strip moves it is the source, after the last one settles the destination.
    package func content(atTime time: Double) -> FrameContent {
        let elapsed = time - spec.hold
        if elapsed <= 0 { return .source }
        if elapsed >= spec.transitionSeconds { return .destination }
        let extent = travelExtent
        // Without stagger every strip shares one progress value: evaluate the curve once.
        let shared = spec.stagger == 0 ? spec.easing.progress(elapsed: elapsed, duration: spec.duration) : nil
        var outgoing = [Double](repeating: 0, count: layout.count)
        var incoming = [Double](repeating: 0, count: layout.count)
        for i in 0..<layout.count {
            let progress = shared ?? spec.easing.progress(elapsed: elapsed - Double(i) * spec.stagger, duration: spec.duration)
            outgoing[i] = FramePlan.bounded(StripLayout.outgoingSign(i) * layout.outgoingTravel[i] * extent * progress, extent: extent)
            incoming[i] = FramePlan.bounded(StripLayout.incomingSign(i) * layout.incomingTravel[i] * extent * (1 - progress), extent: extent)
        }
        return .strips(outgoing: outgoing, incoming: incoming)
    }

    /// The furthest a strip is drawn from rest, in frame sizes. A strip one frame size from
    /// rest is already off the frame, so clamping there never changes a picture; it makes sure
    /// no curve (a UIKit spring with velocity 100 over an hour reaches ~7300 travels) can hand
    /// the compositor an offset that overflows when it becomes whole pixels.
    package static let offsetLimit = 1024.0

    /// `offset` clamped to ±`offsetLimit` frame sizes; NaN (which no accepted curve gives)
    /// draws the strip at rest.
    static func bounded(_ offset: Double, extent: Double) -> Double {
        let limit = offsetLimit * extent
        if offset.isNaN { return 0 }
        return min(max(offset, -limit), limit)
    }
}
