// JSON values of spec fields (preset files, batch manifests) turned into the text a flag would
// carry, so every source of settings goes through `TransitionSpec.set(_:to:)`.

import Foundation

extension SpecField {
    /// The flag text for a value read by `JSONSerialization`: numbers and strings as they are,
    /// and for `travel` also a `[MIN, MAX]` pair.
    /// - Returns: nil for JSON types the field does not take (booleans, objects, other arrays).
    public func text(fromJSON value: Any) -> String? {
        if SpecField.isJSONBoolean(value) { return nil }
        if let number = value as? NSNumber { return number.stringValue }
        if let text = value as? String { return text }
        if self == .travel, let pair = value as? [NSNumber], pair.count == 2,
           !pair.contains(where: SpecField.isJSONBoolean) {
            return "\(pair[0].doubleValue),\(pair[1].doubleValue)"
        }
        return nil
    }

    /// Whether a `JSONSerialization` value is `true` or `false`.
    ///
    /// `value is Bool` cannot tell: Foundation on Linux bridges the numbers 0 and 1 to Bool
    /// too, which made `"end-hold": 0` a "wrong type". Booleans are their own NSNumber class.
    public static func isJSONBoolean(_ value: Any) -> Bool {
        type(of: value) == type(of: NSNumber(value: true))
    }
}
