// Damaged Ogg songs are refused wherever the damage is (issue 23, item 6): FFmpeg's Ogg demuxer
// skips a page whose CRC fails with a log line and never checks page sequence numbers, so a
// flipped byte in the first or last audio page (or a page cut out) rendered a bed with silence
// where the song was, exit 0. Only damage in a middle page showed, as a jump in the timestamps.

import Foundation
import SliceKit
@testable import SliceMedia
import Testing

@Suite("Damaged Ogg songs")
struct OggDamageTests {
    /// Where each page of an Ogg file starts, and where the file ends.
    static func pages(_ bytes: [UInt8]) -> [Int] {
        var starts: [Int] = []
        var offset = 0
        while offset + 27 <= bytes.count, bytes[offset..<(offset + 4)].elementsEqual("OggS".utf8) {
            starts.append(offset)
            let segments = Int(bytes[offset + 26])
            offset += 27 + segments + bytes[(offset + 27)..<(offset + 27 + segments)].reduce(0) { $0 + Int($1) }
        }
        return starts + [offset]
    }

    /// Each damage: a name and what it does to the file's bytes, given its page starts (the
    /// last entry is the end). Pages 0 and 1 hold Vorbis's headers; 2 is the first audio page.
    static let damages: [(String, @Sendable ([UInt8], [Int]) -> [UInt8])] = [
        ("a flipped byte in the first page", { b, p in flip(b, at: p[0] + 40) }),
        ("a flipped byte in the second page", { b, p in flip(b, at: p[1] + 60) }),
        ("a flipped byte in the first audio page", { b, p in flip(b, at: p[2] + 60) }),
        ("a flipped byte in a middle page", { b, p in flip(b, at: p[p.count / 2] + 60) }),
        ("a flipped byte in the last page", { b, p in flip(b, at: p[p.count - 2] + 60) }),
        ("a flipped granule position in the last page", { b, p in flip(b, at: p[p.count - 2] + 8) }),
        ("the first audio page cut out", { b, p in Array(b[..<p[2]] + b[p[3]...]) }),
        ("a middle page cut out", { b, p in Array(b[..<p[p.count / 2]] + b[p[p.count / 2 + 1]...]) }),
        ("the last page cut out", { b, p in Array(b[..<p[p.count - 2]]) }),
        ("cut inside the last page", { b, p in Array(b[..<(p[p.count - 2] + 100)]) }),
    ]

    static func flip(_ bytes: [UInt8], at offset: Int) -> [UInt8] {
        var bytes = bytes
        bytes[offset] ^= 0x55
        return bytes
    }

    /// The bed of a 2 s clip from `path`: what a render decodes, a short part of the song.
    static func bed(_ path: String) throws(MediaError) {
        _ = try AudioTrack.make(AudioSettings(file: path), frames: 61, rate: FrameRate(30), codecs: [.flac])
    }

    @Test("an Ogg Vorbis song damaged anywhere is refused with the page it is in, before it is decoded", arguments: damages.indices)
    func damaged(_ index: Int) throws {
        let (name, damage) = Self.damages[index]
        try withTemporaryDirectory { dir in
            let path = dir + "/song.ogg"
            try AudioFixture.write(path, seconds: 8) { i, c in 0.3 * sin(Float(i) * (c == 0 ? 0.021 : 0.034)) }
            try Self.bed(path)
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            let pages = Self.pages(bytes)
            #expect(pages.last == bytes.count && pages.count > 8, "\(pages.count - 1) pages")
            try Data(damage(bytes, pages)).write(to: URL(fileURLWithPath: path))
            let error = #expect(throws: MediaError.self, "\(name)") { try Self.bed(path) }
            #expect(error?.kind == .inputInvalid && error?.subject == path, "\(name): \(String(describing: error))")
            #expect(error?.message.hasPrefix("damaged audio") == true && error?.message.contains("Ogg page") == true,
                    "\(name): \(String(describing: error))")
        }
    }

    @Test("an Ogg Opus song with bytes after its last page (a tag) is still a song; pages of a second stream after it too")
    func whatFollowsTheEnd() throws {
        try withTemporaryDirectory { dir in
            let first = dir + "/a.opus", second = dir + "/b.ogg"
            try AudioFixture.write(first, rate: 48_000, seconds: 1) { i, _ in 0.2 * sin(Float(i) * 0.03) }
            try AudioFixture.write(second, seconds: 1) { i, _ in 0.2 * sin(Float(i) * 0.02) }
            let opus = try Data(contentsOf: URL(fileURLWithPath: first))
            try (opus + Data("TAG".utf8) + Data(repeating: 0x20, count: 125)).write(to: URL(fileURLWithPath: first))
            try Self.bed(first)
            // A chained file: one stream ends, the next begins (its own serial number).
            try (opus + (try Data(contentsOf: URL(fileURLWithPath: second)))).write(to: URL(fileURLWithPath: dir + "/chained.ogg"))
            #expect(OggPages.problem(in: try InputFile(path: dir + "/chained.ogg")) == nil)
        }
    }
}
