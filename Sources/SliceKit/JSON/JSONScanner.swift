// The grammar and encoding check behind `JSONText.parse`: one pass over the bytes that either
// accepts an RFC 8259 document or names the first thing wrong with it, and where.

/// Checks that bytes are one strict JSON value. Values themselves are left to Foundation.
struct JSONScanner {
    private let bytes: [UInt8]
    private var i = 0

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// - Throws: `JSONText.SyntaxError` for the first problem.
    mutating func check() throws(JSONText.SyntaxError) {
        try checkEncoding()
        skipWhitespace()
        guard i < bytes.count else { throw fail("holds no JSON value") }
        try value(depth: 0)
        skipWhitespace()
        guard i == bytes.count else { throw fail("unexpected \(describe(at: i)) after the JSON value; a file holds one value") }
    }

    // MARK: Encoding

    /// UTF-8 without a byte-order mark is the only encoding RFC 8259 allows between systems.
    private func checkEncoding() throws(JSONText.SyntaxError) {
        let start = bytes.prefix(4)
        if start.starts(with: [0xEF, 0xBB, 0xBF]) {
            throw fail("starts with a byte-order mark; JSON is UTF-8 without one (save the file as plain UTF-8)", at: 0)
        }
        if start.starts(with: [0xFE, 0xFF]) || start.starts(with: [0xFF, 0xFE]) || start.starts(with: [0, 0, 0xFE, 0xFF]) {
            throw fail("is UTF-16 or UTF-32 (it starts with a byte-order mark); JSON files must be UTF-8", at: 0)
        }
        if start.contains(0) {
            throw fail("looks like UTF-16 or UTF-32 (it has zero bytes); JSON files must be UTF-8", at: 0)
        }
        var index = 0
        while index < bytes.count {
            let length = JSONScanner.utf8Length(bytes, at: index)
            guard length > 0 else {
                throw fail("byte 0x\(String(bytes[index], radix: 16, uppercase: true)) is not UTF-8; JSON files must be UTF-8", at: index)
            }
            index += length
        }
    }

