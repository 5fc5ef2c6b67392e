// Frame rates as exact fractions, because encoders want a time base and 29.97 is 30000/1001.

/// A frame rate `numerator / denominator` frames per second.
public struct FrameRate: Sendable, Equatable, CustomStringConvertible {
    public let numerator: Int
    public let denominator: Int

    /// The rates a video may have, in frames per second. Below 1 fps a transition is a slide
    /// show; above 240 no display shows the difference.
    public static let accepted: ClosedRange<Double> = 1...240

    /// The largest numerator or denominator a fraction may be written with. Enough for every
    /// NTSC rate (240000/1001), and small enough that time bases fit FFmpeg's 32-bit rationals
    /// and frame arithmetic (frames × numerator × denominator) stays far inside 64 bits.
    package static let maximumTerm = 1_000_000

    /// - Precondition: both positive.
    public init(_ numerator: Int, _ denominator: Int = 1) {
        precondition(numerator > 0 && denominator > 0, "frame rate must be positive")
        let g = FrameRate.gcd(numerator, denominator)
        self.numerator = numerator / g
        self.denominator = denominator / g
    }

    /// Parses `30`, `29.97` (read as 30000/1001, as video people mean it), `23.976`,
    /// `12.5` or an explicit fraction `30000/1001`.
    /// - Parameter range: the rates accepted, in frames per second (`accepted` by default).
    /// - Returns: nil unless the text is a plain decimal or a fraction of whole numbers up to
    ///   `maximumTerm` whose value lies in `range`.
    public init?(parsing text: String, range: ClosedRange<Double> = FrameRate.accepted) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        if parts.count == 2 {
            let terms = 1...FrameRate.maximumTerm
            guard let n = Int(parts[0]), let d = Int(parts[1]), terms.contains(n), terms.contains(d) else { return nil }
            // Both terms are at most a million, so the products are exact.
            guard Double(n) >= range.lowerBound * Double(d), Double(n) <= range.upperBound * Double(d) else { return nil }
            self.init(n, d)
            return
        }
        guard parts.count == 1, let value = Double(decimal: text), range.contains(value) else { return nil }
        for ntsc in [24, 30, 60, 120] where abs(value - Double(ntsc) * 1000 / 1001) < 0.005 {
            self.init(ntsc * 1000, 1001)
            return
        }
        let millis = Int((value * 1000).rounded())
        guard range.contains(Double(millis) / 1000) else { return nil }
        self.init(millis, 1000)
    }

    /// Frames per second as a double.
    public var value: Double { Double(numerator) / Double(denominator) }

    /// `30`, or `30000/1001`.
    public var description: String { denominator == 1 ? "\(numerator)" : "\(numerator)/\(denominator)" }

    private static func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
}
