// Valid stills and damaged variants of them, made by code: a PNG built chunk by chunk (so its
// CRCs stay right while its picture data lies), an RLE-compressed BMP, and byte surgery on
// files FFmpeg's encoders wrote. Each damage is one a decoder can notice; the tests check that
// what it notices is refused.

import CFFmpeg
import Foundation
import SliceKit

enum DamagedStills {
    // MARK: PNG

    /// One PNG chunk: length, type, data, CRC-32 of type and data.
    static func pngChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        let crc = body.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, UInt32($0.count))) }
        return bigEndian(UInt32(data.count)) + body + bigEndian(crc)
    }

    /// An 8-bit RGB PNG of `image` (alpha dropped) that declares `declaredHeight` rows but
    /// carries the image's rows (or only `rowsKept` of them), with `flip` bytes of the deflated
    /// data inverted; CRCs are always right, so only the picture data lies.
    static func png(_ image: RGBAImage, declaredHeight: Int? = nil, rowsKept: Int? = nil, flip: [Int] = []) -> [UInt8] {
        var raw: [UInt8] = []
        for y in 0..<(rowsKept ?? image.height) {
            raw.append(0)
            for x in 0..<image.width {
                let i = 4 * (y * image.width + x)
                raw += image.pixels[i..<(i + 3)]
            }
        }
        var deflated = deflate(raw)
        for offset in flip where offset < deflated.count { deflated[offset] ^= 0xFF }
        let header = bigEndian(UInt32(image.width)) + bigEndian(UInt32(declaredHeight ?? image.height)) + [8, 2, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + pngChunk("IHDR", header) + pngChunk("IDAT", deflated)
            + pngChunk("IEND", [])
    }

    /// A 1-bit greyscale PNG (decoded as `monob`, one bit per pixel) where `isWhite(x, y)`.
    static func bilevelPNG(width: Int, height: Int, isWhite: (Int, Int) -> Bool) -> [UInt8] {
        var raw: [UInt8] = []
        for y in 0..<height {
            raw.append(0)
            var row = [UInt8](repeating: 0, count: (width + 7) / 8)
            for x in 0..<width where isWhite(x, y) { row[x / 8] |= 0x80 >> UInt8(x % 8) }
            raw += row
        }
        let header = bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [1, 0, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + pngChunk("IHDR", header) + pngChunk("IDAT", deflate(raw))
            + pngChunk("IEND", [])
    }

    static func deflate(_ bytes: [UInt8]) -> [UInt8] {
        var size = compressBound(UInt(bytes.count))
        var out = [UInt8](repeating: 0, count: Int(size))
        let status = compress2(&out, &size, bytes, UInt(bytes.count), 9)
        precondition(status == Z_OK)
        return Array(out.prefix(Int(size)))
    }

    // MARK: BMP

    /// An 8-bit RLE-compressed (BI_RLE8) BMP of `rows` palette indices into `palette`, bottom
    /// row first as BMP stores them; each row is written as runs of equal indices, then an
    /// end-of-line, then end-of-bitmap. `skipRows` adds a delta escape to the first row that
    /// jumps that many rows on: past the top, it is what MS RLE calls beyond picture bounds.
    static func rleBMP(width: Int, rows: [[UInt8]], palette: [RGBAColor], skipRows: Int? = nil) -> [UInt8] {
        var data: [UInt8] = []
        for (index, row) in rows.reversed().enumerated() {
            var x = 0
            while x < row.count {
                var run = 1
                while x + run < row.count, row[x + run] == row[x], run < 255 { run += 1 }
                data += [UInt8(run), row[x]]
                x += run
            }
            if index == 0, let skipRows { data += [0, 2, 0, UInt8(skipRows)] }
            data += [0, 0]
        }
        data += [0, 1]
        var paletteBytes: [UInt8] = []
        for color in palette { paletteBytes += [color.blue, color.green, color.red, 0] }
        let offset = 14 + 40 + paletteBytes.count
        var info = littleEndian(40) + littleEndian(UInt32(width))
        info += littleEndian(UInt32(rows.count)) + [1, 0, 8, 0]
        info += littleEndian(1) + littleEndian(UInt32(data.count))
        info += littleEndian(2835) + littleEndian(2835)
        info += littleEndian(UInt32(palette.count)) + littleEndian(0)
        var file: [UInt8] = Array("BM".utf8) + littleEndian(UInt32(offset + data.count))
        file += littleEndian(0) + littleEndian(UInt32(offset))
        return file + info + paletteBytes + data
    }

    // MARK: TIFF

    /// `tiff` with IFD0's `tag` (SHORT or LONG, one value) set to `value`.
    static func settingTIFFTag(_ tiff: [UInt8], _ tag: UInt16, to value: UInt32) -> [UInt8] {
        var bytes = tiff
        let little = bytes[0] == 0x49
        func u16(_ i: Int) -> Int { little ? Int(bytes[i]) | Int(bytes[i + 1]) << 8 : Int(bytes[i]) << 8 | Int(bytes[i + 1]) }
        func u32(_ i: Int) -> Int { little ? u16(i) | u16(i + 2) << 16 : u16(i) << 16 | u16(i + 2) }
        let directory = u32(4)
        for entry in 0..<u16(directory) {
            let at = directory + 2 + 12 * entry
            guard u16(at) == Int(tag) else { continue }
            let type = u16(at + 2)
            let field: [UInt8] = type == 3
                ? (little ? [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), 0, 0] : [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF), 0, 0])
                : (little ? littleEndian(value) : bigEndian(value))
            bytes.replaceSubrange((at + 8)..<(at + 12), with: field)
        }
        return bytes
    }

    /// Where IFD0's first strip starts.
    static func firstStripOffset(_ tiff: [UInt8]) -> Int {
        let little = tiff[0] == 0x49
        func u16(_ i: Int) -> Int { little ? Int(tiff[i]) | Int(tiff[i + 1]) << 8 : Int(tiff[i]) << 8 | Int(tiff[i + 1]) }
        func u32(_ i: Int) -> Int { little ? u16(i) | u16(i + 2) << 16 : u16(i) << 16 | u16(i + 2) }
        let directory = u32(4)
        for entry in 0..<u16(directory) where u16(directory + 2 + 12 * entry) == 273 {
            let at = directory + 2 + 12 * entry
            let count = u32(at + 4), type = u16(at + 2)
            let size = type == 3 ? 2 : 4
            let valueAt = count * size <= 4 ? at + 8 : u32(at + 8)
            return size == 2 ? u16(valueAt) : u32(valueAt)
        }
        return 8
    }

    // MARK: GIF, JPEG, WebP

    /// Where a GIF's first image's LZW data starts (after its descriptor and minimum code size).
    static func gifImageData(_ gif: [UInt8]) -> Int? {
        var offset = 13
        if gif[10] & 0x80 != 0 { offset += 3 << (Int(gif[10] & 0x07) + 1) }
        while offset < gif.count {
            switch gif[offset] {
            case 0x21:  // extension: label, then sub-blocks
                offset += 2
                while offset < gif.count, gif[offset] != 0 { offset += Int(gif[offset]) + 1 }
                offset += 1
            case 0x2C:
                var at = offset + 10
                if gif[offset + 9] & 0x80 != 0 { at += 3 << (Int(gif[offset + 9] & 0x07) + 1) }
                return at + 1
            default:
                return nil
            }
        }
        return nil
    }

    /// Where a JPEG's first scan's entropy-coded data starts.
    static func jpegScanData(_ jpeg: [UInt8]) -> Int? {
        guard let scan = (0..<(jpeg.count - 3)).first(where: { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xDA }) else { return nil }
        return scan + 2 + (Int(jpeg[scan + 2]) << 8 | Int(jpeg[scan + 3]))
    }

    /// `jpeg` with its frame header declaring `height` rows.
    static func jpegDeclaring(height: Int, _ jpeg: [UInt8]) -> [UInt8] {
        var bytes = jpeg
        guard let frame = (0..<(bytes.count - 8)).first(where: { bytes[$0] == 0xFF && [0xC0, 0xC1, 0xC2].contains(bytes[$0 + 1]) })
        else { return bytes }
        bytes[frame + 5] = UInt8(height >> 8)
        bytes[frame + 6] = UInt8(height & 0xFF)
        return bytes
    }

    // MARK: bytes

    static func bigEndian(_ value: UInt32) -> [UInt8] { [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
    static func littleEndian(_ value: UInt32) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)] }

    static func read(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }
    static func write(_ bytes: [UInt8], to path: String) throws { try Data(bytes).write(to: URL(fileURLWithPath: path)) }
}
