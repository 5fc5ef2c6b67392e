// Frame rates as exact fractions, because encoders want a time base and 29.97 is 30000/1001.

/// A frame rate `numerator / denominator` frames per second.
public struct FrameRate: Sendable, Equatable, CustomStringConvertible {
    public let numerator: Int
    public let denominator: Int

    /// - Precondition: both positive.
    public init(_ numerator: Int, _ denominator: Int = 1) {
        precondition(numerator > 0 && denominator > 0, "frame rate must be positive")
        let g = FrameRate.gcd(numerator, denominator)
        self.numerator = numerator / g
        self.denominator = denominator / g
    }

    /// Parses `30`, `29.97` (read as 30000/1001, as video people mean it), `23.976`,
    /// `12.5` or an explicit fraction `30000/1001`.
    /// - Returns: nil unless the text is a positive rate of at most 240 fps.
    public init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        if parts.count == 2 {
            guard let n = Int(parts[0]), let d = Int(parts[1]), n > 0, d > 0, n <= 240 * d else { return nil }
            self.init(n, d)
            return
        }
        guard let value = Double(text), value.isFinite, value > 0, value <= 240 else { return nil }
        for ntsc in [24, 30, 60, 120] where abs(value - Double(ntsc) * 1000 / 1001) < 0.005 {
            self.init(ntsc * 1000, 1001)
            return
        }
        let millis = Int((value * 1000).rounded())
        guard millis > 0 else { return nil }
        self.init(millis, 1000)
    }

    /// Frames per second as a double.
    public var value: Double { Double(numerator) / Double(denominator) }

    /// `30`, or `30000/1001`.
    public var description: String { denominator == 1 ? "\(numerator)" : "\(numerator)/\(denominator)" }

    private static func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
}
