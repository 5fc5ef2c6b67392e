// A PNG's compressed chunks are inflated with a limit before FFmpeg sees them (issue 23, item 5):
// FFmpeg 5.1's PNG decoder inflates iCCP and zTXt with no limit, so a 1 MB chunk cost 2.1 GB
// before the profile limit refused it (iCCP) or never did (zTXt, which it keeps as metadata).
// Bombs here inflate to 64 MiB (small enough to be quick without the fix too), each past a
// limit of 16 MiB; the CLI tests show a 1 GiB bomb costs under 300 MB.

import Foundation
import SliceKit
@testable import SliceMedia
import StillFixtures
import Testing

@Suite("PNG compressed chunks")
struct PNGPayloadTests {
    static let bomb = FixtureFiles.zlibBomb(inflating: 64 << 20)

    /// Decodes `bytes` as a still and returns the refusal's message, or nil when it decoded.
    static func refusal(_ bytes: [UInt8]) throws -> String? {
        try withTemporaryDirectory { dir -> String? in
            let path = dir + "/still.png"
            try DamagedStills.write(bytes, to: path)
            do {
                _ = try StillDecoder.load(path: path, width: 32, height: 24, fit: .cover, background: .black)
                return nil
            } catch let error as MediaError {
                #expect(error.kind == .inputInvalid && error.subject == path, "\(error)")
                return error.message
            }
        }
    }

    static let bombs: [(String, [UInt8], [String])] = [
        ("iCCP before IDAT", FixtureFiles.png(before: FixtureFiles.iCCP(bomb)), ["ICC colour profile (iCCP)", "16 MiB"]),
        ("zTXt before IDAT", FixtureFiles.png(before: FixtureFiles.zTXt(bomb)), ["zTXt", "16 MiB"]),
        ("zTXt after IDAT", FixtureFiles.png(after: FixtureFiles.zTXt(bomb)), ["zTXt", "16 MiB"]),
        ("compressed iTXt", FixtureFiles.png(before: FixtureFiles.iTXt(bomb)), ["iTXt", "16 MiB"]),
        // Each within the limit, together past it: the limit is on the whole file's text.
        ("three zTXt of 8 MiB", FixtureFiles.png(before: (0..<3).flatMap { FixtureFiles.zTXt(FixtureFiles.zlibBomb(inflating: 8 << 20), keyword: "k\($0)") }),
         ["zTXt", "16 MiB"]),
    ]

    @Test("a compressed chunk inflating past its limit refuses the still, naming the chunk and the limit", arguments: bombs.indices)
    func bombsAreRefused(_ index: Int) throws {
        let (name, bytes, words) = Self.bombs[index]
        let message = try Self.refusal(bytes)
        #expect(message != nil, "\(name) decoded")
        for word in words { #expect(message?.contains(word) == true, "\(name): \(message ?? "")") }
    }

    @Test("damaged compressed chunks are refused as damaged; whole ones within the limits decode")
    func damageAndWholeChunks() throws {
        let text = FixtureFiles.zlib(Array("a comment".utf8))
        let damaged = [
            ("zTXt cut short", FixtureFiles.zTXt(Array(text.dropLast(3)))),
            ("zTXt with a wrong checksum", FixtureFiles.zTXt(Array(text.dropLast()) + [text.last! ^ 1])),
            ("zTXt not zlib", FixtureFiles.zTXt(Array("plain".utf8))),
            ("iCCP cut short", FixtureFiles.iCCP(Array(FixtureFiles.zlib([UInt8](repeating: 7, count: 600)).dropLast(4)))),
        ]
        for (name, chunk) in damaged {
            let message = try Self.refusal(FixtureFiles.png(before: chunk))
            #expect(message?.hasPrefix("is truncated or corrupt (its \(chunk[4..<8].map { String(UnicodeScalar($0)) }.joined()) chunk") == true,
                    "\(name): \(message ?? "decoded")")
        }
        // 4096 text chunks, and text up to the limit, is a PNG slicevid reads.
        let many = (0..<PNGPayloads.mostTextChunks).flatMap { FixtureFiles.pngChunk("tEXt", Array("k\($0)".utf8) + [0] + Array("v".utf8)) }
        let plain = FixtureFiles.pngChunk("iTXt", Array("Title".utf8) + [0, 0, 0] + Array("en".utf8) + [0, 0] + Array("plain".utf8))
        let fine = [
            ("text at the limit", FixtureFiles.zTXt(FixtureFiles.zlibBomb(inflating: 8 << 20), keyword: "a")
                + FixtureFiles.iTXt(FixtureFiles.zlibBomb(inflating: 8 << 20)) + plain),
            ("4096 text chunks", many),
        ]
        for (name, chunks) in fine {
            #expect(try Self.refusal(FixtureFiles.png(before: chunks)) == nil, "\(name)")
        }
        let message = try Self.refusal(FixtureFiles.png(before: many + FixtureFiles.zTXt(text)))
        #expect(message == "has more than 4096 text chunks (tEXt, zTXt, iTXt); slicevid reads PNGs with at most 4096")
    }

    @Test("a PNG's picture is unchanged by whole text chunks and an iCCP within the limits")
    func pictureIsKept() throws {
        let profile = TestProfiles.sRGB
        try withTemporaryDirectory { dir in
            for (name, chunks) in [("plain", [UInt8]()),
                                   ("with chunks", FixtureFiles.iCCP(FixtureFiles.zlib(profile)) + FixtureFiles.zTXt(FixtureFiles.zlib(Array("hi".utf8))))] {
                let path = "\(dir)/\(name).png"
                try DamagedStills.write(FixtureFiles.png(before: chunks), to: path)
                let image = try StillDecoder.load(path: path, width: 32, height: 24, fit: .cover, background: .black)
                #expect(image[5, 5] == RGBAColor(red: 200, green: 60, blue: 30), "\(name)")
            }
        }
    }

    @Test("counting stops just past the limit, and a whole stream's size is exact")
    func inflationCounts() {
        let bomb = FixtureFiles.zlibBomb(inflating: 4 << 20)
        bomb.withUnsafeBytes { data in
            #expect(Inflation.measure(data, limit: 4 << 20) == .whole(4 << 20))
            #expect(Inflation.measure(data, limit: (4 << 20) - 1) == .beyondLimit)
            let cut = Inflation.measure(UnsafeRawBufferPointer(rebasing: data.prefix(data.count / 2)), limit: 8 << 20)
            #expect(cut != .invalid && cut != .whole(4 << 20) && cut != .beyondLimit, "\(cut)")
        }
        Array("not zlib".utf8).withUnsafeBytes { #expect(Inflation.measure($0, limit: 100) == .invalid) }
    }
}
