// Job templates: a job with `"matrix": {"ratio": ["16x9", "9x16"], "product": ["coffee", "astro"]}`
// stands for one job per combination, with `{ratio}` and `{product}` filled in every string of
// it, and `{id}` filled with the job's own id everywhere but the id. Expanded before a job is
// read, so an expanded job is checked exactly as a job written out by hand.

import Foundation
import SliceKit

/// Expands a job object's `matrix` and fills its placeholders.
///
/// Rules, as docs/batch.md ("Matrices") documents them:
/// - A name is a letter or `_`, then letters, digits, `_` or `-`; `id` is reserved. Each name
///   takes a non-empty array of strings and numbers (at most `maximumValues`), and every name
///   must appear in the id, so each combination gets an id of its own.
/// - `{NAME}` in any string of the job is replaced by the value; a string that is exactly
///   `{NAME}` takes a number as a number (`"crf": "{crf}"` with `[20, 30]` gives 20, not "20").
///   `{id}` is the expanded id. `{{` and `}}` write a literal brace. Any other `{word}` is an
///   error naming the field: a typo must not become part of a file name.
/// - Jobs come out in the order their ids read: the name that appears first in the id varies
///   slowest, each name's values in the order given.
enum ManifestMatrix {
    /// The most values one name may take, and the most jobs one matrix may make.
    static let maximumValues = 1_000
    static let maximumJobs = 10_000

    /// One job made from a job object.
    struct Expanded {
        /// The job object with every placeholder filled and no `matrix`.
        let object: Any
        /// `product=coffee, ratio=16x9` for a matrix job; nil otherwise.
        let combination: String?
    }

    /// The jobs `entry` stands for: itself with its placeholders filled, or one per combination
    /// of its matrix. Anything that is not an object is passed on for the job reader to refuse.
    /// - Throws: `SlicevidError(.usage)` naming the manifest, `jobs[index]` and the field.
    static func expand(_ entry: Any, reader: ManifestReader) throws(SlicevidError) -> [Expanded] {
        guard var object = entry as? [String: Any] else { return [Expanded(object: entry, combination: nil)] }
        guard let matrixValue = object.removeValue(forKey: "matrix") else {
            // Without a matrix a job may still use {id} (and must not use anything else).
            guard let id = object["id"] as? String else { return [Expanded(object: object, combination: nil)] }
            return [Expanded(object: try fill(object, with: [:], id: id, reader: reader), combination: nil)]
        }
        guard let template = object["id"] as? String, !template.isEmpty else {
            throw reader.error("id", "a job with a matrix needs an \"id\" string naming every matrix value, e.g. \"promo-{product}-{ratio}\"")
        }
        let names = try dimensions(matrixValue, id: template, reader: reader)
        var jobs: [Expanded] = []
        var madeBy: [String: String] = [:]
        for combination in combinations(of: names) {
            let values = Dictionary(uniqueKeysWithValues: zip(names.map(\.name), combination))
            let described = zip(names, combination).map { "\($0.name)=\(written($1))" }.joined(separator: ", ")
            let id = try substitute(template, values: values, id: nil, field: "id", reader: reader)
            guard let id = id as? String else { throw reader.error("id", "expected a string") }
            if let other = madeBy[id] {
                throw reader.error("matrix", "the id \(InputText.quoted(template)) gives \(InputText.quoted(id)) for both \(other) and \(described); "
                    + "make the id tell every combination apart")
            }
            madeBy[id] = described
            jobs.append(Expanded(object: try fill(object, with: values, id: id, reader: reader), combination: described))
        }
        return jobs
    }

