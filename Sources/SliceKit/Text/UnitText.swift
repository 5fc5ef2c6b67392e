// Sizes and lengths as people read them, the same in logs and on the report page.

import Foundation

/// Numbers with their units, for people.
package enum UnitText {
    /// `1.4 MB`, `12.0 KB`, `512 B`.
    package static func bytes(_ bytes: Int) -> String {
        bytes >= 1 << 20 ? String(format: "%.1f MB", Double(bytes) / 1_048_576)
            : bytes >= 1 << 10 ? String(format: "%.1f KB", Double(bytes) / 1024) : "\(bytes) B"
    }

    /// `9.3`, `7585`, `0.4`: a length in pixels to a tenth, without a trailing `.0` (what a
    /// layout's size at 1080p becomes at another frame size is seldom a whole number).
    package static func pixels(_ value: Double) -> String {
        guard value.isFinite else { return String(value) }
        let tenths = (value * 10).rounded()
        return tenths.truncatingRemainder(dividingBy: 10) == 0 ? String(Int(tenths / 10)) : String(tenths / 10)
    }

    /// `2.03 s`.
    package static func seconds(_ value: Double) -> String { String(format: "%.2f s", value) }
}
