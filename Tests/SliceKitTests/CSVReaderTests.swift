// The CSV reader against RFC 4180 and what sheet exports write: quoted fields, embedded line
// breaks and separators, CRLF, a byte-order mark, `;` and tab; and every malformation refused
// with the line and column an editor shows.

import Testing
@testable import SliceKit

@Suite struct CSVReaderTests {
    /// Every record of `text`, or the error.
    static func records(_ text: String, separator: Character = ",", chunk: Int = .max) throws(FeedError) -> [CSVRecord] {
        try records(Array(text.utf8), separator: separator, chunk: chunk)
    }

    static func records(_ bytes: [UInt8], separator: Character = ",", chunk: Int = .max) throws(FeedError) -> [CSVRecord] {
        var offset = 0
        var reader = CSVReader(separator: separator.asciiValue!) { () throws(FeedError) -> ArraySlice<UInt8>? in
            guard offset < bytes.count else { return nil }
            let end = min(bytes.count, offset + chunk)
            defer { offset = end }
            return bytes[offset..<end]
        }
        var all: [CSVRecord] = []
        while let record = try reader.next() { all.append(record) }
        return all
    }

    static func error(_ text: String, separator: Character = ",") -> FeedError? {
        do { _ = try records(text, separator: separator); return nil } catch { return error }
    }

