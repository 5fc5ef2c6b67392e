// Keys given twice in one JSON object are found (where the parser would silently keep the
// last), and only those: the same key in different objects, or inside strings, is fine.

import Foundation
import SliceKit
import Testing

@Suite("JSONText")
struct JSONTextTests {
    static func duplicate(_ text: String) -> JSONText.DuplicateKey? {
        let data = Data(text.utf8)
        // Every case is valid JSON, which is what the scan is promised.
        #expect((try? JSONSerialization.jsonObject(with: data)) != nil, "not valid JSON: \(text)")
        return JSONText.firstDuplicateKey(in: data)
    }

    @Test("a key twice in one object is found, with the line and column of the second")
    func found() {
        let text = "{\n  \"crf\": 20,\n  \"fps\": 30,\n  \"crf\": 30\n}"
        #expect(Self.duplicate(text) == JSONText.DuplicateKey(key: "crf", line: 4, column: 3))
        // Deep in a nested object, after arrays of objects.
        let nested = #"{"jobs": [{"id": "a", "outputs": ["x.mp4"]}, {"id": "b", "hold": 1, "id": "c"}]}"#
        #expect(Self.duplicate(nested)?.key == "id")
        // An escape spells the same key.
        #expect(Self.duplicate(#"{"crf": 1, "cr\u0066": 2}"#)?.key == "crf")
    }

    @Test("the same key in different objects, keys as values, and braces in strings are fine")
    func notFound() {
        #expect(Self.duplicate(#"{"jobs": [{"id": "a"}, {"id": "b"}], "defaults": {"id": "x"}}"#) == nil)
        #expect(Self.duplicate(#"{"a": "a", "b": ["a", "b"], "c": {"a": {"a": 1}}}"#) == nil)
        #expect(Self.duplicate(#"{"text": "{\"a\": 1, \"a\": 2}", "a": "\\", "b": "]},"}"#) == nil)
        #expect(Self.duplicate(#"[{"a": 1}, {"a": 2}, [], {}]"#) == nil)
    }

    @Test("parse errors point at a line and column")
    func lineAndColumn() {
        let data = Data("{\n  \"a\": 1,\n  oops\n}".utf8)
        #expect(JSONText.withLineAndColumn("Invalid value around character 14.", in: data) == "Invalid value around line 3, column 3.")
        #expect(JSONText.withLineAndColumn("no position here", in: data) == "no position here")
    }
}
