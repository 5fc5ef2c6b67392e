// Reading the JSON people write by hand (presets) or generate (manifests) strictly, as RFC 8259
// defines it: Foundation's parser on Linux lets trailing commas, a byte-order mark and UTF-16
// through, and keeps the last of a key given twice. Every refusal says where, as an editor would.

import Foundation

/// The one way slicevid reads a JSON document.
package enum JSONText {
    /// Why a document is not strict JSON, and where: `line 4, column 12: trailing comma …`.
    package struct SyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
        /// Counted from 1.
        package let line: Int
        /// Counted from 1, in characters (Unicode scalars) from the start of the line.
        package let column: Int
        package let reason: String

        package init(line: Int, column: Int, reason: String) {
            self.line = line
            self.column = column
            self.reason = reason
        }

        package var description: String { "line \(line), column \(column): \(reason)" }
    }

    /// The deepest nesting of objects and arrays accepted. Presets are flat and manifests a few
    /// levels deep; a bound keeps a hostile `[[[[…` from exhausting the stack.
    package static let maximumDepth = 64

    /// Reads `data` as one strict JSON value (RFC 8259) and returns Foundation's form of it
    /// (`[String: Any]`, `[Any]`, `String`, `NSNumber`, `NSNull`).
    ///
    /// Refused, with the line and column: anything but UTF-8 (a byte-order mark, UTF-16 or
    /// UTF-32, invalid bytes), trailing commas, comments, single quotes, `NaN` and `Infinity`,
    /// numbers JSON does not spell (`+1`, `.5`, `01`, `0x1E`) or a double cannot hold (`1e400`),
    /// control characters and unpaired surrogates in strings, a key given twice in one object,
    /// nesting deeper than `maximumDepth`, and anything after the value.
    /// - Throws: `SyntaxError` for the first problem in the file.
    package static func parse(_ data: Data) throws(SyntaxError) -> Any {
        var scanner = JSONScanner(bytes: [UInt8](data))
        try scanner.check()
        do {
            return try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            // The scan accepts only what Foundation reads; this is a last resort, not a path.
            let reason = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
            throw SyntaxError(line: 1, column: 1, reason: reason)
        }
    }

    /// `json` (the output of `JSONSerialization`) with the characters JSON lets through raw but
    /// a terminal or a log viewer acts on (DEL, C1 controls, line separators, bidirectional
    /// marks) written as `\uXXXX` escapes. They can only occur inside strings, where the escape
    /// means the same character, so the JSON reads back identically. A path's byte that is not
    /// UTF-8 (`PathBytes`: U+EF00 + the byte) is escaped too, so it shows as `\uefff`.
    package static func escapingInvisibles(_ json: String) -> String {
        func invisible(_ scalar: Unicode.Scalar) -> Bool { InputText.needsEscape(scalar) || PathBytes.byte(of: scalar) != nil }
        guard json.unicodeScalars.contains(where: invisible) else { return json }
        var result = String.UnicodeScalarView()
        for scalar in json.unicodeScalars {
            guard invisible(scalar) else {
                result.append(scalar)
                continue
            }
            let hex = String(scalar.value, radix: 16)
            result.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).unicodeScalars)
        }
        return String(result)
    }
}
