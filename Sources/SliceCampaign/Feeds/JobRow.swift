// The feed row a job was made from, as the job carries it: which feed, which line, which key,
// and the row's values, which join the job's fingerprint and name it in the report.

/// The feed row a job was made from: what the report and the fingerprint say of it.
package struct JobRow: Sendable, Equatable {
    /// The feed as the manifest names it (`products.csv`, `stdin`).
    package let feed: String
    /// The line the row starts on.
    package let line: Int
    /// The row's key.
    package let key: String
    /// The row's values the job uses — in its fields, its vars or its layout — in the feed's
    /// column order: a change to one of them changes the job's fingerprint, a change to any
    /// other column does not.
    package let values: [Value]

    /// One used value of the row.
    package struct Value: Sendable, Equatable {
        package let column: String
        package let text: String
    }

    /// The row with only the values of `columns`, in the feed's order.
    func keeping(_ columns: Set<String>) -> JobRow {
        JobRow(feed: feed, line: line, key: key, values: values.filter { columns.contains($0.column) })
    }

    init(feed: Feed, row: Feed.Row) {
        self.feed = feed.shownName
        line = row.line
        key = row.key
        values = feed.values(of: row).map { Value(column: $0.column, text: JobPlaceholders.written($0.value)) }
    }

    package init(feed: String, line: Int, key: String, values: [Value]) {
        self.feed = feed
        self.line = line
        self.key = key
        self.values = values
    }
}