    /// The matrix's names in expansion order (first in the id first) with their values.
    private static func dimensions(_ value: Any, id: String, reader: ManifestReader) throws(SlicevidError) -> [(name: String, values: [Any])] {
        guard let matrix = value as? [String: Any], !matrix.isEmpty else {
            throw reader.error("matrix", "expected an object of names and value arrays, e.g. {\"ratio\": [\"16x9\", \"9x16\"]}")
        }
        var names: [(name: String, values: [Any], position: String.Index)] = []
        var jobs = 1
        for (name, list) in matrix.sorted(by: { $0.key < $1.key }) {
            let field = "matrix.\(InputText.excerpt(name))"
            guard isName(name[...]) else {
                throw reader.error(field, "is not a matrix name; a name is a letter or _, then letters, digits, _ or -")
            }
            guard name != "id" else { throw reader.error(field, "{id} is the job's own id; give the value another name") }
            guard let values = list as? [Any], !values.isEmpty, values.count <= maximumValues else {
                throw reader.error(field, "expected an array of 1…\(maximumValues) strings or numbers")
            }
            for (position, value) in values.enumerated() where !(value is String) && SpecField.jsonNumberText(value) == nil {
                throw reader.error("\(field)[\(position)]", "expected a string or a number")
            }
            guard let position = id.range(of: "{\(name)}")?.lowerBound else {
                throw reader.error("id", "\(InputText.quoted(id)) does not use {\(name)}; every matrix name must be in the id, so each combination has its own")
            }
            let (product, overflow) = jobs.multipliedReportingOverflow(by: values.count)
            guard !overflow, product <= maximumJobs else {
                throw reader.error("matrix", "makes more than \(maximumJobs) jobs; split it into several jobs")
            }
            jobs = product
            names.append((name, values, position))
        }
        return names.sorted { $0.position < $1.position }.map { ($0.name, $0.values) }
    }

    /// Every combination, the first name varying slowest.
    private static func combinations(of names: [(name: String, values: [Any])]) -> [[Any]] {
        names.reduce([[]]) { partial, dimension in partial.flatMap { prefix in dimension.values.map { prefix + [$0] } } }
    }

    /// `object` with the placeholders of every string filled, recursively; the id stays as given.
    private static func fill(_ object: [String: Any], with values: [String: Any], id: String,
                             reader: ManifestReader) throws(SlicevidError) -> [String: Any] {
        var filled: [String: Any] = [:]
        for (key, value) in object {
            filled[key] = key == "id" ? id : try fill(value, with: values, id: id, field: InputText.excerpt(key), reader: reader)
        }
        return filled
    }

    private static func fill(_ value: Any, with values: [String: Any], id: String, field: String,
                             reader: ManifestReader) throws(SlicevidError) -> Any {
        switch value {
        case let text as String:
            return try substitute(text, values: values, id: id, field: field, reader: reader)
        case let array as [Any]:
            var filled: [Any] = []
            for (index, item) in array.enumerated() {
                filled.append(try fill(item, with: values, id: id, field: "\(field)[\(index)]", reader: reader))
            }
            return filled
        case let object as [String: Any]:
            var filled: [String: Any] = [:]
            for (key, item) in object {
                filled[key] = try fill(item, with: values, id: id, field: "\(field).\(InputText.excerpt(key))", reader: reader)
            }
            return filled
        default:
            return value
        }
    }

    /// `text` with `{NAME}`, `{id}`, `{{` and `}}` replaced; a number when `text` is exactly
    /// one placeholder whose value is a number.
    private static func substitute(_ text: String, values: [String: Any], id: String?, field: String,
                                   reader: ManifestReader) throws(SlicevidError) -> Any {
        guard text.contains("{") || text.contains("}") else { return text }
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
            guard let close = after.firstIndex(of: "}"), isName(after[..<close]) else {
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
            if result.isEmpty && after[after.index(after: close)...].isEmpty && SpecField.jsonNumberText(replacement) != nil {
                return replacement
            }
            result += written(replacement)
            rest = after[after.index(after: close)...]
        }
        return result + rest
    }

    /// A matrix value as it reads in a string.
    private static func written(_ value: Any) -> String {
        value as? String ?? SpecField.jsonNumberText(value) ?? ""
    }

    /// Whether `text` can name a placeholder: a letter or `_`, then letters, digits, `_`, `-`.
    private static func isName(_ text: Substring) -> Bool {
        guard let first = text.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic || first == "_" else { return false }
        return text.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-") }
    }
}
