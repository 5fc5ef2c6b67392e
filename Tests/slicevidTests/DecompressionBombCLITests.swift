// Decompression bombs cost at most their limit (issue 23, item 5): a 1 MB PNG whose iCCP chunk
// inflates to 1 GiB was refused only after 8 s at 2.1 GB; one whose zTXt did rendered, at
// 2.1 GB, and `probe` read both the same way; a QuickTime file whose compressed movie header
// (cmov) declares 1 GiB cost 1.1 GB as a still, a song or for probe. Each is now refused with
// 65 and one line, under 300 MB (peak resident memory, measured by wait4).

import Foundation
import SliceKit
import SliceMedia
import StillFixtures
import Testing

@Suite("slicevid with decompression bombs")
struct DecompressionBombCLITests {
    /// The most resident memory a refused bomb may cost (the bound).
    static let bound = 300 << 20

    @Test("a PNG whose iCCP, zTXt or iTXt inflates to 1 GiB is refused by make and probe with 65 and one line, in under 300 MB")
    func gibibyteBombs() throws {
        let bomb = FixtureFiles.zlibBomb(inflating: 1 << 30)
        try withScratchFolder { folder in
            let helper = try StillMemoryTests.buildHelper(in: folder)
            let plain = folder + "/plain.png"
            try writeFile(plain, Data(FixtureFiles.png()))
            for (name, chunk, words) in [("iccp.png", FixtureFiles.iCCP(bomb), ["ICC colour profile (iCCP)", "16 MiB"]),
                                         ("ztxt.png", FixtureFiles.zTXt(bomb), ["zTXt", "16 MiB"]),
                                         ("itxt.png", FixtureFiles.iTXt(bomb), ["iTXt", "16 MiB"])] {
                let path = folder + "/" + name
                try writeFile(path, Data(FixtureFiles.png(before: chunk)))
                for command in [["make", "--from", path, "--to", plain] + tinyClip + ["-o", folder + "/out.mp4"], ["probe", path]] {
                    let result = try CLI.run(command, in: folder)
                    #expect(result.status == 65 && result.stderrIsOneLine, "\(command[0]) \(name): \(result)")
                    #expect(result.stderr.hasPrefix("slicevid: error: \(path): "), "\(result)")
                    for word in words { #expect(result.stderr.contains(word), "\(command[0]) \(name): \(result)") }
                    let peak = try StillMemoryTests.peakMemory(command, helper: helper)
                    #expect(peak.status == 65 && peak.bytes < Self.bound, "\(command[0]) \(name): \(peak.bytes >> 20) MB peak")
                }
                #expect(leftovers(in: folder).isEmpty && !FileManager.default.fileExists(atPath: folder + "/out.mp4"))
            }
        }
    }

    @Test("probe refuses an APNG whose header chunks (its extradata) hold a zTXt bomb")
    func animatedPNGHeader() throws {
        try withScratchFolder { folder in
            let apng = folder + "/anim.apng"
            let made = try CLI.run(["-v", "error", "-f", "lavfi", "-i", "testsrc=size=32x24:rate=5:duration=0.4", "-plays", "0", "-f", "apng", apng],
                                   in: folder, executable: "/usr/bin/ffmpeg")
            try #require(made.status == 0, "\(made)")
            #expect(try CLI.run(["probe", apng], in: folder).status == 0)
            var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: apng)))
            // Right after IHDR: before acTL and the first fcTL, in what the demuxer calls the header.
            bytes.insert(contentsOf: FixtureFiles.zTXt(FixtureFiles.zlibBomb(inflating: 256 << 20)), at: 33)
            try writeFile(apng, Data(bytes))
            let result = try CLI.run(["probe", apng], in: folder)
            #expect(result.status == 65 && result.stderrIsOneLine && result.stderr.contains("zTXt"), "\(result)")
        }
    }

    /// `movie` (an ffmpeg-written .mov or .m4a) with its moov box replaced by a cmov holding
    /// `moov` (the original by default) compressed, declaring its inflated size truly, padded with `padding` zero bytes (whole MiB) that inflate after it.
    static func compressingHeader(_ movie: [UInt8], moov replacement: [UInt8]? = nil, padding: Int = 0) throws -> [UInt8] {
        func be32(_ value: Int) -> [UInt8] { FixtureFiles.be32(UInt32(value)) }
        var boxes: [(type: String, bytes: [UInt8])] = []
        var offset = 0
        while offset + 8 <= movie.count {
            let size = movie[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            try #require(size >= 8 && offset + size <= movie.count)
            boxes.append((String(decoding: movie[(offset + 4)..<(offset + 8)], as: UTF8.self), Array(movie[offset..<(offset + size)])))
            offset += size
        }
        let moov = try #require(boxes.first { $0.type == "moov" }).bytes
        let header = replacement ?? moov
        let stream = FixtureFiles.zlibBomb(inflating: padding, after: header)
        let cmvd = be32(12 + stream.count) + Array("cmvd".utf8) + be32(header.count + padding) + stream
        let cmov = be32(8 + 12 + cmvd.count) + Array("cmov".utf8) + be32(12) + Array("dcom".utf8) + Array("zlib".utf8) + cmvd
        let compressed = be32(8 + cmov.count) + Array("moov".utf8) + cmov
        return boxes.flatMap { $0.type == "moov" ? compressed : $0.bytes }
    }

    @Test("a compressed movie header (cmov) within the limit is read; one declaring 1 GiB, or nested, is refused in bounded memory")
    func compressedMovieHeaders() throws {
        try withScratchFolder { folder in
            let helper = try StillMemoryTests.buildHelper(in: folder)
            for (name, codec) in [("movie.mov", ["-f", "lavfi", "-i", "testsrc=size=32x24:rate=5:duration=0.4", "-c:v", "png"]),
                                  ("song.m4a", ["-f", "lavfi", "-i", "sine=duration=1", "-c:a", "aac"])] {
                let made = try CLI.run(["-v", "error"] + codec + [name], in: folder, executable: "/usr/bin/ffmpeg")
                try #require(made.status == 0, "\(made)")
            }
            let movie = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/movie.mov")))
            let song = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/song.m4a")))
            // Whole and small: what old QuickTime writers made. It still reads.
            try writeFile(folder + "/small.mov", Data(try Self.compressingHeader(movie)))
            let small = try CLI.run(["probe", "small.mov"], in: folder)
            #expect(small.status == 0 && small.stdout.contains("frames=2"), "\(small)")
            // 1 GiB of header from 1 MB of file, as a still, a song and for probe.
            try writeFile(folder + "/bomb.mov", Data(try Self.compressingHeader(movie, padding: 1 << 30)))
            try writeFile(folder + "/bomb.m4a", Data(try Self.compressingHeader(song, padding: 1 << 30)))
            let nestedHeader = try Self.compressingHeader(movie)
            let inner = Array(nestedHeader[nestedHeader.indices.first { nestedHeader[$0..<($0 + 4)].elementsEqual("moov".utf8) }! - 4..<nestedHeader.count])
            try writeFile(folder + "/nested.mov", Data(try Self.compressingHeader(movie, moov: Array(inner.prefix(Int(inner[0..<4].reduce(0) { $0 << 8 | UInt32($1) }))))))
            try writeFile(folder + "/plain.png", Data(FixtureFiles.png()))
            for command in [["probe", "bomb.mov"], ["make", "--from", "bomb.mov", "--to", "plain.png"] + tinyClip + ["-o", folder + "/out.mp4"],
                            ["make", "--audio", "bomb.m4a"] + tinyClip + ["-o", folder + "/out.mp4"], ["probe", "nested.mov"]] {
                let result = try CLI.run(command, in: folder)
                #expect(result.status == 65 && result.stderrIsOneLine, "\(command): \(result)")
                #expect(result.stderr.contains("compressed movie header (cmov)"), "\(command): \(result)")
                let peak = try StillMemoryTests.peakMemory(command.map { $0.hasSuffix(".mov") || $0.hasSuffix(".m4a") || $0.hasSuffix(".png") ? folder + "/" + $0 : $0 },
                                                           helper: helper)
                #expect(peak.status == 65 && peak.bytes < Self.bound, "\(command): \(peak.bytes >> 20) MB peak")
            }
            #expect(!FileManager.default.fileExists(atPath: folder + "/out.mp4") && leftovers(in: folder).isEmpty)
        }
    }
}
