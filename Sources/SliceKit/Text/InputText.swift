// Text that came from outside (flags, preset and manifest files, job ids, paths) shown back to a
// person: short enough to read, and never able to move the cursor or start a line of its own.

/// How slicevid prints text it did not write itself.
package enum InputText {
    /// The most characters of a value an error line repeats.
    package static let excerptLimit = 80

    /// `value` in single quotes for an error line: control characters escaped, and cut to
    /// `excerptLimit` characters with an ellipsis and the value's length when it is longer,
    /// e.g. `'cubic-bezier(0,1e20,…' (10485760 characters)`.
    package static func quoted(_ value: some StringProtocol) -> String {
        let (head, count) = cut(value)
        return count <= excerptLimit ? "'\(escaped(head))'" : "'\(escaped(head))…' (\(count) characters)"
    }

    /// `value` as `quoted` cuts it, without the quotes: for names such as an unknown key.
    package static func excerpt(_ value: some StringProtocol) -> String {
        let (head, count) = cut(value)
        return count <= excerptLimit ? escaped(head) : "\(escaped(head))… (\(count) characters)"
    }

    /// `text` with every character that could break a line or drive a terminal shown as a
    /// visible escape: `\n`, `\r`, `\t`, and `\u{1B}`-style for the other C0 and C1 controls,
    /// DEL, the Unicode line and paragraph separators and the bidirectional overrides (which
    /// can make a line read differently from what it holds); a path's byte that is not UTF-8
    /// (`PathBytes`) as `\xFF`. Everything else is kept.
    package static func escaped(_ text: some StringProtocol) -> String {
        guard text.unicodeScalars.contains(where: { needsEscape($0) || PathBytes.byte(of: $0) != nil }) else { return String(text) }
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) || PathBytes.byte(of: scalar) != nil else {
                result.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if let byte = PathBytes.byte(of: scalar) {
                    result += "\\x" + String(byte, radix: 16, uppercase: true)
                } else {
                    result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
                }
            }
        }
        return result
    }

    /// Whether `scalar` is a character that could break a line or drive a terminal, which
    /// `escaped(_:)` escapes and fields of settings files refuse. (`escaped(_:)` also shows a
    /// path's byte that is not UTF-8 as `\xFF`; that is no character of the text.)
    package static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true          // C0, DEL, C1 (NEL and CSI among them)
        case 0x2028, 0x2029: true                     // line and paragraph separators
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true // bidirectional marks
        default: false
        }
    }

    /// The first `excerptLimit` Unicode scalars of `value` and how many it has in all.
    /// Scalars rather than characters: one "character" can carry any number of combining marks.
    private static func cut(_ value: some StringProtocol) -> (head: String, count: Int) {
        var head = String.UnicodeScalarView()
        var count = 0
        for scalar in value.unicodeScalars {
            if count < excerptLimit { head.append(scalar) }
            count += 1
        }
        return (String(head), count)
    }
}
