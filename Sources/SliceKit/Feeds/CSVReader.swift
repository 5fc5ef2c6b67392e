// CSV as RFC 4180 writes it, read strictly and a record at a time over a stream of bytes: quoted
// fields (with separators, quotes doubled and line breaks inside), CRLF or LF line ends, a UTF-8
// byte-order mark tolerated at the start, `,` or (as sheet exports in many locales write) `;` or
// a tab between fields. Everything else is refused with the line and column an editor shows:
// a quote in an unquoted field, text after a closing quote, a quoted field that never closes, a
// lone carriage return, bytes that are not UTF-8 (a Latin-1 export).

/// One record of a CSV file and where it is.
package struct CSVRecord: Sendable, Equatable {
    package var fields: [String]
    /// The line each field starts on, and its column (both from 1).
    package var starts: [(line: Int, column: Int)]
    /// Where the record's line ends (the line break, or the end of the file).
    package var end: (line: Int, column: Int)
    /// A line with nothing on it (not even `""`).
    package var isBlank: Bool

    package static func == (a: CSVRecord, b: CSVRecord) -> Bool {
        a.fields == b.fields && a.starts.elementsEqual(b.starts) { $0.line == $1.line && $0.column == $1.column } && a.end == b.end && a.isBlank == b.isBlank
    }

    /// The line the record starts on.
    package var line: Int { starts.first?.line ?? end.line }
}

