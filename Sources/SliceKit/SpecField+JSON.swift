// Telling JSON booleans from numbers, for everything that reads settings from JSON (preset
// files, batch manifests).

import Foundation

extension SpecField {
    /// Whether a `JSONSerialization` value is `true` or `false`.
    ///
    /// `value is Bool` cannot tell: Foundation on Linux bridges the numbers 0 and 1 to Bool
    /// too, which made `"end-hold": 0` a "wrong type". Booleans are their own NSNumber class.
    public static func isJSONBoolean(_ value: Any) -> Bool {
        type(of: value) == type(of: NSNumber(value: true))
    }
}
