// One entry of a manifest's `jobs` before it is expanded: a job, or a template that stands for
// one job per row of its feed (`rows`) times each combination of its `matrix`. Templates are
// read and their jobs counted first, so a manifest that would make too many jobs is refused
// before a single one is built; then each template hands its jobs out one at a time.

import Foundation
import Glibc
import SliceKit
import SliceMedia
import SlicePipeline

/// A job object with its matrix and feed read, not yet expanded.
struct JobTemplate {
    /// One job a template makes, ready for `ManifestJob`.
    struct Expanded {
        /// The job object with every placeholder filled and no `matrix` or `rows`.
        let object: Any
        /// How errors tell it apart from the template's other jobs: `row 'NL-104' (products.csv:7),
        /// ratio=16x9`; nil for a plain job.
        let combination: String?
        /// Its feed row (key, line and values).
        let row: JobRow?
        /// Every value its placeholders could take, by name, as text.
        let variables: [String: String]
        /// The names its fields used (but `vars`), and the names each var's value used.
        var used: [String] = []
        var variableUses: [String: [String]] = [:]
        /// What formats wrote, by the name whose value they wrote: in its fields (but `vars`),
        /// and in each var's value.
        var shown: [String: [String]] = [:]
        var variableShown: [String: [String: [String]]] = [:]
        /// Where each value came from, for errors: `products.csv:7:3, column price`.
        var origins: [String: String] = [:]

        /// The names the job uses: its fields', and those of the vars and names its layout uses
        /// (`layoutNames`; a var wins over a column of the same name, as it does on the clip).
        func names(usedBy layoutNames: [String]) -> Set<String> {
            var names = Set(used)
            for name in layoutNames {
                if let own = variableUses[name] { names.formUnion(own) } else { names.insert(name) }
            }
            return names
        }

        /// What formats wrote in its fields and in the vars its layout uses, by name.
        func shown(usedBy layoutNames: [String]) -> [String: [String]] {
            var all = shown
            for name in layoutNames {
                for (column, texts) in variableShown[name] ?? [:] { all[column, default: []] += texts.filter { !(all[column]?.contains($0) ?? false) } }
            }
            return all
        }
    }

    /// Keys a `rows` object accepts.
    static let rowsKeys = ["file", "key", "separator", "format", "ignore"]

    private let object: Any
    private let dimensions: [(name: String, values: [Any])]
    private let feed: Feed?
    /// How many jobs the template makes.
    let count: Int
    /// The folders below which its outputs land where a placeholder names part of their path
    /// (`out/` for `out/{sku}/{id}.mp4`): where `--prune` looks for outputs of rows that left.
    let outputRoots: [String]

    /// Reads `entry`'s matrix and feed.
    /// - Parameter budget: the most jobs it may make (what the manifest has left).
    /// - Throws: `SlicevidError(.usage)` naming the manifest, `jobs[index]` and the field (for a
    ///   feed, its file, line and column); `.interrupted` when a stop signal ended the reading of
    ///   a feed on standard input.
    init(_ entry: Any, reader: ManifestReader, context: inout ManifestContext, budget: Int,
         tooMany: String) throws(SlicevidError) {
        guard var object = entry as? [String: Any] else {
            (self.object, dimensions, feed, count, outputRoots) = (entry, [], nil, 1, [])
            guard budget >= 1 else { throw reader.error(nil, tooMany) }
            return
        }
        let matrix = object.removeValue(forKey: "matrix")
        let rows = object.removeValue(forKey: "rows")
        if matrix != nil || rows != nil {
            guard let template = object["id"] as? String, !template.isEmpty else {
                throw reader.error("id", "a job with a \(rows == nil ? "matrix" : "feed") needs an \"id\" string naming every row and matrix value, e.g. \"promo-{sku}-{ratio}\"")
            }
            dimensions = try matrix.map { value throws(SlicevidError) in try ManifestMatrix.dimensions(value, id: template, reader: reader) } ?? []
        } else {
            dimensions = []
        }
        let combinations = dimensions.reduce(1) { $0 * $1.values.count }
        guard combinations <= budget else { throw reader.error("matrix", tooMany) }
        if let rows {
            let feed = try context.feed(rows, reader: reader, most: budget / combinations, tooMany: tooMany)
            let template = object["id"] as? String ?? ""
            guard template.contains("{\(feed.key)}") else {
                throw reader.error("id", "\(InputText.quoted(template)) does not use {\(feed.key)}, the feed's key; the id names each row's jobs, e.g. \"promo-{\(feed.key)}\"")
            }
            if let clash = dimensions.first(where: { feed.columns.contains($0.name) }) {
                throw reader.error("matrix.\(clash.name)", "is also a column of \(feed.shownName); give the matrix value another name")
            }
            self.feed = feed
            count = feed.rows.count * combinations
        } else {
            feed = nil
            count = combinations
        }
        self.object = object
        let outputs = (object["outputs"] as? [Any] ?? [object["outputs"] as Any]).compactMap { $0 as? String }
        outputRoots = outputs.compactMap { [context] text in
            // The literal text before the first placeholder (`{{` is a brace there, not one).
            guard let template = try? PlaceholderTemplate(parsing: String(OutputArgument.split(text).path)),
                  template.hasPlaceholders else { return nil }
            var fixed = ""
            for part in template.parts {
                guard case .text(let text) = part else { break }
                fixed += text
            }
            guard let slash = fixed.lastIndex(of: "/") else { return context.absolute(".") }
            return context.absolute(String(fixed[...slash]))
        }
    }

