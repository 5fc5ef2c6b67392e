// Presets and manifests are read as strict JSON (RFC 8259): what Foundation on Linux lets
// through (trailing commas, a byte-order mark, UTF-16, a key given twice) is refused with the
// line and column, and everything strict JSON allows reads as Foundation reads it.

import Foundation
import SliceKit
import Testing

@Suite("JSONText")
struct JSONTextTests {
    /// The error for `text`, or nil when it is accepted.
    static func problem(_ text: String) -> JSONText.SyntaxError? {
        problem(Data(text.utf8))
    }

    static func problem(_ data: Data) -> JSONText.SyntaxError? {
        do {
            _ = try JSONText.parse(data)
            return nil
        } catch {
            return error
        }
    }

    @Test("a key twice in one object is found, with the line and column of the second")
    func duplicateKeys() throws {
        let text = "{\n  \"crf\": 20,\n  \"fps\": 30,\n  \"crf\": 30\n}"
        #expect(Self.problem(text) == JSONText.SyntaxError(line: 4, column: 3, reason: "\"crf\" is given twice in one object; give each key once"))
        // Deep in a nested object, after arrays of objects.
        let nested = #"{"jobs": [{"id": "a", "outputs": ["x.mp4"]}, {"id": "b", "hold": 1, "id": "c"}]}"#
        #expect(Self.problem(nested)?.reason.hasPrefix("\"id\" is given twice") == true)
        // An escape spells the same key; so does a surrogate pair.
        #expect(Self.problem(#"{"crf": 1, "cr\u0066": 2}"#)?.reason.hasPrefix("\"crf\" is given twice") == true)
        #expect(Self.problem(#"{"😀": 1, "\ud83d\ude00": 2}"#)?.reason.hasPrefix("\"😀\" is given twice") == true)
    }

    @Test("the same key in different objects, keys as values, and braces in strings are fine")
    func notDuplicates() {
        #expect(Self.problem(#"{"jobs": [{"id": "a"}, {"id": "b"}], "defaults": {"id": "x"}}"#) == nil)
        #expect(Self.problem(#"{"a": "a", "b": ["a", "b"], "c": {"a": {"a": 1}}}"#) == nil)
        #expect(Self.problem(#"{"text": "{\"a\": 1, \"a\": 2}", "a": "\\", "b": "]},"}"#) == nil)
        #expect(Self.problem(#"[{"a": 1}, {"a": 2}, [], {}]"#) == nil)
    }

    @Test("what strict JSON allows reads as Foundation reads it")
    func accepted() throws {
        let text = #" {"a": [1, -0.5, 2e3, 1E-2, 0, true, false, null], "b": "\" \\ \/ \b \f \n \r \t \u00e9 \ud83d\ude00", "c": {}} "#
        #expect(Self.problem(text) == nil)
        let value = try #require(try JSONText.parse(Data(text.utf8)) as? [String: Any])
        #expect(value["b"] as? String == "\" \\ / \u{8} \u{C} \n \r \t é 😀")
        #expect((value["a"] as? [Any])?.count == 8)
        // A value on its own is JSON too; the callers decide they want an object.
        #expect(try JSONText.parse(Data("\"x\"".utf8)) as? String == "x")
        // Non-ASCII text in strings is fine in UTF-8.
        #expect(Self.problem(#"{"description": "Été — 夏"}"#) == nil)
    }

    @Test("trailing commas are refused at the comma", arguments: [
        ("{\n  \"a\": 1,\n  \"b\": 2,\n}", 3, 9, "trailing comma before '}'; JSON allows none"),
        ("[1, 2,]", 1, 6, "trailing comma before ']'; JSON allows none"),
        ("{\"a\": [1,\n  ]}", 1, 9, "trailing comma before ']'; JSON allows none"),
    ])
    func trailingComma(text: String, line: Int, column: Int, reason: String) {
        #expect(Self.problem(text) == JSONText.SyntaxError(line: line, column: column, reason: reason))
    }

