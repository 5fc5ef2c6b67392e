// Text that came from outside (job ids, errors, paths) placed in an HTML page: markup characters
// escaped, and control characters shown as visible escapes rather than written raw.

/// How slicevid writes text it did not write itself into an HTML page.
package enum HTMLText {
    /// `text` for an element's content or a quoted attribute value: `&`, `<`, `>`, `"` and `'`
    /// as character references, and every character `InputText.escaped` makes visible (C0 and C1
    /// controls, DEL, line and paragraph separators, bidirectional marks) as that visible escape,
    /// so nothing from input can close a tag, start one, or reorder what is shown.
    package static func escaped(_ text: some StringProtocol) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        for scalar in InputText.escaped(text).unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// A relative or absolute file path as a URL path for `src` and `href`: every byte outside
    /// the unreserved characters and `/` percent-encoded (UTF-8), so a `#`, `?`, `%`, space or
    /// quote in a file name addresses that file rather than a fragment or a query.
    package static func urlPath(_ path: String) -> String {
        var result = ""
        result.reserveCapacity(path.utf8.count)
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                result += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return result
    }
}