    /// Hands each job the template makes to `body`, row by row in the feed's order, each row's
    /// matrix combinations in the matrix's order.
    /// - Throws: `SlicevidError(.usage)` for an id two of its jobs share, a placeholder nothing
    ///   fills or a value a path may not take; whatever `body` throws.
    /// - Parameter defaultVariables: the defaults' `vars`, filled for each job that does not set them.
    func expand(reader: ManifestReader, defaultVariables: [String: String],
                _ body: (Expanded) throws(SlicevidError) -> Void) throws(SlicevidError) {
        guard let object = object as? [String: Any] else {
            try body(Expanded(object: self.object, combination: nil, row: nil, variables: [:]))
            return
        }
        guard feed != nil || !dimensions.isEmpty else {
            // Without a matrix or a feed a job may still use {id} (and must not use anything else).
            guard let template = object["id"] as? String else {
                try body(Expanded(object: object, combination: nil, row: nil, variables: [:]))
                return
            }
            // Its id follows the one rule too: `{{` is a brace, and a `{word}` fills nothing.
            var placeholders = JobPlaceholders()
            placeholders.id = JobPlaceholders.written(try placeholders.substitute(template, field: "id", reader: reader))
            let filled = try placeholders.fill(job: object, defaultVariables: defaultVariables, reader: reader)
            try body(Expanded(object: filled, combination: nil, row: nil, variables: [:], used: placeholders.used,
                              variableUses: placeholders.variableUses))
            return
        }
        let template = object["id"] as? String ?? ""
        var madeBy: [String: String] = [:]
        let rows: [Feed.Row?] = feed.map { $0.rows.map { Optional($0) } } ?? [nil]
        for row in rows {
            for combination in ManifestMatrix.combinations(of: dimensions) {
                var placeholders = JobPlaceholders()
                var described: [String] = []
                if let row, let feed {
                    for (column, value) in feed.values(of: row) {
                        placeholders.values[column] = value
                        placeholders.origins[column] = "\(feed.place(of: column, in: row)), column \(column)"
                    }
                    described.append("row \(InputText.quoted(row.key)) (\(feed.shownName):\(row.line))")
                }
                for (dimension, value) in zip(dimensions, combination) {
                    placeholders.values[dimension.name] = value
                    placeholders.origins[dimension.name] = "matrix.\(dimension.name)"
                    described.append("\(dimension.name)=\(JobPlaceholders.written(value))")
                }
                let combinationText = described.joined(separator: ", ")
                // An id is text, even when it is one placeholder whose value is a number.
                let id = JobPlaceholders.written(try placeholders.substitute(template, field: "id", reader: reader))
                if let other = madeBy[id] {
                    throw reader.error(feed == nil ? "matrix" : "id", "the id \(InputText.quoted(template)) gives \(InputText.quoted(id)) for both \(other) and \(combinationText); "
                        + "make the id tell every \(feed == nil ? "combination" : "row and combination") apart")
                }
                madeBy[id] = combinationText
                placeholders.id = id
                let filled = try placeholders.fill(job: object, defaultVariables: defaultVariables, reader: reader)
                let jobRow = row.flatMap { row in feed.map { feed in JobRow(feed: feed, row: row) } }
                let variables = placeholders.values.mapValues(JobPlaceholders.written)
                try body(Expanded(object: filled, combination: combinationText, row: jobRow, variables: variables,
                                  used: placeholders.used, variableUses: placeholders.variableUses, shown: placeholders.shown,
                                  variableShown: placeholders.variableShown, origins: placeholders.origins))
            }
        }
    }
}
