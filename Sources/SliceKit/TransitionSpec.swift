// Everything that decides what the frames look like, resolved and validated: the value a
// preset, the flags and the defaults all boil down to.

/// How a still of another aspect ratio is fitted to the frame.
public enum FitMode: String, Sendable, CaseIterable {
    /// Fill the frame, crop the overflow, centred.
    case cover
    /// Fit inside the frame, letterbox onto the background.
    case contain
}

/// The fully resolved look and timing of one transition video.
public struct TransitionSpec: Sendable, Equatable {
    /// The seed default: documented in the README; any fixed value would do, this one is the
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
    public var strips: Int = 75
    public var direction: StripDirection = .vertical
    /// The range of the random travel factor K (in frame heights, or widths when horizontal).
    public var travel: ClosedRange<Double> = 1...4
    public var easing: Easing = .seedSpring
    public var seed: UInt64 = TransitionSpec.defaultSeed
    public var background: RGBAColor = .black
    public var fit: FitMode = .cover

    public init() {}

    /// The largest side accepted; beyond it memory and encoders stop being sensible.
    public static let maximumSide = 8192

    /// Checks every field, naming the first one that is out of range.
    /// - Throws: `SpecError` with the flag-style field name and what is accepted.
    public func validate() throws(SpecError) {
        func fail(_ field: String, _ message: String) -> SpecError { SpecError(field: field, message: message) }
        guard (2...TransitionSpec.maximumSide).contains(width), (2...TransitionSpec.maximumSide).contains(height) else {
            throw fail("size", "\(width)x\(height) is out of range; each side must be 2…\(TransitionSpec.maximumSide)")
        }
        guard width % 2 == 0, height % 2 == 0 else {
            throw fail("size", "\(width)x\(height) has an odd side; yuv420p video needs even width and height")
        }
        guard hold.isFinite, hold >= 0, hold <= 3600 else { throw fail("hold", "\(hold) must be between 0 and 3600 seconds") }
        guard duration.isFinite, duration > 0, duration <= 3600 else {
            throw fail("duration", "\(duration) must be greater than 0 and at most 3600 seconds")
        }
        guard endHold.isFinite, endHold >= 0, endHold <= 3600 else {
            throw fail("end-hold", "\(endHold) must be between 0 and 3600 seconds")
        }
        // More strips than pixels is allowed (some strips are then empty): the strips still
        // tile the frame exactly, and a preset made for 1080p keeps working at preview sizes.
        guard (1...TransitionSpec.maximumSide).contains(strips) else {
            throw fail("slices", "\(strips) must be between 1 and \(TransitionSpec.maximumSide)")
        }
        guard travel.lowerBound >= 0, travel.upperBound <= 100 else {
            throw fail("travel", "\(travel.lowerBound)…\(travel.upperBound) must lie within 0…100 frame sizes")
        }
    }

    /// Total seconds from the first frame's time to the last frame's.
    public var totalSeconds: Double { hold + duration + endHold }
}

/// A spec field out of range. `field` is the flag name without dashes (also the preset key).
public struct SpecError: Error, Equatable, CustomStringConvertible {
    public let field: String
    public let message: String
    public var description: String { "--\(field): \(message)" }
}
