// PNGs carrying compressed chunks (iCCP, zTXt, iTXt), built chunk by chunk so every CRC is
// right, and zlib "bombs": streams of zeros that inflate ~1000 times larger than they are,
// deflated a MiB at a time so making a 1 GiB bomb never holds 1 GiB.

import CFFmpeg
import Foundation
import SliceKit

extension FixtureFiles {
    /// One PNG chunk: length, type, data, CRC-32 of type and data.
    package static func pngChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        let crc = UInt32(body.withUnsafeBufferPointer { crc32(0, $0.baseAddress, UInt32($0.count)) })
        return be32(UInt32(data.count)) + body + be32(crc)
    }

    /// A `width` × `height` 8-bit RGB PNG of one colour, with `before` (chunks) between IHDR and
    /// IDAT and `after` between IDAT and IEND.
    package static func png(width: Int = 32, height: Int = 24, color: RGBAColor = RGBAColor(red: 200, green: 60, blue: 30),
                           before: [UInt8] = [], after: [UInt8] = []) -> [UInt8] {
        let row: [UInt8] = [0] + (0..<width).flatMap { _ in [color.red, color.green, color.blue] }
        let header = be32(UInt32(width)) + be32(UInt32(height)) + [8, 2, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + pngChunk("IHDR", header) + before
            + pngChunk("IDAT", zlib((0..<height).flatMap { _ in row })) + after + pngChunk("IEND", [])
    }

    /// `bytes` as one zlib stream.
    package static func zlib(_ bytes: [UInt8]) -> [UInt8] {
        var size = compressBound(UInt(bytes.count))
        var out = [UInt8](repeating: 0, count: Int(size))
        precondition(compress2(&out, &size, bytes, UInt(bytes.count), 9) == Z_OK)
        return Array(out.prefix(Int(size)))
    }

    /// A zlib stream that inflates to `prefix`, then `inflated` zero bytes (a whole number of
    /// MiB): about a thousandth of that in size.
    package static func zlibBomb(inflating inflated: Int, after prefix: [UInt8] = []) -> [UInt8] {
        var stream = z_stream()
        precondition(deflateInit_(&stream, 9, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK)
        defer { deflateEnd(&stream) }
        let block = [UInt8](repeating: 0, count: 1 << 20)
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        func run(_ flush: Int32) {
            repeat {
                buffer.withUnsafeMutableBufferPointer { space in
                    stream.next_out = space.baseAddress
                    stream.avail_out = UInt32(space.count)
                    _ = deflate(&stream, flush)
                    out += space.prefix(space.count - Int(stream.avail_out))
                }
            } while stream.avail_out == 0
        }
        prefix.withUnsafeBufferPointer { input in
            stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.avail_in = UInt32(input.count)
            run(Z_NO_FLUSH)
        }
        for _ in 0..<(inflated >> 20) {
            block.withUnsafeBufferPointer { input in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = UInt32(input.count)
                run(Z_NO_FLUSH)
            }
        }
        run(Z_FINISH)
        return out
    }

    /// An iCCP chunk named "icc" holding `stream` (a zlib stream).
    package static func iCCP(_ stream: [UInt8]) -> [UInt8] { pngChunk("iCCP", Array("icc".utf8) + [0, 0] + stream) }

    /// A zTXt chunk with `keyword` holding `stream` (a zlib stream).
    package static func zTXt(_ stream: [UInt8], keyword: String = "Comment") -> [UInt8] {
        pngChunk("zTXt", Array(keyword.utf8) + [0, 0] + stream)
    }

    /// A compressed iTXt chunk (an XMP packet's keyword, no language) holding `stream`.
    package static func iTXt(_ stream: [UInt8]) -> [UInt8] {
        pngChunk("iTXt", Array("XML:com.adobe.xmp".utf8) + [0, 1, 0, 0, 0] + stream)
    }
}
