// A number and its unit stay on one line: "20 cm" broken after "20" reads as a number without
// a meaning. Where a text layer's words (its variables filled) put a plain space between a
// number and a unit, the space becomes a no-break space (U+00A0) before the text is laid out,
// as typesetters and the old campaign glue did. Only a space between a digit and a unit from a
// fixed list changes, so nothing else a feed writes is touched.

extension Layout {
    /// Units kept beside their number (after it: `20 cm`, `5 %`; the currency signs also
    /// before it: `€ 20`). Case matters: `m` is metres, `M` is not a unit here.
    static let units: Set<String> = [
        "mm", "cm", "dm", "m", "km", "in", "ft", "yd", "mi", "mg", "g", "kg", "t", "lb", "lbs", "oz",
        "ml", "cl", "dl", "l", "L", "gal", "m²", "m³", "cm²", "cm³", "km²", "ha",
        "W", "kW", "kWh", "Wh", "V", "mA", "mAh", "A", "Hz", "kHz", "MHz", "GHz",
        "B", "KB", "kB", "MB", "GB", "TB", "px", "pt", "dpi", "°", "°C", "°F", "K", "%", "‰",
        "h", "min", "s", "ms", "x", "×", "€", "£", "$", "¥", "₹", "CHF", "EUR", "USD", "GBP",
    ]

    /// Currency signs, kept beside a number that follows them too (`€ 20`).
    static let currencySigns: Set<String> = ["€", "£", "$", "¥", "₹", "CHF", "EUR", "USD", "GBP"]

    /// `text` with the space between each number and its unit made a no-break space.
    package static func joiningNumbersAndUnits(_ text: String) -> String {
        let characters = Array(text)
        guard characters.contains(" ") else { return text }
        var result = characters
        // The word starting at `start`: letters, or the signs a unit is written with.
        func word(from start: Int) -> String {
            var end = start
            while end < characters.count, characters[end].isLetter || "²³°%‰€£$¥₹×".contains(characters[end]) { end += 1 }
            // `°C` and `m²`: a sign and letters together are one unit; a unit ends at a boundary.
            return String(characters[start..<end])
        }
        func word(endingBefore end: Int) -> String {
            var start = end
            while start > 0, characters[start - 1].isLetter || "€£$¥₹".contains(characters[start - 1]) { start -= 1 }
            return String(characters[start..<end])
        }
        for index in characters.indices where characters[index] == " " && index > 0 && index + 1 < characters.count {
            let before = characters[index - 1], after = characters[index + 1]
            if before.isNumber, units.contains(word(from: index + 1)) {
                result[index] = "\u{00A0}"
            } else if after.isNumber, currencySigns.contains(word(endingBefore: index)) {
                result[index] = "\u{00A0}"
            }
        }
        return String(result)
    }
}