    @Test func quotedFieldsHoldSeparatorsQuotesAndLineBreaks() throws {
        let text = "sku,name,price\r\nNL-101,\"Mug, large\",\"12,50 €\"\r\nNL-102,\"The \"\"Big\"\" one\r\nin blue\",9\r\n"
        let all = try Self.records(text)
        #expect(all.map(\.fields) == [["sku", "name", "price"], ["NL-101", "Mug, large", "12,50 €"],
                                      ["NL-102", "The \"Big\" one\r\nin blue", "9"]])
        // The third record starts on line 3; its quoted line break moves the lines after it.
        #expect(all[2].line == 3 && all[2].starts[2].line == 4 && all[2].starts[2].column == 10)
    }

    @Test func sameRecordsWhateverTheChunks() throws {
        let text = "\u{FEFF}a,b\r\n\"x\r\ny\",\"é\"\r\nz,ü€😀\n"
        let whole = try Self.records(text)
        for chunk in [1, 2, 3, 5] {
            #expect(try Self.records(text, chunk: chunk) == whole, "chunks of \(chunk)")
        }
        #expect(whole.map(\.fields) == [["a", "b"], ["x\r\ny", "é"], ["z", "ü€😀"]])
    }

    @Test func aByteOrderMarkAndCRLFAreTolerated() throws {
        let all = try Self.records("\u{FEFF}sku,price\r\nA,1\r\n")
        #expect(all.map(\.fields) == [["sku", "price"], ["A", "1"]])
        #expect(all[0].starts[0].column == 1)
    }

    @Test func semicolonsAndTabsBySeparator() throws {
        #expect(try Self.records("sku;price\nA;\"1,5\"\n", separator: ";").map(\.fields) == [["sku", "price"], ["A", "1,5"]])
        #expect(try Self.records("sku\tprice\nA\t1,5\n", separator: "\t").map(\.fields) == [["sku", "price"], ["A", "1,5"]])
    }

    @Test func emptyFieldsAndALastLineWithoutABreak() throws {
        #expect(try Self.records("a,b,c\n,,\n\"\",x,\ny,,z").map(\.fields) == [["a", "b", "c"], ["", "", ""], ["", "x", ""], ["y", "", "z"]])
    }

    @Test func blankLinesAreMarked() throws {
        let all = try Self.records("a\n\nb\n")
        #expect(all.map(\.isBlank) == [false, true, false])
        #expect(all[1].line == 2)
    }

    @Test("a line that is CRLF alone is blank, as LF alone is: a sheet's export ends in one")
    func crlfBlankLines() throws {
        for chunk in [1, 2, .max] {
            let crlf = try Self.records("sku,name\r\nA,x\r\n\r\n", chunk: chunk)
            let lf = try Self.records("sku,name\nA,x\n\n", chunk: chunk)
            #expect(crlf.map(\.fields) == lf.map(\.fields) && crlf.map(\.isBlank) == [false, false, true], "chunks of \(chunk)")
            #expect(crlf[2].line == 3 && crlf[2].starts[0].column == 1)
        }
        // A carriage return alone is still no line end.
        #expect(Self.error("a\n\rb\n")?.reason.contains("a carriage return without a line feed") == true)
        #expect(Self.error("a\n\r")?.reason.contains("a carriage return without a line feed") == true)
    }

    @Test("a row past the limit is refused at its line as soon as the limit is read, whatever follows")
    func aGiantCellIsRefusedAsItIsRead() throws {
        // An endless cell: the reader must stop on its own, having read about the limit.
        var served = 0
        let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 16)
        var reader = CSVReader { () throws(FeedError) -> ArraySlice<UInt8>? in
            if served == 0 { served += 12; return Array("sku,name\nA,".utf8)[...] }
            guard served < 64 << 20 else { return nil }
            served += chunk.count
            return chunk[...]
        }
        #expect(try reader.next()?.fields == ["sku", "name"])
        do {
            _ = try reader.next()
            Issue.record("a \(served)-byte row was accepted")
        } catch {
            #expect(error.line == 2 && error.reason.contains("longer than 1 MiB"), "\(error)")
        }
        #expect(served <= CSVReader.maximumRow + 2 * chunk.count, "read \(served) bytes")
        // A row just within it is read.
        let long = String(repeating: "y", count: CSVReader.maximumRow - 10)
        #expect(try Self.records("a,b\n1,\(long)\n")[1].fields[1].utf8.count == long.utf8.count)
    }

    @Test("every malformation is refused at its line and column", arguments: [
        ("a,b\nx\"y,z\n", 2, 2, "a quote inside a field that does not start with one"),
        ("a,b\n\"x\"y,z\n", 2, 4, "'y' after the closing quote"),
        ("a,b\n\"never closed,z\n", 2, 1, "never closes"),
        ("a,b\rc,d\n", 1, 4, "a carriage return without a line feed"),
        ("a,b\nx,y\r", 2, 4, "a carriage return without a line feed"),
    ])
    func malformations(_ text: String, line: Int, column: Int, reason: String) throws {
        let error = try #require(Self.error(text), "\(text.debugDescription) was accepted")
        #expect(error.line == line && error.column == column, "\(error)")
        #expect(error.reason.contains(reason), "\(error)")
    }

    @Test("bytes that are not UTF-8 are refused where they are: Latin-1, overlongs, surrogates, truncation")
    func notUTF8() throws {
        let cases: [([UInt8], Int, Int)] = [
            (Array("sku,name\nA,Caf".utf8) + [0xE9] + Array("\n".utf8), 2, 6),        // Latin-1 é
            (Array("a\n".utf8) + [0xC0, 0xAF] + Array("\n".utf8), 2, 1),             // overlong /
            (Array("a\n".utf8) + [0xED, 0xA0, 0x80], 2, 1),                          // a surrogate
            (Array("a\nx".utf8) + [0xE2, 0x82], 2, 2),                               // cut short at the end
            (Array("a\nx".utf8) + [0xE2, 0x82] + Array(",y\n".utf8), 2, 2),          // cut short by a separator
            (Array("a\n".utf8) + [0xF5, 0x80, 0x80, 0x80], 2, 1),                    // past U+10FFFF
        ]
        for (bytes, line, column) in cases {
            do {
                _ = try Self.records(bytes)
                Issue.record("\(bytes) was accepted")
            } catch {
                #expect(error.line == line && error.column == column && error.reason.contains("UTF-8"), "\(bytes): \(error)")
            }
        }
    }

    @Test func tooManyFieldsInOneRecordIsRefused() {
        let error = Self.error(String(repeating: ",", count: CSVReader.maximumFields + 5))
        #expect(error?.reason.contains("more than \(CSVReader.maximumFields) fields") == true, "\(String(describing: error))")
    }

    @Test func errorsReadAsLineColonColumn() {
        #expect(FeedError(line: 7, column: 3, reason: "x").description == "7:3: x")
        #expect(FeedError(line: 7, column: nil, reason: "x").description == "7: x")
        #expect(FeedError("x").description == "x")
    }
}
