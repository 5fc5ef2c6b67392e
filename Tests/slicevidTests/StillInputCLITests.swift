// `slicevid make` with stills that are not files, too large, damaged or of extreme aspect: each
// ends at once with its documented code and one line, or renders in bounded memory. Issue 10's
// reproducers: a FIFO as --from hung forever, /dev/zero read forever, a valid 30000x30000 PNG
// was called "truncated or corrupt", a damaged PNG rendered, a 1x200 PNG segfaulted at 1080p.

import CFFmpeg
import Foundation
import SliceKit
import SliceMedia
import Testing

@Suite("slicevid make with odd stills")
struct StillInputCLITests {
    /// A PNG chunk with its CRC.
    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        let crc = body.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, UInt32($0.count))) }
        func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        return be(UInt32(data.count)) + body + be(crc)
    }

    /// A grey PNG declaring `width` × `height` whose deflated rows stop after `rows` rows.
    static func png(width: Int, height: Int, rows: Int) -> Data {
        let rowBytes = 1 + width * 3
        var raw = [UInt8](repeating: 128, count: rows * rowBytes)
        for row in 0..<rows { raw[row * rowBytes] = 0 }   // filter type: none
        var size = compressBound(UInt(raw.count))
        var deflated = [UInt8](repeating: 0, count: Int(size))
        precondition(compress2(&deflated, &size, raw, UInt(raw.count), 1) == Z_OK)
        var header: [UInt8] = []
        for value in [width, height] { header += [24, 16, 8, 0].map { UInt8((value >> $0) & 0xFF) } }
        header += [8, 2, 0, 0, 0]
        return Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header)
                    + chunk("IDAT", Array(deflated.prefix(Int(size)))) + chunk("IEND", []))
    }

    /// Runs a make that must fail; checks its code, its one line and an untouched folder.
    private func expectRefusal(_ arguments: [String], in folder: String, status: Int32, mentions: [String]) throws {
        let before = FolderSnapshot(folder)
        let result = try CLI.make(tinyClip + arguments + ["-o", "out.mp4"], in: folder)
        #expect(result.status == status && !result.signalled, "\(result)")
        #expect(result.stderrIsOneLine && result.stderr.hasPrefix("slicevid: error: "), "\(result)")
        for word in mentions { #expect(result.stderr.contains(word), "the message should name \(word): \(result)") }
        #expect(leftovers(in: folder).isEmpty && FolderSnapshot(folder) == before, "\(FolderSnapshot(folder))")
    }

    @Test("a FIFO or /dev/zero as a still is refused at once with 66, naming it and what it is")
    func notAFile() throws {
        // The FIFO lives outside the output folder: reading the folder back must not open it.
        try withScratchFolder { outside in
            try withScratchFolder { folder in
                try StillWriter.write(DemoCards.destination(width: 64, height: 36), to: folder + "/b.png", format: .png)
                let fifo = outside + "/pipe.png"
                #expect(mkfifo(fifo, 0o600) == 0)
                try expectRefusal(["--from", fifo, "--to", "b.png"], in: folder, status: 66, mentions: [fifo, "named pipe (FIFO)"])
                try expectRefusal(["--from", "b.png", "--to", "/dev/zero"], in: folder, status: 66,
                                  mentions: ["/dev/zero", "character device"])
            }
        }
    }

    @Test("a complete PNG too large to decode is 65, naming its size and the limit")
    func tooLarge() throws {
        try withScratchFolder { folder in
            try StillWriter.write(DemoCards.destination(width: 64, height: 36), to: folder + "/b.png", format: .png)
            // Complete and valid: 1 x 10,000,000 grey pixels deflate to a few KB.
            try writeFile(folder + "/tall.png", Self.png(width: 1, height: 10_000_000, rows: 10_000_000))
            try expectRefusal(["--from", "b.png", "--to", "tall.png"], in: folder, status: 65,
                              mentions: ["tall.png", "1x10000000 pixels", "100 megapixels", "65535 pixels on a side"])
        }
    }

    @Test("a PNG whose picture data ends early is 65 with FFmpeg's reason, and nothing is written")
    func damaged() throws {
        try withScratchFolder { folder in
            try StillWriter.write(DemoCards.destination(width: 64, height: 36), to: folder + "/b.png", format: .png)
            try writeFile(folder + "/short.png", Self.png(width: 64, height: 36, rows: 20))
            try expectRefusal(["--from", "short.png", "--to", "b.png"], in: folder, status: 65,
                              mentions: ["short.png", "is truncated or corrupt", "IEND without all image"])
        }
    }
}
