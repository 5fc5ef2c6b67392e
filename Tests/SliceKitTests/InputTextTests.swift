// Text from input shown back to a person: values cut to 80 characters with their length, and
// every character that could start a line or drive a terminal shown as a visible escape.

import Testing
import SliceKit

@Suite("InputText")
struct InputTextTests {
    @Test("a short value is quoted whole")
    func short() {
        #expect(InputText.quoted("ease-out-bounce") == "'ease-out-bounce'")
        #expect(InputText.quoted("") == "''")
        #expect(InputText.excerpt("slice") == "slice")
        let eighty = String(repeating: "x", count: 80)
        #expect(InputText.quoted(eighty) == "'\(eighty)'")
    }

    @Test("a long value is cut to 80 characters with an ellipsis and its length")
    func long() {
        let value = "cubic-bezier(0," + String(repeating: "9", count: 10 * 1024 * 1024) + ",1,0)"
        let quoted = InputText.quoted(value)
        #expect(quoted == "'" + value.prefix(80) + "…' (\(value.unicodeScalars.count) characters)")
        #expect(InputText.excerpt(value) == value.prefix(80) + "… (\(value.unicodeScalars.count) characters)")
        // One character of endless combining marks is cut too: the count is of scalars.
        let zalgo = "a" + String(repeating: "\u{301}", count: 1000)
        #expect(InputText.quoted(zalgo).unicodeScalars.count < 120)
    }

    @Test("control characters, DEL, C1, line separators and bidi overrides become visible escapes")
    func escapes() {
        #expect(InputText.escaped("a\nb\rc\td") == #"a\nb\rc\td"#)
        #expect(InputText.escaped("\u{1B}[31mred\u{1B}[0m") == #"\u{1B}[31mred\u{1B}[0m"#)
        #expect(InputText.escaped("\u{0}\u{7F}\u{85}\u{9B}\u{2028}\u{2029}\u{202E}\u{2066}") == #"\u{0}\u{7F}\u{85}\u{9B}\u{2028}\u{2029}\u{202E}\u{2066}"#)
        // Everything else is kept as it is, accents, emoji and backslashes included.
        #expect(InputText.escaped("Été 😀 C:\\n") == "Été 😀 C:\\n")
        #expect(InputText.quoted("job\n[2/2] x: rendered") == #"'job\n[2/2] x: rendered'"#)
    }
}
