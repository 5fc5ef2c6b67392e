// The JSON Lines reader: one strict JSON object per line, strings and numbers only, errors at
// the file's line (and the column within it).

import Foundation
import Testing
@testable import SliceKit

@Suite struct JSONLinesReaderTests {
    static func records(_ text: String) throws(FeedError) -> [JSONLinesRecord] {
        var reader = JSONLinesReader(bytes: Array(text.utf8))
        var all: [JSONLinesRecord] = []
        while let record = try reader.next() { all.append(record) }
        return all
    }

    @Test func objectsPerLineWithCRLFAndABOM() throws {
        let all = try Self.records("\u{FEFF}{\"sku\": \"A\", \"price\": 12.5}\r\n{\"sku\": \"B\", \"price\": \"9\"}\n")
        #expect(all.count == 2)
        #expect(all[0].values["sku"] as? String == "A" && (all[0].values["price"] as? NSNumber)?.doubleValue == 12.5)
        #expect(all[1].line == 2 && all[1].values["price"] as? String == "9")
    }

    @Test func aLastLineWithoutABreakAndBlankLines() throws {
        let all = try Self.records("{\"a\": 1}\n\n{\"a\": 2}")
        #expect(all.map(\.isBlank) == [false, true, false])
        #expect(all[2].line == 3)
    }

    @Test("malformed lines are refused at their line", arguments: [
        ("{\"a\": 1}\n{\"a\": 1,}\n", 2, 8, "trailing comma"),
        ("{\"a\": 1}\n[1, 2]\n", 2, 1, "expected a JSON object"),
        ("{\"a\": true}\n", 1, nil, "expected a string or a number"),
        ("{\"a\": {\"b\": 1}}\n", 1, nil, "expected a string or a number"),
        ("{\"a\": 1, \"a\": 2}\n", 1, 10, "given twice"),
    ] as [(String, Int, Int?, String)])
    func malformations(_ text: String, line: Int, column: Int?, reason: String) throws {
        do {
            _ = try Self.records(text)
            Issue.record("\(text.debugDescription) was accepted")
        } catch {
            #expect(error.line == line && error.reason.contains(reason), "\(error)")
            if let column { #expect(error.column == column, "\(error)") }
        }
    }

    @Test func latin1IsRefusedWithItsLine() {
        var reader = JSONLinesReader(bytes: Array("{\"a\": \"x\"}\n{\"a\": \"Caf".utf8) + [0xE9] + Array("\"}\n".utf8))
        do {
            while try reader.next() != nil {}
            Issue.record("Latin-1 was accepted")
        } catch {
            #expect(error.line == 2, "\(error)")
        }
    }

    @Test func aLineLongerThanTheLimitIsRefused() {
        var reader = JSONLinesReader(bytes: Array(repeating: UInt8(ascii: " "), count: JSONLinesReader.maximumLine + 10))
        do {
            while try reader.next() != nil {}
            Issue.record("an endless line was accepted")
        } catch {
            #expect(error.line == 1 && error.reason.contains("longer than"), "\(error)")
        }
    }
}
