// Frame index → time → eased progress → strip offsets. Pure and cheap, so any render thread
// can ask about any frame in any order and get the same answer.

/// What one frame shows.
public enum FrameContent: Sendable, Equatable {
    /// The source picture unchanged (the hold before the transition).
    case source
    /// The destination picture unchanged (the end of the transition and the end hold).
    case destination
    /// Strips in motion; offsets in pixels of the full-size frame along the strip axis.
    case strips(outgoing: [Double], incoming: [Double])
}

/// The timeline of a transition video and the strip offsets of each of its frames.
///
/// Frame `i` shows time `i / fps`. The last frame shows the end of the timeline
/// (`hold + duration + endHold`), so the destination is reached exactly on the last frame and
/// a clip has `round(total × fps) + 1` frames.
public struct FramePlan: Sendable {
    public let spec: TransitionSpec
    public let layout: StripLayout
    public let frameCount: Int

    /// - Precondition: `spec` is valid (`spec.validate()` did not throw).
    public init(spec: TransitionSpec) {
        self.spec = spec
        layout = StripLayout(count: spec.strips, seed: spec.seed, travel: spec.travel)
        frameCount = Int((spec.totalSeconds * spec.frameRate.value).rounded()) + 1
    }

    /// Seconds at which frame `index` is shown.
    public func time(ofFrame index: Int) -> Double {
        Double(index) * Double(spec.frameRate.denominator) / Double(spec.frameRate.numerator)
    }

    /// The pixel extent strips travel in: frame height for vertical strips, width otherwise.
    public var travelExtent: Double {
        Double(spec.direction == .vertical ? spec.height : spec.width)
    }

    /// Whether frame `index` is the unchanged source (the hold), which needs no destination.
    public func showsSourceOnly(frame index: Int) -> Bool {
        time(ofFrame: index) - spec.hold <= 0
    }

    /// What frame `index` shows.
    public func content(ofFrame index: Int) -> FrameContent {
        if showsSourceOnly(frame: index) { return .source }
        let elapsed = time(ofFrame: index) - spec.hold
        if elapsed >= spec.duration { return .destination }
        let progress = spec.easing.progress(elapsed: elapsed, duration: spec.duration)
        let extent = travelExtent
        var outgoing = [Double](repeating: 0, count: layout.count)
        var incoming = [Double](repeating: 0, count: layout.count)
        for i in 0..<layout.count {
            outgoing[i] = StripLayout.outgoingSign(i) * layout.outgoingTravel[i] * extent * progress
            incoming[i] = StripLayout.incomingSign(i) * layout.incomingTravel[i] * extent * (1 - progress)
        }
        return .strips(outgoing: outgoing, incoming: incoming)
    }
}
