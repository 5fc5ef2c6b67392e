// Job templates' matrices: a job with `"matrix": {"ratio": ["16x9", "9x16"], "product": ["coffee", "astro"]}`
// stands for one job per combination, with `{ratio}` and `{product}` filled in every string of
// it, and `{id}` filled with the job's own id everywhere but the id (`JobTemplate` expands them,
// `JobPlaceholders` fills them). Expanded before a job is read, so an expanded job is checked
// exactly as a job written out by hand.

import Foundation
import SliceKit
import SlicePipeline

/// A job template's matrix: its names and values, in expansion order.
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

    /// The matrix's names in expansion order (first in the id first) with their values.
    static func dimensions(_ value: Any, id: String, reader: ManifestReader) throws(SlicevidError) -> [(name: String, values: [Any])] {
        guard let matrix = value as? [String: Any], !matrix.isEmpty else {
            throw reader.error("matrix", "expected an object of names and value arrays, e.g. {\"ratio\": [\"16x9\", \"9x16\"]}")
        }
        var names: [(name: String, values: [Any], position: String.Index)] = []
        var jobs = 1
        for (name, list) in matrix.sorted(by: { $0.key < $1.key }) {
            let field = "matrix.\(InputText.excerpt(name))"
            guard JobPlaceholders.isName(name[...]) else {
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
    static func combinations(of names: [(name: String, values: [Any])]) -> [[Any]] {
        names.reduce([[]]) { partial, dimension in partial.flatMap { prefix in dimension.values.map { prefix + [$0] } } }
    }
}