    @Test("anything but UTF-8 without a byte-order mark is refused")
    func encodings() throws {
        let object = "{\"fps\": 30}"
        let bom = try #require(Self.problem(Data([0xEF, 0xBB, 0xBF]) + Data(object.utf8)))
        #expect(bom.line == 1 && bom.column == 1 && bom.reason.contains("byte-order mark"))
        for encoding: String.Encoding in [.utf16, .utf16LittleEndian, .utf16BigEndian, .utf32, .utf32LittleEndian, .utf32BigEndian] {
            let data = try #require(object.data(using: encoding))
            let problem = try #require(Self.problem(data), "\(encoding) was accepted")
            #expect(problem.reason.contains("UTF-16 or UTF-32") && problem.reason.contains("must be UTF-8"), "\(encoding): \(problem)")
        }
        // Latin-1 é, a lone continuation byte, an overlong '/', an encoded surrogate.
        for bad: [UInt8] in [[0xE9], [0x80], [0xC0, 0xAF], [0xED, 0xA0, 0x80]] {
            let data = Data("{\"a\": \"x".utf8) + Data(bad) + Data("\"}".utf8)
            let problem = try #require(Self.problem(data))
            #expect(problem.column == 9 && problem.reason.contains("is not UTF-8"), "\(bad): \(problem)")
        }
    }

    @Test("what JSON does not spell is refused with the reason", arguments: [
        ("{\"a\": 1 // note\n}", "expected ',' or '}' after a value in an object, found '/'"),
        ("// note\n{}", "comments are not JSON; remove it"),
        ("{/* note */}", "comments are not JSON; remove it"),
        ("{'a': 1}", "strings take double quotes in JSON, not single quotes"),
        ("{a: 1}", "expected a key in double quotes, found 'a'"),
        ("[NaN]", "NaN and Infinity are not JSON numbers"),
        ("[Infinity]", "NaN and Infinity are not JSON numbers"),
        ("[-Infinity]", "NaN and Infinity are not JSON numbers"),
        ("[+1]", "numbers take no plus sign in JSON"),
        ("[.5]", "a number needs a digit before its point in JSON (0.5, not .5)"),
        ("[01]", "numbers have no leading zeros in JSON"),
        ("[0x1E]", "hexadecimal numbers are not JSON; write it in decimal"),
        ("[1.]", "expected a digit after the decimal point"),
        ("[1e]", "expected a digit in the exponent"),
        ("[1e400]", "the number 1e400 is too large for a double"),
        ("[1e-400]", "the number 1e-400 is too small for a double"),
        ("[\"a\nb\"]", "control character U+000A in a string; write it as \\n"),
        ("[\"a\u{1B}b\"]", "control character U+001B in a string; write it as \\u001B"),
        (#"["\x"]"#, "\\x is not a JSON escape; use \\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX"),
        (#"["\ud800"]"#, "\\uD800 is half of a surrogate pair, alone"),
        (#"["\udc00x"]"#, "\\uDC00 is half of a surrogate pair, alone"),
        (#"["\u12"]"#, "\\u takes four hexadecimal digits"),
        ("[tru]", "unexpected 't'; expected a value (an object, array, string, number, true, false or null)"),
        ("{\"a\" 1}", "expected ':' after the key \"a\", found '1'"),
        ("{\"a\": 1} {}", "unexpected '{' after the JSON value; a file holds one value"),
        ("{\"a\": \"x", "the file ends inside a string; a closing '\"' is missing"),
        ("{\"a\": [1, 2", "expected ',' or ']' after a value in an array, found the end of the file"),
        ("", "holds no JSON value"),
        ("  \n ", "holds no JSON value"),
    ])
    func refused(text: String, reason: String) {
        #expect(Self.problem(text)?.reason == reason, "\(text.debugDescription)")
    }

    @Test("line and column count lines and characters, not bytes")
    func position() {
        // "ü" is two bytes; the column counts it once.
        let problem = Self.problem("{\n  \"é\": 1,\n  \"ü\": [1,]\n}")
        #expect(problem == JSONText.SyntaxError(line: 3, column: 10, reason: "trailing comma before ']'; JSON allows none"))
        #expect(problem?.description == "line 3, column 10: trailing comma before ']'; JSON allows none")
    }

    @Test("nesting is bounded, so no document can exhaust the stack")
    func depth() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(Self.problem(deep)?.reason == "nested more than \(JSONText.maximumDepth) levels deep")
        let fine = String(repeating: "[", count: JSONText.maximumDepth) + String(repeating: "]", count: JSONText.maximumDepth)
        #expect(Self.problem(fine) == nil)
    }

    @Test("JSON lines keep no character a terminal acts on, and mean the same")
    func invisibles() throws {
        let text = "a\u{7F}b\u{9B}c\u{2028}d\u{202E}e"
        let json = String(decoding: try JSONSerialization.data(withJSONObject: [text]), as: UTF8.self)
        let escaped = JSONText.escapingInvisibles(json)
        #expect(escaped == #"["a\u007fb\u009bc\u2028d\u202ee"]"#)
        #expect(try JSONText.parse(Data(escaped.utf8)) as? [String] == [text])
    }
}
