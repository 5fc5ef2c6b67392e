// Numbers typed by people: plain decimals only. Swift's `Double("…")` also reads hexadecimal
// (`0x1E` is 30), `inf`, `nan` and `1e999` (infinity), none of which a setting should accept.

extension Double {
    /// Reads `text` as a plain decimal number: an optional sign, digits with an optional
    /// fraction (`12`, `0.25`, `.5`, `3.`), and an optional exponent (`1e-3`). Nothing else:
    /// no spaces, no hexadecimal, no `inf` or `nan`.
    /// - Returns: nil unless `text` is of that form and its value is finite.
    package init?(decimal text: some StringProtocol) {
        guard Double.isPlainDecimal(text.utf8), let value = Double(String(text)), value.isFinite else { return nil }
        self = value
    }

    /// The grammar check behind `init?(decimal:)`, on bytes: `[+-]? (d+ (. d*)? | . d+) ([eE] [+-]? d+)?`.
    static func isPlainDecimal(_ bytes: some Collection<UInt8>) -> Bool {
        var i = bytes.startIndex
        func digits() -> Int {
            var count = 0
            while i != bytes.endIndex, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[i]) {
                count += 1
                i = bytes.index(after: i)
            }
            return count
        }
        func take(_ characters: String) -> Bool {
            guard i != bytes.endIndex, characters.utf8.contains(bytes[i]) else { return false }
            i = bytes.index(after: i)
            return true
        }
        _ = take("+-")
        var mantissa = digits()
        if take(".") { mantissa += digits() }
        guard mantissa > 0 else { return false }
        if take("eE") {
            _ = take("+-")
            guard digits() > 0 else { return false }
        }
        return i == bytes.endIndex
    }
}
