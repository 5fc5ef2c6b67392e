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
        /// What the job's formats wrote of it (`24,99 €` for `24.99`), in order: what `--plan`
        /// shows when it changes. Empty where the job places it as it is.
        package var shown: [String] = []

        package init(column: String, text: String, shown: [String] = []) {
            self.column = column
            self.text = text
            self.shown = shown
        }
    }

    /// The row with only the values of `columns`, in the feed's order.
    func keeping(_ columns: Set<String>) -> JobRow {
        JobRow(feed: feed, line: line, key: key, values: values.filter { columns.contains($0.column) })
    }

    /// The row with what formats wrote of its values (`shown`, by column).
    func showing(_ shown: [String: [String]]) -> JobRow {
        JobRow(feed: feed, line: line, key: key, values: values.map { value in
            var value = value
            value.shown = shown[value.column] ?? []
            return value
        })
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
