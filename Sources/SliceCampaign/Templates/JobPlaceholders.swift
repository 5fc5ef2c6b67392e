// A job's `{NAME}` placeholders: the one function that fills a job's strings with the values of its
// matrix combination and its feed row (and `{id}`), used for every field of a job — ids, stills,
// outputs, settings, and whatever other fields call it — so every field follows one rule. A
// value placed in a path is held to what a path from data may be: it stays below the folder the
// manifest names.

import Foundation
import SliceKit
import SlicePipeline

/// The values one job's placeholders take, by name.
package struct JobPlaceholders {
    /// Values by name: `String`s, or numbers (`NSNumber`) from a matrix or a JSON Lines row.
    package var values: [String: Any]
    /// The job's id, for `{id}`; nil while the id itself is being filled.
    package var id: String?
    /// Where each value came from, for errors: `products.csv:7:12`, `matrix.ratio`.
    package var origins: [String: String]

    package init(values: [String: Any] = [:], id: String? = nil, origins: [String: String] = [:]) {
        self.values = values
        self.id = id
        self.origins = origins
    }

    /// `object` (a job object) with the placeholders of every string filled, recursively; the
    /// id stays as given (it was filled first).
    /// - Throws: `SlicevidError(.usage)` naming the field: an unknown `{word}`, a value that
    ///   would take a path out of its folder.
    mutating func fill(job object: [String: Any], reader: ManifestReader) throws(SlicevidError) -> [String: Any] {
        var filled: [String: Any] = [:]
        for (key, value) in object {
            if key == "id", let id { filled[key] = id; continue }
            filled[key] = try fill(value, field: InputText.excerpt(key), reader: reader)
        }
        return filled
    }

    /// `value` with the placeholders of every string in it filled, recursively.
    /// - Parameter field: where `value` is in the job (`outputs[1]`, `images[0].path`): errors
    ///   name it, and it says whether the strings are paths.
    mutating func fill(_ value: Any, field: String, reader: ManifestReader) throws(SlicevidError) -> Any {
        switch value {
        case let text as String:
            return try substitute(text, field: field, reader: reader)
        case let array as [Any]:
            var filled: [Any] = []
            for (index, item) in array.enumerated() {
                filled.append(try fill(item, field: "\(field)[\(index)]", reader: reader))
            }
            return filled
        case let object as [String: Any]:
            var filled: [String: Any] = [:]
            for (key, item) in object {
                filled[key] = try fill(item, field: "\(field).\(InputText.excerpt(key))", reader: reader)
            }
            return filled
        default:
            return value
        }
    }

    /// Whether the string at `field` of a job is a path: a still, an output, a preset file, a
    /// music bed.
    package static func isPath(_ field: String) -> Bool {
        if field == "preset" || field == "audio" || field == "audio.file" || field.hasPrefix("outputs") { return true }
        return field.hasPrefix("images") && (field.hasSuffix("]") || field.hasSuffix(".path"))
    }

    /// `text` with `{NAME}`, `{id}`, `{{` and `}}` replaced; a number when `text` is exactly
    /// one placeholder whose value is a number.
    /// - Parameter field: where the text is, for errors and to tell a path (`isPath`).
    mutating func substitute(_ text: String, field: String, reader: ManifestReader) throws(SlicevidError) -> Any {
        guard text.contains("{") || text.contains("}") else { return text }
        let path = Self.isPath(field)
        var result = ""
        var rest = text[...]
        while let brace = rest.firstIndex(where: { $0 == "{" || $0 == "}" }) {
            result += rest[..<brace]
            let after = rest[rest.index(after: brace)...]
            if rest[brace] == "}" {
                // `}}` is one literal brace; a lone one is kept as it is.
                result += "}"
                rest = after.first == "}" ? after.dropFirst() : after
                continue
            }
            if after.first == "{" {
                result += "{"
                rest = after.dropFirst()
                continue
            }
            guard let close = after.firstIndex(of: "}"), Self.isName(after[..<close]) else {
                result += "{"
                rest = after
                continue
            }
            let name = String(after[..<close])
            let replacement: Any
            if name == "id" {
                guard let id else { throw reader.error(field, "the id cannot contain {id}") }
                replacement = id
            } else if let value = values[name] {
                replacement = value
            } else {
                let known = (values.keys.sorted().map { "{\($0)}" } + (id == nil ? [] : ["{id}"])).joined(separator: ", ")
                throw reader.error(field, "{\(InputText.excerpt(name))} is not a placeholder of this job (it has \(known.isEmpty ? "none" : known)); write {{ and }} for literal braces")
            }
            if path, let problem = Self.pathProblem(Self.written(replacement)) {
                let origin = name == "id" ? "the job's id" : origins[name].map { "from \($0)" } ?? "its value"
                throw reader.error(field, "{\(name)} is \(InputText.quoted(Self.written(replacement))) (\(origin)): \(problem)")
            }
            if result.isEmpty && after[after.index(after: close)...].isEmpty && SpecField.jsonNumberText(replacement) != nil {
                return replacement
            }
            result += Self.written(replacement)
            rest = after[after.index(after: close)...]
        }
        return result + rest
    }

    /// Why `value` may not be placed in a path, or nil when it may: a value from data must leave
    /// the path below the folder the manifest wrote before it — no `..`, no leading `/` — and
    /// hold no control characters (a file name no one can type or see) and be non-empty.
    package static func pathProblem(_ value: String) -> String? {
        if value.isEmpty { return "a value placed in a path must not be empty" }
        if value.unicodeScalars.contains(where: InputText.needsEscape) {
            return "a value placed in a path must not hold control characters (line breaks, tabs, escapes)"
        }
        if value.hasPrefix("/") { return "a value placed in a path must not start with /; it would leave the manifest's folders" }
        if value.split(separator: "/", omittingEmptySubsequences: false).contains("..") {
            return "a value placed in a path must not hold a '..' part; it would leave the manifest's folders"
        }
        return nil
    }

    /// A value as it reads in a string.
    package static func written(_ value: Any) -> String {
        value as? String ?? SpecField.jsonNumberText(value) ?? ""
    }

    /// Whether `text` can name a placeholder: the layouts' rule (`Placeholders.isName`), so a
    /// feed's column, a matrix's dimension and a layout's `{name}` are named alike.
    package static func isName(_ text: Substring) -> Bool {
        Placeholders.isName(String(text))
    }
}
