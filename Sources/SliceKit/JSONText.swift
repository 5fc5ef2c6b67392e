// What Foundation's JSON parser lets through silently: a key given twice in one object keeps
// its last value, so a preset or manifest with `"crf": 20 … "crf": 30` would quietly use 30.
// slicevid reads hand-written files, so it refuses them, and says where, as an editor would.

import Foundation

/// Checks on the text of a JSON document that the parser does not make.
public enum JSONText {
    /// A key given more than once in the same object.
    public struct DuplicateKey: Sendable, Equatable {
        public let key: String
        /// Where its second appearance starts, counted from 1.
        public let line: Int
        public let column: Int

        public init(key: String, line: Int, column: Int) {
            self.key = key
            self.line = line
            self.column = column
        }
    }

    /// The first key that appears twice in one object of `data`, or nil when there is none.
    /// - Precondition: `data` is valid JSON (it has been parsed already); on anything else
    ///   the answer is meaningless but the scan still ends.
    public static func firstDuplicateKey(in data: Data) -> DuplicateKey? {
        let bytes = [UInt8](data)
        // One entry per open container: the keys seen so far for an object, nil for an array.
        var containers: [Set<String>?] = []
        var expectingKey = false
        var i = 0
        while i < bytes.count {
            switch bytes[i] {
            case UInt8(ascii: "{"):
                containers.append([])
                expectingKey = true
            case UInt8(ascii: "["):
                containers.append(nil)
                expectingKey = false
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                _ = containers.popLast()
                expectingKey = false
            case UInt8(ascii: ","):
                expectingKey = containers.last.map { $0 != nil } ?? false
            case UInt8(ascii: "\""):
                let start = i
                i += 1
                while i < bytes.count && bytes[i] != UInt8(ascii: "\"") {
                    i += bytes[i] == UInt8(ascii: "\\") ? 2 : 1
                }
                if expectingKey, let last = containers.indices.last, containers[last] != nil {
                    let key = decodeString(bytes[start...min(i, bytes.count - 1)])
                    if containers[last]!.contains(key) {
                        return DuplicateKey(key: key, line: line(of: start, in: bytes), column: column(of: start, in: bytes))
                    }
                    containers[last]!.insert(key)
                    expectingKey = false
                }
            default:
                break
            }
            i += 1
        }
        return nil
    }

    /// Foundation's parse error says "around character 23"; an editor wants a line and a
    /// column: `reason` with the one put in place of the other.
    public static func withLineAndColumn(_ reason: String, in data: Data) -> String {
        guard let range = reason.range(of: #"character \d+"#, options: .regularExpression),
              let offset = Int(reason[range].dropFirst("character ".count)), offset <= data.count else { return reason }
        let bytes = [UInt8](data)
        return reason.replacingCharacters(in: range, with: "line \(line(of: offset, in: bytes)), column \(column(of: offset, in: bytes))")
    }

    private static func line(of offset: Int, in bytes: [UInt8]) -> Int {
        bytes[..<min(offset, bytes.count)].filter { $0 == UInt8(ascii: "\n") }.count + 1
    }

    private static func column(of offset: Int, in bytes: [UInt8]) -> Int {
        let end = min(offset, bytes.count)
        return end - (bytes[..<end].lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0) + 1
    }

    /// A string literal (quotes included) as the parser reads it: escapes like `\u0066` are
    /// the same key as `f`.
    private static func decodeString(_ literal: ArraySlice<UInt8>) -> String {
        if !literal.contains(UInt8(ascii: "\\")) {
            return String(decoding: literal.dropFirst().dropLast(), as: UTF8.self)
        }
        let wrapped = Data([UInt8(ascii: "[")] + literal + [UInt8(ascii: "]")])
        let decoded = (try? JSONSerialization.jsonObject(with: wrapped)) as? [String]
        return decoded?.first ?? String(decoding: literal, as: UTF8.self)
    }
}
