// Motion on stills (Ken Burns): a still zooms or pans while it shows, during its holds and under
// its strips. A motion is a camera move over the fitted still, described as the part of the
// still the frame shows (its view) at each moment of the still's time on screen.

/// Which way the camera moves over a still. The words are the camera's: `pan-left` moves the
/// view toward the still's left edge, so the picture slides right across the frame.
public enum MotionKind: String, Sendable, CaseIterable {
    /// The still does not move (the default, and today's bytes).
    case none
    /// Zoom in toward the focus: the still grows from the frame's size by the amount.
    case pushIn = "push-in"
    /// Zoom out from the focus: the still shrinks by the amount back to the frame's size.
    case pullOut = "pull-out"
    /// The view travels from the still's right part to its left part.
    case panLeft = "pan-left"
    /// The view travels from the still's left part to its right part.
    case panRight = "pan-right"
    /// The view travels from the still's bottom part to its top part.
    case panUp = "pan-up"
    /// The view travels from the still's top part to its bottom part.
    case panDown = "pan-down"
}

/// How one still moves while it shows: the camera move, how far, and its easing.
///
/// The move runs once over the still's whole time on screen (from the moment its strips start
/// to arrive, or the clip's start, to the moment the last of its strips has left, or the clip's
/// end), so the strips cut the moving picture and nothing jumps where a hold meets a transition.
public struct StillMotion: Sendable, Equatable {
    public var kind: MotionKind
    /// How far the camera moves: the zoom of `push-in` and `pull-out` (0.1: the still ends or
    /// starts 10 % larger than the frame), and the margin a pan travels over (the still is
    /// shown `1 + amount` times the frame's size and crosses the part outside the frame).
    public var amount: Double
    /// How the move progresses over the still's time on screen.
    public var easing: Easing

    /// No motion: the still is shown as fitted.
    public static let none = StillMotion(kind: .none, amount: defaultAmount, easing: .linear)

    /// The amount when none is given: a tenth, a gentle move at any frame size.
    public static let defaultAmount = 0.1

    /// The amounts accepted: a hundredth (a barely visible drift) up to 1, twice the frame's
    /// size, beyond which a fitted still is upscaled so far that it blurs.
    package static let amountRange = 0.01...1.0

    /// What `motion-amount` accepts, for help and errors.
    package static let acceptedAmount = "a fraction \(amountRange.lowerBound.shortText)…\(amountRange.upperBound.shortText) of the frame's size (0.1: a 10 % zoom or pan margin)"

    /// What `motion` accepts, for help and errors.
    package static let acceptedKinds = MotionKind.allCases.map(\.rawValue).joined(separator: ", ")

    public init(kind: MotionKind, amount: Double = StillMotion.defaultAmount, easing: Easing = .linear) {
        self.kind = kind
        self.amount = amount
        self.easing = easing
    }

    /// Whether the still moves at all.
    public var moves: Bool { kind != .none }

    /// The part of the frame-sized still shown at `progress` (0: the move's start, 1: its end;
    /// a spring may overshoot either), zooming about `focus`.
    ///
    /// The view is the frame scaled down by the zoom `s ≥ 1` and placed at `focus`'s fraction
    /// of the margin that leaves: origin `f × (W − W/s)`. For a zoom that is the one placement
    /// that keeps the focus point where it is in the frame, so a push-in closes in on it.
    package func view(progress: Double, focus: Focus, width: Int, height: Int) -> MotionView {
        let a = amount
        let zoom: Double, fx: Double, fy: Double
        switch kind {
        case .none: (zoom, fx, fy) = (1, focus.x, focus.y)
        case .pushIn: (zoom, fx, fy) = (1 + a * progress, focus.x, focus.y)
        case .pullOut: (zoom, fx, fy) = (1 + a * (1 - progress), focus.x, focus.y)
        case .panLeft: (zoom, fx, fy) = (1 + a, 1 - progress, focus.y)
        case .panRight: (zoom, fx, fy) = (1 + a, progress, focus.y)
        case .panUp: (zoom, fx, fy) = (1 + a, focus.x, 1 - progress)
        case .panDown: (zoom, fx, fy) = (1 + a, focus.x, progress)
        }
        // A spring overshooting below 1 would show past the still's edges: never zoom out of it.
        let s = max(1, zoom)
        let w = Double(width) / s, h = Double(height) / s
        return MotionView(x: fx * (Double(width) - w), y: fy * (Double(height) - h), width: w, height: h)
    }
}

/// The rectangle of a frame-sized still a frame shows, in the still's pixels, scaled to fill
/// the frame.
package struct MotionView: Sendable, Equatable {
    package var x: Double
    package var y: Double
    package var width: Double
    package var height: Double

    /// The whole still: what a still without motion shows.
    package static func whole(width: Int, height: Int) -> MotionView {
        MotionView(x: 0, y: 0, width: Double(width), height: Double(height))
    }
}

/// One still's motion placed on the clip's timeline: the move runs from `start` to `end`
/// (seconds of the whole video), before which the still shows its first view and after which
/// its last.
package struct MotionPath: Sendable, Equatable {
    package let motion: StillMotion
    package let focus: Focus
    package let start: Double
    package let end: Double

    package init(motion: StillMotion, focus: Focus, start: Double, end: Double) {
        self.motion = motion
        self.focus = focus
        self.start = start
        self.end = end
    }

    /// The move's eased progress at `time` (seconds of the whole video).
    package func progress(at time: Double) -> Double {
        motion.easing.progress(elapsed: time - start, duration: max(end - start, TransitionSpec.minimumDuration))
    }

    /// The view of a `width`×`height` still at `time`.
    package func view(at time: Double, width: Int, height: Int) -> MotionView {
        motion.view(progress: progress(at: time), focus: focus, width: width, height: height)
    }

    /// Draws `still` as it shows at `time` into `target` (same size and layout).
    package func draw(_ still: PlanarImage, at time: Double, into target: PlanarImage) {
        StillWarp.draw(still, view: view(at: time, width: still.width, height: still.height), into: target)
    }
}
