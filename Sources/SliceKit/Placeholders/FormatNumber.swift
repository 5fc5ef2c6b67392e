// A feed's number as a program writes it — `24.99`, `-3`, `1e3`, what a JSON Lines feed holds —
// read exactly (as a decimal, never through binary floating point, so 24.99 stays 24.99) and
// held to bounds before any arithmetic. `24,99`, `1.234,50` or `€24.99` is refused: a locale's
// way of writing is what a format makes, and reading it back would guess.

import Foundation

/// A number read from a value, for a format.
struct FormatNumber {
    /// The number.
    let value: Decimal
    /// How many decimals it is written with (`24.50`: 2; `1e-3`: 3; `1.5e3`: 0).
    let decimals: Int

    /// The most digits before the decimal point, and after it.
    static let mostWholeDigits = 18
    static let mostDecimals = 18

    /// What a number is written as, for messages.
    static let accepted = "digits with a '.' before any decimals and no thousands separators or currency, as 24.99, -3 or 1e3"

    /// Reads `text`: an optional sign, digits, optionally `.` and digits, optionally an exponent.
    /// - Throws: why it is no number, or one out of bounds.
    init(_ text: String) throws(FormatProblem) {
        let notANumber = FormatProblem("is not a number; write \(Self.accepted)")
        var scalars = Substring(text).unicodeScalars[...]
        var negative = false
        if let sign = scalars.first, sign == "-" || sign == "+" {
            negative = sign == "-"
            scalars = scalars.dropFirst()
        }
        func digits() -> [UInt8] {
            let run = scalars.prefix { ("0"..."9").contains($0) }
            scalars = scalars.dropFirst(run.count)
            return run.map { UInt8($0.value - 48) }
        }
        let whole = digits()
        var fraction: [UInt8] = []
        if scalars.first == "." {
            scalars = scalars.dropFirst()
            fraction = digits()
            guard !fraction.isEmpty else { throw notANumber }
        }
        guard !whole.isEmpty else { throw notANumber }
        var exponent = 0
        if let letter = scalars.first, letter == "e" || letter == "E" {
            scalars = scalars.dropFirst()
            var exponentNegative = false
            if let sign = scalars.first, sign == "-" || sign == "+" {
                exponentNegative = sign == "-"
                scalars = scalars.dropFirst()
            }
            let written = digits()
            // Four digits at most before the arithmetic: the bounds below are far inside them.
            guard !written.isEmpty, written.count <= 4 else { throw written.isEmpty ? notANumber : Self.outOfBounds }
            exponent = written.reduce(0) { $0 * 10 + Int($1) } * (exponentNegative ? -1 : 1)
        }
        guard scalars.isEmpty else { throw notANumber }
        // value = (whole fraction) × 10^(exponent − fraction.count); zeros that change nothing dropped.
        var significant = Array((whole + fraction).drop { $0 == 0 })
        var power = exponent - fraction.count
        while power < 0, significant.last == 0 {
            significant.removeLast()
            power += 1
        }
        let wholeDigits = significant.count + power
        let decimals = max(0, fraction.count - exponent)
        guard wholeDigits <= Self.mostWholeDigits, decimals <= Self.mostDecimals else { throw Self.outOfBounds }
        var value = Decimal(0)
        for digit in significant { value = value * 10 + Decimal(Int(digit)) }
        self.value = Decimal(sign: negative && !significant.isEmpty ? .minus : .plus, exponent: power, significand: value)
        self.decimals = decimals
    }

    private static let outOfBounds = FormatProblem(
        "is a number out of bounds; a number has at most \(mostWholeDigits) digits before the decimal point and \(mostDecimals) after it")
}
