// Telling JSON booleans from numbers, and numbers as the text a flag would carry, for everything
// that reads settings from JSON (preset files, batch manifests).

import Foundation

extension SpecField {
    /// Whether a `JSONSerialization` value is `true` or `false`.
    ///
    /// `value is Bool` cannot tell: Foundation on Linux bridges the numbers 0 and 1 to Bool
    /// too, which made `"end-hold": 0` a "wrong type". Booleans are their own NSNumber class.
    package static func isJSONBoolean(_ value: Any) -> Bool {
        type(of: value) == type(of: NSNumber(value: true))
    }

    /// A JSON number as the text a flag would carry (`40`, `1.5`, `1e+30`), so a file's value
    /// goes through the same parsing and range checks as the flag's; nil for anything else,
    /// booleans included. Integers keep every digit (a 64-bit seed); other numbers are written
    /// from their double, never converted to an integer type that could overflow.
    package static func jsonNumberText(_ value: Any) -> String? {
        guard !isJSONBoolean(value), let number = value as? NSNumber else { return nil }
        switch String(cString: number.objCType) {
        case "d", "f": return number.doubleValue.shortText
        default: return number.stringValue
        }
    }
}
