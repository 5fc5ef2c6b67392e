// How `probe` and `make --dry-run` print what a file holds: `PATH: key=value …` lines (a value
// with spaces in double quotes), or one JSON object per file with the same facts.

import Foundation
import Slicevid

/// Formats media facts for stdout.
enum FactsText {
    /// `PATH: key=value key="two words" …`, one line.
    static func line(_ path: String, _ pairs: [(key: String, value: String)]) -> String {
        let fields = pairs.map { key, value in value.contains(" ") ? "\(key)=\"\(value)\"" : "\(key)=\(value)" }
        return "\(path): " + fields.joined(separator: " ") + "\n"
    }

    /// One JSON object on one line: `path`, the facts both commands share, then `extra`.
    static func json(_ path: String, _ facts: MediaFacts, extra: [String: Any] = [:]) -> String {
        var object = facts.jsonFields.merging(extra) { first, _ in first }
        object["path"] = path
        // Only JSON types go in, so serialisation cannot fail.
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        // JSON escapes C0 controls but lets DEL, C1 controls and line separators through raw.
        return JSONText.escapingInvisibles(String(decoding: data, as: UTF8.self)) + "\n"
    }
}
