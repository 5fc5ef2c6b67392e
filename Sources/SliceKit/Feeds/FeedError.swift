// Why a data feed (a CSV or JSON Lines file of a manifest's `rows`) cannot be read, and where:
// `7:3: a quote inside an unquoted field …`, the place an editor jumps to.

/// A feed's refusal: the line and column it is about (when it is about one) and why.
package struct FeedError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Counted from 1, as editors count physical lines (a quoted field's own line breaks count).
    package let line: Int?
    /// Counted from 1, in characters (Unicode scalars) from the start of the line.
    package let column: Int?
    package let reason: String
    /// Whether a stop signal ended the reading (standard input that never ended).
    package var isInterrupted = false
    /// Whether the feed is missing, unreadable or not a regular file (66), rather than bad (64).
    package var isMissing = false
    /// Whether the file changed while it was read, so the bytes read may mix two versions.
    package var isChanged = false

    package init(line: Int?, column: Int?, reason: String) {
        self.line = line
        self.column = column
        self.reason = reason
    }

    /// A problem with the feed as a whole (its size, reading it).
    package init(_ reason: String) {
        self.init(line: nil, column: nil, reason: reason)
    }

    /// `LINE:COLUMN: reason`, `LINE: reason` or the reason alone: what follows the feed's name.
    package var description: String {
        switch (line, column) {
        case let (line?, column?): "\(line):\(column): \(reason)"
        case let (line?, nil): "\(line): \(reason)"
        default: reason
        }
    }
}
