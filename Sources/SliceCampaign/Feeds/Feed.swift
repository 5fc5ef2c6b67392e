// A manifest's data feed — `"rows": {"file": "products.csv", "key": "sku"}` — read whole and
// checked before any job is made: a header of placeholder names, every row as wide as the
// header, every key present and given once. Read a row at a time and stopped as soon as the
// rows would make more jobs than a manifest may hold, so a million-row file costs little.

import Foundation
import SliceKit

/// The rows of one feed.
package struct Feed: Sendable {
    /// The kinds of file a feed may be.
    package enum Format: String, Sendable {
        case csv
        case jsonl

        /// The format a file's name implies: `.jsonl` and `.ndjson` are JSON Lines; the rest CSV.
        static func implied(by path: String) -> Format {
            let name = path.lowercased()
            return name.hasSuffix(".jsonl") || name.hasSuffix(".ndjson") ? .jsonl : .csv
        }
    }

    /// One row: its values in the feed's column order and where it is. Arrays, not
    /// dictionaries: a feed of 100 000 rows is held whole while it is checked.
    package struct Row: Sendable {
        /// The line it starts on (from 1).
        package let line: Int
        /// Each column's value, in `Feed.columns` order: a `String`, or a number from JSON Lines.
        package let values: [any Sendable]
        /// The column (from 1) each value starts at, for CSV; empty for JSON Lines.
        package let starts: [Int]
        /// The key column's value, as text.
        package let key: String
    }

    /// The feed as the manifest names it (`products.csv`, `-`), for messages.
    package let name: String
    /// The columns, in the file's order.
    package let columns: [String]
    /// The column whose value tells rows apart.
    package let key: String
    package let rows: [Row]

    /// Where a value of `row` is, for messages: `products.csv:7:12` (`stdin:7` for JSON Lines).
    package func place(of column: String, in row: Row) -> String {
        guard let index = columns.firstIndex(of: column), index < row.starts.count else { return "\(shownName):\(row.line)" }
        return "\(shownName):\(row.line):\(row.starts[index])"
    }

    /// `row`'s values by column.
    package func values(of row: Row) -> [(column: String, value: any Sendable)] {
        zip(columns, row.values).map { ($0, $1) }
    }

    /// The feed without `columns`: columns a manifest says change nothing (`"ignore"`), which
    /// are then no placeholders and not part of any fingerprint.
    func ignoring(_ ignored: [String]) -> Feed {
        guard !ignored.isEmpty else { return self }
        let kept = columns.indices.filter { !ignored.contains(columns[$0]) }
        let rows = rows.map { row in
            Row(line: row.line, values: kept.map { row.values[$0] }, starts: row.starts.isEmpty ? [] : kept.map { row.starts[$0] }, key: row.key)
        }
        return Feed(name: name, columns: columns.filter { !ignored.contains($0) }, key: key, rows: rows)
    }

    /// `stdin` for `-`.
    package var shownName: String { name == "-" ? Manifest.standardInputName : name }

    /// Reads the feed.
    /// - Parameters:
    ///   - format: CSV or JSON Lines.
    ///   - separator: CSV's field separator.
    ///   - most: the most rows to accept; one more is refused with `tooMany`'s message.
    ///   - input: the feed's bytes.
    /// - Throws: `FeedError` naming the line (and column) of the first problem.
    static func read(name: String, format: Format, separator: UInt8, key: String, most: Int, tooMany: String,
                     input: FeedInput) throws(FeedError) -> Feed {
        switch format {
        case .csv:
            var reader = CSVReader(separator: separator) { () throws(FeedError) -> ArraySlice<UInt8>? in try input.next() }
            return try readCSV(&reader, name: name, key: key, most: most, tooMany: tooMany)
        case .jsonl:
            var reader = JSONLinesReader { () throws(FeedError) -> ArraySlice<UInt8>? in try input.next() }
            return try readJSONLines(&reader, name: name, key: key, most: most, tooMany: tooMany)
        }
    }

    static func readCSV(_ reader: inout CSVReader, name: String, key: String, most: Int, tooMany: String) throws(FeedError) -> Feed {
        guard let header = try reader.next() else {
            throw FeedError(line: 1, column: 1, reason: "is empty; a feed starts with a header row naming its columns (\(key),…)")
        }
        guard !header.isBlank else {
            throw FeedError(line: 1, column: 1, reason: "the first line is empty; a feed starts with a header row naming its columns (\(key),…)")
        }
        try checkColumns(header.fields, key: key) { index in (header.starts[index].line, header.starts[index].column) }
        var rows: [Row] = []
        var seen: [String: Int] = [:]
        var blank = BlankLines()
        while let record = try reader.next() {
            guard try blank.isRow(blank: record.isBlank, line: record.line) else { continue }
            guard record.fields.count == header.fields.count else {
                let place = record.fields.count > header.fields.count ? record.starts[header.fields.count] : record.end
                throw FeedError(line: place.line, column: place.column,
                                reason: "the row has \(record.fields.count) field\(record.fields.count == 1 ? "" : "s"); the header has \(header.fields.count) (\(list(header.fields)))")
            }
            guard rows.count < most else { throw FeedError(line: record.line, column: nil, reason: tooMany) }
            let keyIndex = header.fields.firstIndex(of: key)!
            let keyValue = record.fields[keyIndex]
            try checkKey(keyValue, key: key, line: record.starts[keyIndex].line, column: record.starts[keyIndex].column, seen: &seen)
            rows.append(Row(line: record.line, values: record.fields, starts: record.starts.map(\.column), key: keyValue))
        }
        guard !rows.isEmpty else { throw noRows(key: key) }
        return Feed(name: name, columns: header.fields, key: key, rows: rows)
    }

    static func readJSONLines(_ reader: inout JSONLinesReader, name: String, key: String, most: Int,
                              tooMany: String) throws(FeedError) -> Feed {
        var columns: [String]?
        var rows: [Row] = []
        var seen: [String: Int] = [:]
        var blank = BlankLines()
        while let record = try reader.next() {
            guard try blank.isRow(blank: record.isBlank, line: record.line) else { continue }
            let keys = record.values.keys.sorted()
            if let columns {
                if let missing = columns.first(where: { record.values[$0] == nil }) {
                    throw FeedError(line: record.line, column: nil, reason: "has no \(InputText.quoted(missing)); every row has the first row's keys (\(list(columns)))")
                }
                if let extra = keys.first(where: { !columns.contains($0) }) {
                    throw FeedError(line: record.line, column: nil, reason: "has \(InputText.quoted(extra)), which the first row has not; every row has the first row's keys (\(list(columns)))")
                }
            } else {
                try checkColumns(keys, key: key) { _ in (record.line, nil) }
                columns = keys
            }
            guard rows.count < most else { throw FeedError(line: record.line, column: nil, reason: tooMany) }
            let keyValue = JobPlaceholders.written(record.values[key]!)
            try checkKey(keyValue, key: key, line: record.line, column: nil, seen: &seen)
            let values = (columns ?? keys).map { column -> any Sendable in
                let value = record.values[column]
                return value as? String ?? (value as? NSNumber).map { $0 as any Sendable } ?? ""
            }
            rows.append(Row(line: record.line, values: values, starts: [], key: keyValue))
        }
        guard let columns, !rows.isEmpty else { throw noRows(key: key) }
        return Feed(name: name, columns: columns, key: key, rows: rows)
    }

    /// Column names become placeholders: each must be one, given once, and the key among them.
    private static func checkColumns(_ names: [String], key: String,
                                     place: (Int) -> (line: Int, column: Int?)) throws(FeedError) {
        var seen: Set<String> = []
        for (index, name) in names.enumerated() {
            let (line, column) = place(index)
            guard JobPlaceholders.isName(name[...]) else {
                throw FeedError(line: line, column: column, reason: "column \(InputText.quoted(name)) is not a placeholder name; a name is a letter or _, then letters, digits, _ or - (rename the column)")
            }
            guard name != "id" else {
                throw FeedError(line: line, column: column, reason: "a column may not be named 'id': {id} is the job's own id (rename the column)")
            }
            guard seen.insert(name).inserted else {
                throw FeedError(line: line, column: column, reason: "column \(InputText.quoted(name)) is named twice")
            }
        }
        guard names.contains(key) else {
            throw FeedError(line: 1, column: nil, reason: "has no column \(InputText.quoted(key)), the manifest's \"key\"; its columns: \(list(names))")
        }
    }

    /// A key must be there and given once: it names the row's jobs.
    private static func checkKey(_ value: String, key: String, line: Int, column: Int?, seen: inout [String: Int]) throws(FeedError) {
        guard !value.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw FeedError(line: line, column: column, reason: "the key (\(key)) is empty; every row needs one, as it names the row's jobs")
        }
        if let first = seen[value] {
            throw FeedError(line: line, column: column, reason: "the key (\(key)) \(InputText.quoted(value)) is also on line \(first); keys must be unique")
        }
        seen[value] = line
    }

    /// Empty lines: tolerated at the end of a file (editors leave them), refused between rows.
    private struct BlankLines {
        private var first: Int?

        /// Whether the line is a row to read; throws when a row follows an empty line.
        mutating func isRow(blank: Bool, line: Int) throws(FeedError) -> Bool {
            if blank {
                first = first ?? line
                return false
            }
            if let first { throw FeedError(line: first, column: 1, reason: "the line is empty; rows follow one another without empty lines (remove it)") }
            return true
        }
    }

    private static func noRows(key: String) -> FeedError {
        FeedError(line: nil, column: nil, reason: "has no rows; a feed with nothing but a header is refused, so that an export that failed never empties a campaign")
    }

    /// Names for a message, the first ten and how many more.
    private static func list(_ names: [String]) -> String {
        names.count <= 10 ? names.joined(separator: ", ") : names.prefix(10).joined(separator: ", ") + " and \(names.count - 10) more"
    }
}
