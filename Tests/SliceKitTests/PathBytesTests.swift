// Paths are bytes: a String made from a path's bytes turns back into exactly those bytes, UTF-8
// or not, and shows a byte that is not UTF-8 as \xFF in a message.

import Glibc
import SliceKit
import Testing

@Suite("PathBytes")
struct PathBytesTests {
    @Test("valid UTF-8 is itself")
    func utf8IsItself() {
        for name in ["clip.mp4", "frames/%05d.png", "café/é.png", "日本/写真.heic", "🎬.webm", ""] {
            #expect(PathBytes.text(Array(name.utf8)) == name)
            #expect(PathBytes.bytes(name) == Array(name.utf8))
        }
    }

    @Test("bytes that are not UTF-8 are kept, each as one stand-in")
    func invalidBytesKept() {
        let name: [UInt8] = Array("in".utf8) + [0xFF] + Array(".png".utf8)
        let text = PathBytes.text(name)
        #expect(text.unicodeScalars.count == 7)
        #expect(text.unicodeScalars.map(\.value)[2] == 0xEFFF)
        #expect(PathBytes.bytes(text) == name)
        #expect(text != "in\u{FFFD}.png")
        // A truncated sequence, an overlong form, a surrogate, a lone continuation byte, past U+10FFFF.
        for bad: [UInt8] in [[0xE2, 0x82], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0x80], [0xF4, 0x90, 0x80, 0x80], [0xFE, 0xC3]] {
            let text = PathBytes.text(bad)
            #expect(PathBytes.bytes(text) == bad, "\(bad)")
            #expect(text.unicodeScalars.allSatisfy { PathBytes.byte(of: $0) != nil }, "\(bad)")
        }
    }

    @Test("a name's own U+EF80…U+EFFF is held as the stand-ins of its bytes, so nothing is ambiguous")
    func ownStandInRange() {
        let name = "a\u{EF80}b\u{EFFF}"
        let text = PathBytes.text(Array(name.utf8))
        #expect(text.unicodeScalars.count == 8)
        #expect(PathBytes.bytes(text) == Array(name.utf8))
        #expect(PathBytes.text(utf8: name) == text)
        #expect(PathBytes.text(utf8: "plain/é.png") == "plain/é.png")
    }

    @Test("any bytes make a String that gives them back")
    func roundTrip() {
        var random = SplitMix64(seed: 23)
        // Bytes around the interesting lead bytes, so valid and invalid sequences both occur.
        let pool: [UInt8] = [0x61, 0x2F, 0x25, 0x80, 0xBF, 0xC2, 0xC3, 0xDF, 0xE0, 0xED, 0xEE, 0xEF, 0xBE, 0xF0, 0xF4, 0xF5, 0xFF, 0xA9]
        for _ in 0..<20_000 {
            let count = Int(random.next() % 9)
            let bytes = (0..<count).map { _ in random.next() % 3 == 0 ? UInt8(truncatingIfNeeded: random.next()) : pool[Int(random.next() % UInt64(pool.count))] }
            let text = PathBytes.text(bytes)
            #expect(PathBytes.bytes(text) == bytes, "\(bytes)")
            // A C string ends at its first NUL, as a path's bytes do.
            let cString = PathBytes.withCString(text) { Array(UnsafeBufferPointer(start: $0, count: strlen($0))) }
            #expect(cString.map { UInt8(bitPattern: $0) } == Array(bytes.prefix { $0 != 0 }), "\(bytes)")
        }
    }

    @Test("a message shows a byte that is not UTF-8 as \\xFF")
    func shownEscaped() {
        let text = PathBytes.text(Array("out".utf8) + [0xFF, 0x80] + Array(".mp4".utf8))
        #expect(InputText.escaped(text) == "out\\xFF\\x80.mp4")
        #expect(InputText.quoted(text) == "'out\\xFF\\x80.mp4'")
        // A control character is refused in settings fields; a path's byte is only shown escaped.
        #expect(!text.unicodeScalars.contains(where: InputText.needsEscape))
        #expect(JSONText.escapingInvisibles(#"{"path":"\#(text)"}"#) == #"{"path":"out\uefff\uef80.mp4"}"#)
    }
}
