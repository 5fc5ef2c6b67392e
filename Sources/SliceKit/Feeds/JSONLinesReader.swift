// JSON Lines (one JSON object per line), read a line at a time over a stream of bytes, each line
// as strictly as any JSON slicevid reads (JSONText): a feed's rows from a pipeline or an export.
// LF or CRLF line ends; a UTF-8 byte-order mark at the start is tolerated.

import Foundation

/// One line of a JSON Lines file.
package struct JSONLinesRecord {
    /// Counted from 1.
    package var line: Int
    /// The line's object: strings and numbers (`NSNumber`) by key; empty for a blank line.
    package var values: [String: Any]
    /// A line with nothing on it but spaces.
    package var isBlank: Bool
}

/// Reads JSON Lines records one by one from chunks of bytes.
package struct JSONLinesReader {
    /// The longest line read: a row of a feed is a few hundred bytes.
    package static let maximumLine = 1 << 20

    private let source: () throws(FeedError) -> ArraySlice<UInt8>?
    private var buffer: [UInt8] = []
    /// Where the unread part of `buffer` starts.
    private var start = 0
    private var ended = false
    private var started = false
    private var line = 0

    /// - Parameter source: the next chunk of bytes, nil at the end (`FeedInput.next`).
    package init(source: @escaping () throws(FeedError) -> ArraySlice<UInt8>?) {
        self.source = source
    }

    /// Reads all of `bytes` (for tests and small inputs).
    package init(bytes: [UInt8]) {
        var given = false
        self.init { () throws(FeedError) -> ArraySlice<UInt8>? in
            defer { given = true }
            return given ? nil : bytes[...]
        }
    }

    /// The next line's bytes without its line end, or nil at the end of the input.
    private mutating func nextLine() throws(FeedError) -> [UInt8]? {
        var searched = start
        while true {
            if let newline = buffer[searched...].firstIndex(of: 0x0A) {
                var text = Array(buffer[start..<newline])
                start = newline + 1
                if text.last == 0x0D { text.removeLast() }
                return text
            }
            searched = buffer.count
            guard buffer.count - start <= JSONLinesReader.maximumLine else {
                throw FeedError(line: line + 1, column: nil, reason: "is longer than \(JSONLinesReader.maximumLine >> 20) MiB; a row is one line of JSON")
            }
            guard !ended, let chunk = try source() else {
                ended = true
                guard start < buffer.count else { return nil }
                defer { (buffer, start) = ([], 0) }
                let rest = Array(buffer[start...])
                return rest.last == 0x0D ? Array(rest.dropLast()) : rest
            }
            // What was read is dropped only now and then, so each byte moves about once.
            if start > 0 && start >= buffer.count / 2 {
                buffer.removeFirst(start)
                searched -= start
                start = 0
            }
            buffer.append(contentsOf: chunk)
        }
    }

    /// The next record, or nil at the end of the file.
    /// - Throws: `FeedError` with the line (and column, for JSON syntax) of the first problem.
    package mutating func next() throws(FeedError) -> JSONLinesRecord? {
        guard var text = try nextLine() else { return nil }
        line += 1
        if !started {
            started = true
            if text.starts(with: [0xEF, 0xBB, 0xBF]) { text.removeFirst(3) }
        }
        if text.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return JSONLinesRecord(line: line, values: [:], isBlank: true) }
        let parsed: Any
        do {
            parsed = try JSONText.parse(Data(text))
        } catch {
            throw FeedError(line: line, column: error.column, reason: error.reason)
        }
        guard let object = parsed as? [String: Any] else {
            throw FeedError(line: line, column: 1, reason: "expected a JSON object ({\"sku\": \"NL-104\", …}); each line of a JSON Lines feed is one row")
        }
        for key in object.keys.sorted() {
            let value = object[key]!
            guard value is String || SpecField.jsonNumberText(value) != nil else {
                throw FeedError(line: line, column: nil, reason: "\(InputText.quoted(key)): expected a string or a number")
            }
        }
        return JSONLinesRecord(line: line, values: object, isBlank: false)
    }
}
