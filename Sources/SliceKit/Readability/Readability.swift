// What a layout asks of its text to be readable: the contrast its words keep against what is
// under them (WCAG 2: 4.5:1, or 3:1 for large text), whether falling short is a warning or a
// refusal, and the size below which an `auto` size that shrank is worth a warning.

extension Layout {
    /// A layout's readability rules (`"contrast": {...}`, `"smallest-size"`).
    public struct Readability: Sendable, Equatable {
        /// The contrast text below `largeSize` keeps, 1…21 (WCAG 2 AA: 4.5).
        public var minimum: Double
        /// The contrast large text keeps, 1…21 (WCAG 2 AA: 3).
        public var large: Double
        /// From this size (pixels at 1080p) text is large; bold text (weight 700 and up) from
        /// three quarters of it, as WCAG takes 14 pt bold with 18 pt.
        public var largeSize: Double
        /// Whether a layer below its minimum is refused (65) rather than warned about.
        public var refuse: Bool
        /// An `auto` size that shrinks text below this (pixels at 1080p) is warned about.
        public var smallestSize: Double

        public init(minimum: Double = 4.5, large: Double = 3, largeSize: Double = 24, refuse: Bool = false, smallestSize: Double = 24) {
            self.minimum = minimum
            self.large = large
            self.largeSize = largeSize
            self.refuse = refuse
            self.smallestSize = smallestSize
        }

        /// The contrast a text drawn at `size` pixels (at 1080p) with `weight` keeps.
        public func minimum(size: Double, weight: Int) -> Double {
            size >= (weight >= 700 ? largeSize * 0.75 : largeSize) ? large : minimum
        }
    }
}

extension Layout.Ranges {
    static let opacity = 0.0...1
    static let contrast = 1.0...21
}

extension LayoutReader {
    /// `"contrast": {"minimum": 4.5, "large": 3, "large-size": 24, "refuse": true}` and
    /// `"smallest-size": 24` at a layout's top level.
    func readability(_ top: [String: Any]) throws(LayoutError) -> Layout.Readability {
        var rules = Layout.Readability()
        if let value = top["contrast"] {
            let fields = try object(value, at: "contrast", keys: ["minimum", "large", "large-size", "refuse"])
            rules.minimum = try number(fields["minimum"], at: "contrast.minimum", in: Layout.Ranges.contrast) ?? rules.minimum
            rules.large = try number(fields["large"], at: "contrast.large", in: Layout.Ranges.contrast) ?? rules.large
            rules.largeSize = try number(fields["large-size"], at: "contrast.large-size", in: Layout.Ranges.size) ?? rules.largeSize
            rules.refuse = try boolean(fields["refuse"], at: "contrast.refuse") ?? false
        }
        rules.smallestSize = try number(top["smallest-size"], at: "smallest-size", in: Layout.Ranges.size) ?? rules.smallestSize
        return rules
    }

    /// Rules built in code, checked as the file reader would.
    func check(_ rules: Layout.Readability) throws(LayoutError) {
        try checkNumber(rules.minimum, at: "contrast.minimum", in: Layout.Ranges.contrast)
        try checkNumber(rules.large, at: "contrast.large", in: Layout.Ranges.contrast)
        try checkNumber(rules.largeSize, at: "contrast.large-size", in: Layout.Ranges.size)
        try checkNumber(rules.smallestSize, at: "smallest-size", in: Layout.Ranges.size)
    }
}
