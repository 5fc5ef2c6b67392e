// gzip streams for the tests: an SVGZ, and a decompression bomb of gigabytes made in
// milliseconds — one compressed mebibyte repeated, which a full flush makes possible (each
// flushed segment's deflate blocks stand alone, byte-aligned), with the CRC combined by zlib.

import CFFmpeg

/// gzip streams built with zlib.
package enum Gzip {
    /// `bytes` as one gzip stream.
    package static func compress(_ bytes: [UInt8]) -> [UInt8] {
        bomb(head: bytes, mebibytesOfSpaces: 0, tail: [])
    }

    /// A gzip stream of `head`, `mebibytes` MiB of spaces, then `tail`.
    package static func bomb(head: [UInt8], mebibytesOfSpaces mebibytes: Int, tail: [UInt8]) -> [UInt8] {
        var stream = z_stream()
        precondition(deflateInit2_(&stream, 9, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, zlibVersion(),
                                   Int32(MemoryLayout<z_stream>.size)) == Z_OK)
        defer { deflateEnd(&stream) }
        func deflated(_ input: [UInt8], _ flush: Int32) -> [UInt8] {
            var input = input
            var output: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            input.withUnsafeMutableBufferPointer { source in
                stream.next_in = source.baseAddress
                stream.avail_in = UInt32(source.count)
                repeat {
                    buffer.withUnsafeMutableBufferPointer { target in
                        stream.next_out = target.baseAddress
                        stream.avail_out = UInt32(target.count)
                        _ = deflate(&stream, flush)
                        output += target.prefix(target.count - Int(stream.avail_out))
                    }
                } while stream.avail_out == 0
            }
            return output
        }
        let spaces = [UInt8](repeating: 0x20, count: 1 << 20)
        var body = deflated(head, Z_FULL_FLUSH)
        let mebibyte = deflated(spaces, Z_FULL_FLUSH)
        for _ in 0..<mebibytes { body += mebibyte }
        body += deflated(tail, Z_FINISH)

        func crc(_ bytes: [UInt8]) -> UInt { bytes.withUnsafeBufferPointer { UInt(crc32(0, $0.baseAddress, UInt32($0.count))) } }
        var check = crc(head)
        let spacesCRC = crc(spaces)
        for _ in 0..<mebibytes { check = UInt(crc32_combine(UInt(check), spacesCRC, 1 << 20)) }
        check = UInt(crc32_combine(UInt(check), crc(tail), off_t(tail.count)))
        let length = UInt32(truncatingIfNeeded: head.count + mebibytes << 20 + tail.count)
        func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        return [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 3] + body + le32(UInt32(truncatingIfNeeded: check)) + le32(length)
    }
}
