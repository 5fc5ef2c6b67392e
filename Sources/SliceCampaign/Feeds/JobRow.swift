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
    /// The row's values in the feed's column order (the columns `ignore` leaves out are not
    /// among them): a change to one of them changes the job's fingerprint.
    package let values: [Value]

    /// One used value of the row.
    package struct Value: Sendable, Equatable {
        package let column: String
        package let text: String
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
