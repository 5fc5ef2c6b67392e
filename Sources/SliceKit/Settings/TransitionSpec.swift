// Everything that decides what the frames look like, resolved and validated: the value a
// preset, the flags and the defaults all boil down to.

/// How a still of another aspect ratio is fitted to the frame.
public enum FitMode: String, Sendable, CaseIterable {
    /// Fill the frame, crop the overflow around the focus (the centre unless `--focus` says).
    case cover
    /// Fit inside the frame, letterbox onto the background.
    case contain
}

/// How the frame is cut into strips: a fixed number, or strips of a fixed width that keep
/// their look at every frame size.
public enum StripDivision: Sendable, Equatable {
    /// Exactly this many strips.
    case count(Int)
    /// As many strips of about this many pixels as fit across the frame (at least one).
    case width(pixels: Int)
}

/// The fully resolved look and timing of one transition video.
public struct TransitionSpec: Sendable, Equatable {
    /// The seed default: documented in docs/make.md ("Flags"); any fixed value would do, this one is the
    /// date of the original post (2017-11-06).
    public static let defaultSeed: UInt64 = 20171106

    public var width: Int = 1920
    public var height: Int = 1080
    public var frameRate = FrameRate(30)
    /// Seconds the source is shown still before the strips move.
    public var hold: Double = 1.0
    /// Seconds the strips take to move.
    public var duration: Double = 1.0
    /// Extra seconds the destination is shown after the transition.
    public var endHold: Double = 0.0
    /// How the frame is cut into strips; the seed's 75 strips by default.
    public var division: StripDivision = .count(75)
    public var direction: StripDirection = .vertical
    /// The range of the random travel factor K (in frame heights, or widths when horizontal).
    public var travel: ClosedRange<Double> = 1...4
    public var easing: Easing = .seedSpring
    /// Seconds between consecutive strips starting to move (0: all at once, as in the seed).
    /// Strip i starts `i × stagger` after the hold and moves for `duration`, so the transition
    /// lasts `duration + stagger × (strips − 1)`.
    public var stagger: Double = 0
    public var seed: UInt64 = TransitionSpec.defaultSeed
    public var background: RGBAColor = .black
    public var fit: FitMode = .cover
    /// The point of each still a cover crop keeps in view (the centre by default).
    public var focus: Focus = .centre
    /// Sub-frame samples averaged into each moving frame (1: no motion blur). See `MotionBlur`.
    public var motionBlur: Int = 1
    /// How each still moves while it shows (Ken Burns); none by default. A sequence's image may
    /// have its own (`SequenceSpec.setMotion`).
    public var motion: StillMotion = .none

    /// The number of strips: the count, or as many strips of the given width as fit across
    /// the frame (across its width for vertical strips, its height for horizontal ones).
    /// Setting it asks for exactly that many strips.
    public var strips: Int {
        get {
            switch division {
            case .count(let count):
                return count
            case .width(let pixels):
                let across = direction == .vertical ? width : height
                return max(1, Int((Double(across) / Double(pixels)).rounded()))
            }
        }
        set { division = .count(newValue) }
    }

    public init() {}

    /// The largest side accepted; beyond it memory and encoders stop being sensible.
    package static let maximumSide = 8192

    /// The longest hold, end hold, duration or transition (with its stagger), in seconds.
    package static let maximumSeconds = 3600.0

    /// The shortest duration: a millisecond, far below one frame at 240 fps, yet long enough
    /// that every spring's frequency stays finite.
    package static let minimumDuration = 0.001

    /// Checks every field, naming the first one that is out of range.
    /// - Throws: `SpecError` with the flag-style field name and what is accepted.
    public func validate() throws(SpecError) {
        func fail(_ field: SpecField, _ message: String) -> SpecError { SpecError(field: field.rawValue, message: message) }
        let side = TransitionSpec.maximumSide, most = TransitionSpec.maximumSeconds.shortText
        guard (2...side).contains(width), (2...side).contains(height) else {
            throw fail(.size, "\(width)x\(height) is out of range; each side must be 2…\(side)")
        }
        guard width % 2 == 0, height % 2 == 0 else {
            throw fail(.size, "\(width)x\(height) has an odd side; yuv420p video needs even width and height")
        }
        // `contains` is false for NaN, so a value set in code is checked as strictly as a parsed one.
        guard (0...TransitionSpec.maximumSeconds).contains(hold) else {
            throw fail(.hold, "\(hold.shortText) is out of range; seconds 0…\(most)")
        }
        guard (TransitionSpec.minimumDuration...TransitionSpec.maximumSeconds).contains(duration) else {
            throw fail(.duration, "\(duration.shortText) is out of range; seconds \(TransitionSpec.minimumDuration.shortText)…\(most)")
        }
        guard (0...TransitionSpec.maximumSeconds).contains(endHold) else {
            throw fail(.endHold, "\(endHold.shortText) is out of range; seconds 0…\(most)")
        }
        // More strips than pixels is allowed (some strips are then empty): the strips still
        // tile the frame exactly, and a preset made for 1080p keeps working at preview sizes.
        switch division {
        case .count(let count) where !(1...side).contains(count):
            throw fail(.slices, "\(count) is out of range; strips 1…\(side)")
        case .width(let pixels) where !(1...side).contains(pixels):
            throw fail(.slices, "\(pixels)px is out of range; a strip width 1px…\(side)px")
        default:
            break
        }
        guard (0...TransitionSpec.maximumTravel).contains(travel.lowerBound),
              (0...TransitionSpec.maximumTravel).contains(travel.upperBound) else {
            throw fail(.travel, "\(travel.lowerBound.shortText),\(travel.upperBound.shortText) is out of range; MIN and MAX within 0…\(TransitionSpec.maximumTravel.shortText) frame sizes")
        }
        guard stagger >= 0, transitionSeconds <= TransitionSpec.maximumSeconds else {
            throw fail(.stagger, "\(stagger.shortText) is out of range; at least 0, and the transition (duration + stagger × (strips − 1)) at most \(most) seconds")
        }
        guard (1...MotionBlur.maximumSamples).contains(motionBlur) else {
            throw fail(.motionBlur, "\(motionBlur) is out of range; samples per frame 1 (off)…\(MotionBlur.maximumSamples)")
        }
        guard StillMotion.amountRange.contains(motion.amount) else {
            throw fail(.motionAmount, "\(motion.amount.shortText) is out of range; \(StillMotion.acceptedAmount)")
        }
    }

    /// The largest travel factor K, in frame sizes.
    package static let maximumTravel = 100.0

    /// Seconds from the first strip starting to move to the last strip coming to rest.
    package var transitionSeconds: Double { duration + stagger * Double(strips - 1) }

    /// Total seconds of the timeline: hold, transition and end hold.
    public var totalSeconds: Double { hold + transitionSeconds + endHold }
}

/// A spec field out of range. `field` is the flag name without dashes (also the preset key).
public struct SpecError: Error, Equatable, CustomStringConvertible {
    public let field: String
    public let message: String
    /// `field: message`, the field a setting each front end names its own way (`--fps`, `fps`);
    /// a field no flag sets (a sequence's `images`) is named as it is.
    public var text: ErrorText {
        guard let spec = SpecField(rawValue: field) else { return "\(field): \(message)" }
        return "\(setting: spec.setting): \(message)"
    }

    public var description: String { text.description }
}