    /// The length of the well-formed UTF-8 sequence at `index`, or 0 (overlong forms,
    /// surrogates and values past U+10FFFF are not well formed; Unicode table 3-7).
    private static func utf8Length(_ bytes: [UInt8], at index: Int) -> Int {
        let lead = bytes[index]
        if lead < 0x80 { return 1 }
        let (length, second): (Int, ClosedRange<UInt8>)
        switch lead {
        case 0xC2...0xDF: (length, second) = (2, 0x80...0xBF)
        case 0xE0: (length, second) = (3, 0xA0...0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: (length, second) = (3, 0x80...0xBF)
        case 0xED: (length, second) = (3, 0x80...0x9F)
        case 0xF0: (length, second) = (4, 0x90...0xBF)
        case 0xF1...0xF3: (length, second) = (4, 0x80...0xBF)
        case 0xF4: (length, second) = (4, 0x80...0x8F)
        default: return 0
        }
        guard index + length <= bytes.count, second.contains(bytes[index + 1]) else { return 0 }
        for k in 2..<length where !(0x80...0xBF).contains(bytes[index + k]) { return 0 }
        return length
    }

    // MARK: Values

    private mutating func value(depth: Int) throws(JSONText.SyntaxError) {
        guard i < bytes.count else { throw fail("the file ends where a value should be") }
        switch bytes[i] {
        case UInt8(ascii: "{"): try object(depth: depth + 1)
        case UInt8(ascii: "["): try array(depth: depth + 1)
        case UInt8(ascii: "\""): _ = try string()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        default: throw fail(unexpectedValue())
        }
    }

    private mutating func object(depth: Int) throws(JSONText.SyntaxError) {
        guard depth <= JSONText.maximumDepth else { throw fail("nested more than \(JSONText.maximumDepth) levels deep") }
        i += 1
        var keys = Set<String>()
        skipWhitespace()
        if peek("}") { i += 1; return }
        while true {
            guard i < bytes.count else { throw fail("the file ends inside an object; expected a key or '}'") }
            guard peek("\"") else {
                throw fail(bytes[i] == UInt8(ascii: "'") || bytes[i] == UInt8(ascii: "/") ? unexpectedValue() : "expected a key in double quotes, found \(describe(at: i))")
            }
            let keyStart = i
            let key = try string()
            guard keys.insert(key).inserted else {
                throw fail("\"\(InputText.excerpt(key))\" is given twice in one object; give each key once", at: keyStart)
            }
            skipWhitespace()
            guard peek(":") else { throw fail("expected ':' after the key \"\(InputText.excerpt(key))\", found \(describe(at: i))") }
            i += 1
            skipWhitespace()
            try value(depth: depth)
            skipWhitespace()
            if peek("}") { i += 1; return }
            guard peek(",") else { throw fail("expected ',' or '}' after a value in an object, found \(describe(at: i))") }
            try comma(closing: "}")
        }
    }

    private mutating func array(depth: Int) throws(JSONText.SyntaxError) {
        guard depth <= JSONText.maximumDepth else { throw fail("nested more than \(JSONText.maximumDepth) levels deep") }
        i += 1
        skipWhitespace()
        if peek("]") { i += 1; return }
        while true {
            try value(depth: depth)
            skipWhitespace()
            if peek("]") { i += 1; return }
            guard peek(",") else { throw fail("expected ',' or ']' after a value in an array, found \(describe(at: i))") }
            try comma(closing: "]")
        }
    }

    /// Steps over a comma, refusing one that is followed by the end of its container.
    private mutating func comma(closing: Unicode.Scalar) throws(JSONText.SyntaxError) {
        let at = i
        i += 1
        skipWhitespace()
        if peek(closing) { throw fail("trailing comma before '\(closing)'; JSON allows none", at: at) }
    }

    /// A string literal; returns its value (escapes decoded) so keys can be compared.
    private mutating func string() throws(JSONText.SyntaxError) -> String {
        i += 1
        var decoded: [UInt8] = []
        while true {
            guard i < bytes.count else { throw fail("the file ends inside a string; a closing '\"' is missing") }
            let byte = bytes[i]
            switch byte {
            case UInt8(ascii: "\""):
                i += 1
                return String(decoding: decoded, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try escape(into: &decoded)
            case 0..<0x20:
                let name = [0x0A: "\\n", 0x0D: "\\r", 0x09: "\\t"][Int(byte)] ?? "\\u00" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16, uppercase: true)
                throw fail("control character U+00\(byte < 0x10 ? "0" : "")\(String(byte, radix: 16, uppercase: true)) in a string; write it as \(name)")
            default:
                // A run of ordinary bytes is copied at once: strings can be megabytes long.
                let start = i
                while i < bytes.count, bytes[i] >= 0x20, bytes[i] != UInt8(ascii: "\""), bytes[i] != UInt8(ascii: "\\") { i += 1 }
                decoded.append(contentsOf: bytes[start..<i])
            }
        }
    }

    /// One escape sequence at `i` (the backslash), appended to `decoded` as UTF-8.
    private mutating func escape(into decoded: inout [UInt8]) throws(JSONText.SyntaxError) {
        guard i + 1 < bytes.count else { throw fail("the file ends inside a string; a closing '\"' is missing") }
        let simple: [UInt8: UInt8] = [UInt8(ascii: "\""): 0x22, UInt8(ascii: "\\"): 0x5C, UInt8(ascii: "/"): 0x2F,
                                      UInt8(ascii: "b"): 0x08, UInt8(ascii: "f"): 0x0C, UInt8(ascii: "n"): 0x0A,
                                      UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09]
        if let byte = simple[bytes[i + 1]] {
            decoded.append(byte)
            i += 2
            return
        }
        guard bytes[i + 1] == UInt8(ascii: "u") else {
            throw fail("\\\(describe(at: i + 1, quoted: false)) is not a JSON escape; use \\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX")
        }
        let start = i
        var value = try hexUnit()
        if (0xDC00...0xDFFF).contains(value) { throw fail("\\u\(hex(value)) is half of a surrogate pair, alone", at: start) }
        if (0xD800...0xDBFF).contains(value) {
            guard i + 1 < bytes.count, peek("\\"), bytes[i + 1] == UInt8(ascii: "u") else {
                throw fail("\\u\(hex(value)) is half of a surrogate pair, alone", at: start)
            }
            let low = try hexUnit()
            guard (0xDC00...0xDFFF).contains(low) else { throw fail("\\u\(hex(value)) is half of a surrogate pair, alone", at: start) }
            value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
        }
        decoded.append(contentsOf: Array(String(Character(Unicode.Scalar(value)!)).utf8))
    }

    /// `\uXXXX` at `i`: its code unit.
    private mutating func hexUnit() throws(JSONText.SyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for k in 2..<6 {
            guard i + k < bytes.count, let digit = UInt32(String(UnicodeScalar(bytes[i + k])), radix: 16) else {
                throw fail("\\u takes four hexadecimal digits")
            }
            value = value << 4 | digit
        }
        i += 6
        return value
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, and finite as a double.
    private mutating func number() throws(JSONText.SyntaxError) {
        let start = i
        if peek("-") { i += 1 }
        guard i < bytes.count, isDigit(bytes[i]) else {
            throw fail(i < bytes.count && bytes[i] == UInt8(ascii: "I") ? "NaN and Infinity are not JSON numbers" : "expected a digit after '-'")
        }
        if peek("0"), i + 1 < bytes.count {
            if isDigit(bytes[i + 1]) { throw fail("numbers have no leading zeros in JSON", at: start) }
            if bytes[i + 1] == UInt8(ascii: "x") || bytes[i + 1] == UInt8(ascii: "X") {
                throw fail("hexadecimal numbers are not JSON; write it in decimal", at: start)
            }
        }
        skipDigits()
        if peek(".") {
            i += 1
            guard i < bytes.count, isDigit(bytes[i]) else { throw fail("expected a digit after the decimal point") }
            skipDigits()
        }
        if peek("e") || peek("E") {
            i += 1
            if peek("+") || peek("-") { i += 1 }
            guard i < bytes.count, isDigit(bytes[i]) else { throw fail("expected a digit in the exponent") }
            skipDigits()
        }
        let text = String(decoding: bytes[start..<i], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw fail("the number \(InputText.excerpt(text)) is too large for a double", at: start)
        }
        // Foundation refuses what underflows to zero; say so here, with a position.
        let mantissa = bytes[start..<i].prefix { $0 != UInt8(ascii: "e") && $0 != UInt8(ascii: "E") }
        if value == 0, mantissa.contains(where: { (UInt8(ascii: "1")...UInt8(ascii: "9")).contains($0) }) {
            throw fail("the number \(InputText.excerpt(text)) is too small for a double", at: start)
        }
    }

    private mutating func literal(_ word: String) throws(JSONText.SyntaxError) {
        guard bytes[i...].starts(with: word.utf8) else { throw fail(unexpectedValue()) }
        i += word.utf8.count
    }

    // MARK: Helpers

    /// Why the text at `i` cannot start a value, naming the usual non-JSON habits.
    private func unexpectedValue() -> String {
        switch bytes[i] {
        case UInt8(ascii: "/"): "comments are not JSON; remove it"
        case UInt8(ascii: "'"): "strings take double quotes in JSON, not single quotes"
        case UInt8(ascii: "+"): "numbers take no plus sign in JSON"
        case UInt8(ascii: "."): "a number needs a digit before its point in JSON (0.5, not .5)"
        case UInt8(ascii: "N"), UInt8(ascii: "I"): "NaN and Infinity are not JSON numbers"
        default: "unexpected \(describe(at: i)); expected a value (an object, array, string, number, true, false or null)"
        }
    }

    /// The character at `index` for a message: `'x'`, or `U+0001` for a control character.
    private func describe(at index: Int, quoted: Bool = true) -> String {
        guard index < bytes.count else { return "the end of the file" }
        let length = max(1, JSONScanner.utf8Length(bytes, at: index))
        let character = String(decoding: bytes[index..<min(index + length, bytes.count)], as: UTF8.self)
        if let scalar = character.unicodeScalars.first, InputText.needsEscape(scalar) || scalar == " " {
            return "U+" + hex(scalar.value)
        }
        return quoted ? "'\(character)'" : character
    }

    private func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    private func peek(_ scalar: Unicode.Scalar) -> Bool { i < bytes.count && bytes[i] == UInt8(scalar.value) }

    private func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    private mutating func skipDigits() { while i < bytes.count, isDigit(bytes[i]) { i += 1 } }

    /// JSON's whitespace: space, tab, line feed, carriage return, nothing else.
    private mutating func skipWhitespace() {
        while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 }
    }

    /// An error at byte `index` (the current position by default), as a line and column.
    private func fail(_ reason: String, at index: Int? = nil) -> JSONText.SyntaxError {
        let offset = min(index ?? i, bytes.count)
        var line = 1, lineStart = 0
        for (k, byte) in bytes[..<offset].enumerated() where byte == 0x0A {
            line += 1
            lineStart = k + 1
        }
        // Columns count characters: every byte but UTF-8 continuation bytes starts one.
        let column = bytes[lineStart..<offset].filter { $0 & 0xC0 != 0x80 }.count + 1
        return JSONText.SyntaxError(line: line, column: column, reason: reason)
    }
}
