// Font files made in code for the font tests (no font file is committed): a plain font's tables
// wrapped as a WOFF, as a collection of many faces, a WOFF2 header, and deflated zeros to make a
// WOFF that unpacks to far more than it holds.

import CFFmpeg
import Foundation

enum FontFiles {
    /// The tables of a plain OpenType font: tag and bytes, in directory order.
    static func tables(of font: [UInt8]) -> [(tag: [UInt8], data: [UInt8])] {
        let count = be16(font, 4)
        return (0..<count).map { index in
            let record = 12 + 16 * index
            let offset = be32(font, record + 8), length = be32(font, record + 12)
            return (Array(font[record..<(record + 4)]), Array(font[offset..<(offset + length)]))
        }
    }

    /// `font` as a WOFF 1.0 file, its tables stored as they are, plus `extra` tables given
    /// packed (zlib) with the size they unpack to.
    static func woff(_ font: [UInt8], extra: [(tag: String, packed: [UInt8], unpacked: Int)] = []) -> [UInt8] {
        var entries = tables(of: font).map { (tag: $0.tag, packed: $0.data, unpacked: $0.data.count) }
        entries += extra.map { (Array($0.tag.utf8), $0.packed, $0.unpacked) }
        entries.sort { $0.tag.lexicographicallyPrecedes($1.tag) }
        var offset = 44 + 20 * entries.count
        var directory: [UInt8] = [], body: [UInt8] = []
        var total = 12 + 16 * entries.count
        for entry in entries {
            directory += entry.tag + be32(offset + body.count) + be32(entry.packed.count) + be32(entry.unpacked) + be32(0)
            body += entry.packed + [UInt8](repeating: 0, count: (4 - entry.packed.count % 4) % 4)
            total += (entry.unpacked + 3) / 4 * 4
        }
        offset += body.count
        let header = Array("wOFF".utf8) + Array(font[0..<4]) + be32(offset) + be16(entries.count) + be16(0) + be32(total)
            + be16(1) + be16(0) + [UInt8](repeating: 0, count: 20)
        return header + directory + body
    }

    /// A collection of `faces` faces, every one of them `font` (one table directory they all point at).
    static func collection(_ font: [UInt8], faces: Int) -> [UInt8] {
        let entries = tables(of: font)
        let header = 12 + 4 * faces
        let directorySize = 12 + 16 * entries.count
        var directory = Array(font[0..<12]), body: [UInt8] = []
        for entry in entries {
            directory += entry.tag + be32(0) + be32(header + directorySize + body.count) + be32(entry.data.count)
            body += entry.data + [UInt8](repeating: 0, count: (4 - entry.data.count % 4) % 4)
        }
        var file = Array("ttcf".utf8) + be16(1) + be16(0) + be32(faces)
        for _ in 0..<faces { file += be32(header) }
        file += directory + body
        // FreeType takes a collection only when the file could hold 32 bytes a face.
        return file + [UInt8](repeating: 0, count: max(0, 32 * faces - file.count))
    }

    /// The header and table directory of a WOFF2 file holding one table (`head`, not
    /// transformed) of `unpacked` bytes, declaring `total` bytes unpacked: enough to be refused
    /// or not before any Brotli data is read.
    static func woff2(total: Int, unpacked: Int) -> [UInt8] {
        let directory: [UInt8] = [1] + base128(unpacked)
        let length = 48 + directory.count + 16
        return Array("wOF2".utf8) + be32(0x0001_0000) + be32(length) + be16(1) + be16(0) + be32(total) + be32(16)
            + be16(1) + be16(0) + [UInt8](repeating: 0, count: 20) + directory + [UInt8](repeating: 0, count: 16)
    }

    /// `count` zero bytes as one zlib stream (a few hundred bytes per MiB).
    static func deflatedZeros(_ count: Int) -> [UInt8] {
        var stream = z_stream()
        precondition(deflateInit_(&stream, 9, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK)
        defer { deflateEnd(&stream) }
        var input = [UInt8](repeating: 0, count: 1 << 20)
        var output = [UInt8](repeating: 0, count: 1 << 16)
        var result: [UInt8] = []
        var left = count
        while true {
            let chunk = min(left, input.count)
            left -= chunk
            let flush = left == 0 ? Z_FINISH : Z_NO_FLUSH
            var status = Z_OK
            input.withUnsafeMutableBufferPointer { source in
                stream.next_in = source.baseAddress
                stream.avail_in = UInt32(chunk)
                repeat {
                    output.withUnsafeMutableBufferPointer { target in
                        stream.next_out = target.baseAddress
                        stream.avail_out = UInt32(target.count)
                        status = deflate(&stream, flush)
                        result += target[0..<(target.count - Int(stream.avail_out))]
                    }
                } while stream.avail_out == 0
            }
            if flush == Z_FINISH {
                precondition(status == Z_STREAM_END)
                return result
            }
        }
    }

    static func be16(_ value: Int) -> [UInt8] { [UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)] }
    static func be32(_ value: Int) -> [UInt8] { be16(value >> 16) + be16(value) }
    static func be16(_ bytes: [UInt8], _ at: Int) -> Int { Int(bytes[at]) << 8 | Int(bytes[at + 1]) }
    static func be32(_ bytes: [UInt8], _ at: Int) -> Int { be16(bytes, at) << 16 | be16(bytes, at + 2) }

    private static func base128(_ value: Int) -> [UInt8] {
        var bytes = [UInt8(value & 0x7F)], rest = value >> 7
        while rest > 0 {
            bytes.insert(UInt8(rest & 0x7F) | 0x80, at: 0)
            rest >>= 7
        }
        return bytes
    }
}