/// Reads CSV records one by one from chunks of bytes.
package struct CSVReader {
    /// The separators accepted: comma, semicolon, tab.
    package static let separators: [UInt8] = [UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "\t")]

    /// The most fields one record may have: a bound for a file that is one endless line of commas.
    package static let maximumFields = 1_000

    /// The most bytes one record may have, its cells together, as JSON Lines' longest line: far
    /// above any product's row, and what bounds the time and memory a giant cell can cost (it is
    /// refused as soon as this much of it is read).
    package static let maximumRow = JSONLinesReader.maximumLine

    private let separator: UInt8
    private let source: () throws(FeedError) -> ArraySlice<UInt8>?
    private var buffer: ArraySlice<UInt8> = []
    private var ended = false
    private var started = false
    private var line = 1
    private var column = 1

    /// - Parameters:
    ///   - separator: one of `separators`.
    ///   - source: the next chunk of bytes, nil at the end (`FeedInput.next`).
    package init(separator: UInt8 = UInt8(ascii: ","), source: @escaping () throws(FeedError) -> ArraySlice<UInt8>?) {
        self.separator = separator
        self.source = source
    }

    /// Reads all of `bytes` (for tests and small inputs).
    package init(separator: UInt8 = UInt8(ascii: ","), bytes: [UInt8]) {
        var given = false
        self.init(separator: separator) { () throws(FeedError) -> ArraySlice<UInt8>? in
            defer { given = true }
            return given ? nil : bytes[...]
        }
    }

    /// The next byte, or nil at the end of the input.
    private mutating func nextByte() throws(FeedError) -> UInt8? {
        while buffer.isEmpty {
            guard !ended, let chunk = try source() else { ended = true; return nil }
            buffer = chunk
        }
        return buffer.popFirst()
    }

    /// Skips a UTF-8 byte-order mark at the very start, which spreadsheet programs write.
    private mutating func skipByteOrderMark() throws(FeedError) {
        while buffer.count < 3, !ended {
            guard let chunk = try source() else { ended = true; break }
            buffer = ArraySlice(Array(buffer) + chunk)
        }
        if buffer.starts(with: [0xEF, 0xBB, 0xBF]) { buffer = buffer.dropFirst(3) }
    }

    private enum State { case fieldStart, unquoted, quoted, afterQuote, afterReturn }

    /// The next record, or nil at the end of the file.
    /// - Throws: `FeedError` with the line and column of the first problem.
    package mutating func next() throws(FeedError) -> CSVRecord? {
        if !started {
            started = true
            try skipByteOrderMark()
        }
        var fields: [String] = []
        var starts: [(line: Int, column: Int)] = []
        var field: [UInt8] = []
        var state = State.fieldStart
        var sawAnything = false
        // A line that is a line end alone (`\r\n` as well as `\n`) is blank.
        var blankReturn = false
        let firstLine = line
        var bytes = 0
        // UTF-8 being checked: continuation bytes still due, the range the next must be in,
        // and where the character began.
        var due = 0
        var low: UInt8 = 0x80, high: UInt8 = 0xBF
        var character = (line: 1, column: 1)
        var lead: UInt8 = 0

        func fail(_ reason: String, at place: (line: Int, column: Int)? = nil) -> FeedError {
            let place = place ?? (line, column)
            return FeedError(line: place.line, column: place.column, reason: reason)
        }
        func endField() throws(FeedError) {
            guard fields.count < CSVReader.maximumFields else {
                throw fail("more than \(CSVReader.maximumFields) fields in one row")
            }
            fields.append(String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
        }
        func record() -> CSVRecord {
            CSVRecord(fields: fields, starts: starts, end: (line, column), isBlank: !sawAnything)
        }

        while true {
            guard let byte = try nextByte() else {
                if due > 0 { throw notUTF8(lead, at: character) }
                switch state {
                case .quoted:
                    throw fail("the quoted field that starts here never closes; end it with \"", at: starts.last)
                case .afterReturn:
                    throw fail("a carriage return without a line feed; lines end in CRLF or LF", at: (line, column - 1))
                case .fieldStart where !sawAnything:
                    return nil
                default:
                    if state == .fieldStart { starts.append((line, column)) }
                    try endField()
                    return record()
                }
            }
            bytes += 1
            if bytes > CSVReader.maximumRow {
                throw FeedError(line: firstLine, column: nil, reason: "the row is longer than \(CSVReader.maximumRow >> 20) MiB, the most a feed's row may be (a cell this long is no product's; check the export)")
            }
            // UTF-8, strictly (RFC 3629): a Latin-1 or Windows-1252 export is refused here.
            if due > 0 {
                // The character that began at `lead` is cut short or malformed: name its first byte.
                guard byte >= low && byte <= high else { throw notUTF8(lead, at: character) }
                due -= 1
                (low, high) = (0x80, 0xBF)
                field.append(byte)
                continue
            }
            if byte >= 0x80 {
                character = (line, column)
                lead = byte
                switch byte {
                case 0xC2...0xDF: due = 1
                case 0xE0: (due, low) = (2, 0xA0)
                case 0xE1...0xEC, 0xEE, 0xEF: due = 2
                case 0xED: (due, high) = (2, 0x9F)
                case 0xF0: (due, low) = (3, 0x90)
                case 0xF1...0xF3: due = 3
                case 0xF4: (due, high) = (3, 0x8F)
                default: throw notUTF8(byte, at: character)
                }
                column += 1
                if state == .fieldStart { starts.append((line, column - 1)); state = .unquoted }
                if state == .afterReturn { throw fail("a carriage return without a line feed; lines end in CRLF or LF", at: (line, column - 2)) }
                if state == .afterQuote { throw unexpected(byte, state, at: character) }
                sawAnything = true
                field.append(byte)
                continue
            }
            let here = (line: line, column: column)
            if byte == 0x0A {
                line += 1
                column = 1
            } else {
                column += 1
            }
            switch state {
            case .fieldStart:
                sawAnything = true
                if byte == 0x0A {
                    if fields.isEmpty && starts.isEmpty {
                        // A line with nothing on it.
                        sawAnything = false
                        return CSVRecord(fields: [""], starts: [here], end: here, isBlank: true)
                    }
                    starts.append(here)
                    try endField()
                    return CSVRecord(fields: fields, starts: starts, end: here, isBlank: false)
                }
                if byte == 0x0D && fields.isEmpty && starts.isEmpty {
                    blankReturn = true
                    state = .afterReturn
                    continue
                }
                starts.append(here)
                if byte == UInt8(ascii: "\"") {
                    state = .quoted
                } else if byte == separator {
                    try endField()
                } else if byte == 0x0D {
                    state = .afterReturn
                } else {
                    field.append(byte)
                    state = .unquoted
                }
            case .unquoted:
                if byte == separator {
                    try endField()
                    state = .fieldStart
                } else if byte == 0x0A {
                    try endField()
                    return CSVRecord(fields: fields, starts: starts, end: here, isBlank: false)
                } else if byte == 0x0D {
                    state = .afterReturn
                } else if byte == UInt8(ascii: "\"") {
                    throw fail("a quote inside a field that does not start with one; quote the whole field and double the quotes in it (\"12\"\" screen\")", at: here)
                } else {
                    field.append(byte)
                }
            case .quoted:
                if byte == UInt8(ascii: "\"") { state = .afterQuote } else { field.append(byte) }
            case .afterQuote:
                if byte == UInt8(ascii: "\"") {
                    field.append(byte)
                    state = .quoted
                } else if byte == separator {
                    try endField()
                    state = .fieldStart
                } else if byte == 0x0A {
                    try endField()
                    return CSVRecord(fields: fields, starts: starts, end: here, isBlank: false)
                } else if byte == 0x0D {
                    state = .afterReturn
                } else {
                    throw unexpected(byte, state, at: here)
                }
            case .afterReturn:
                guard byte == 0x0A else { throw fail("a carriage return without a line feed; lines end in CRLF or LF", at: (here.line, here.column - 1)) }
                if blankReturn {
                    let place = (line: here.line, column: here.column - 1)
                    return CSVRecord(fields: [""], starts: [place], end: place, isBlank: true)
                }
                try endField()
                return CSVRecord(fields: fields, starts: starts, end: (here.line, here.column - 1), isBlank: false)
            }
        }
    }

    private func notUTF8(_ byte: UInt8, at place: (line: Int, column: Int)) -> FeedError {
        let hex = String(byte, radix: 16, uppercase: true)
        return FeedError(line: place.line, column: place.column,
                         reason: "byte 0x\(hex.count == 1 ? "0" + hex : hex) is not UTF-8 (a Latin-1 or Windows-1252 export?); save the feed as UTF-8")
    }

    private func unexpected(_ byte: UInt8, _ state: State, at place: (line: Int, column: Int)) -> FeedError {
        let shown = byte >= 0x20 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16, uppercase: true))"
        let separator = self.separator == 0x09 ? "a tab" : "'\(Character(Unicode.Scalar(self.separator)))'"
        return FeedError(line: place.line, column: place.column,
                         reason: "\(shown) after the closing quote of a field; expected \(separator) or the end of the line (a quote inside a quoted field is written \"\")")
    }
}
