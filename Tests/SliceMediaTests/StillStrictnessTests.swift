// Strict decoding: every format slicevid reads decodes when whole, and each kind of damage a
// decoder can notice in it — cut data, a corrupt compressed stream, a header that promises more
// picture than the file holds — is refused with one line naming the file and FFmpeg's reason.
// The campaign behind issue 10 found PNG "IEND without all image", TIFF "Decoded only N bytes",
// GIF "LZW decode failed", BMP RLE "beyond picture bounds" and TIFFs declaring 60000-pixel
// widths over a few KB all rendered; each has a case here.

import Foundation
import SliceKit
@testable import SliceMedia
import StillFixtures
import Testing

@Suite("StillDecoder strictness")
struct StillStrictnessTests {
    /// A picture with structure (so damage shows) and no exact repeats.
    static let picture = Fixture.noise(width: 48, height: 32, seed: 3)

    /// A way to make a still in `dir`, returning its path.
    typealias Maker = @Sendable (String) throws -> String

    static func made(_ name: String, _ bytes: @escaping @Sendable () throws -> [UInt8]) -> Maker {
        { dir in
            let path = "\(dir)/\(name)"
            try DamagedStills.write(try bytes(), to: path)
            return path
        }
    }

    /// Writes `name` with `write`, then returns its bytes changed by `damage`.
    static func damaged(_ name: String, _ write: @escaping @Sendable (String) throws -> Void,
                        _ damage: @escaping @Sendable ([UInt8]) -> [UInt8]) -> Maker {
        { dir in
            let path = "\(dir)/\(name)"
            try write(path)
            try DamagedStills.write(damage(try DamagedStills.read(path)), to: path)
            return path
        }
    }

    static let writePNG: @Sendable (String) throws -> Void = { try StillWriter.write(picture, to: $0, format: .png) }
    static let writeJPEG: @Sendable (String) throws -> Void = { try StillWriter.write(picture, to: $0, format: .jpeg) }
    static let writeWebP: @Sendable (String) throws -> Void = { try StillWriter.write(picture, to: $0, format: .webp) }
    static let writeBMP: @Sendable (String) throws -> Void = { try StillWriter.write(picture, to: $0, format: .bmp) }
    static func writeTIFF(_ compression: String) -> @Sendable (String) throws -> Void {
        { try StillEncoding.tiff(picture, to: $0, compression: compression) }
    }
    static let writeGIF: @Sendable (String) throws -> Void = { try StillEncoding.gif(picture, to: $0) }
    static let writeAVIF: @Sendable (String) throws -> Void = { try StillEncoding.avif(picture, to: $0) }
    static let writeJXL: @Sendable (String) throws -> Void = { try StillEncoding.jpegXL(picture, to: $0) }

    /// A second RIFF chunk: a WebP header and a lossless chunk of zeros, no picture.
    static let brokenRIFF: [UInt8] = Array("RIFF".utf8) + DamagedStills.littleEndian(30) + Array("WEBPVP8L".utf8)
        + DamagedStills.littleEndian(18) + [UInt8](repeating: 0, count: 18)

    /// A WebP with its RIFF size field changed by `change`.
    static func riffSize(_ webp: [UInt8], _ change: (UInt32) -> UInt32) -> [UInt8] {
        let size = UInt32(webp[4]) | UInt32(webp[5]) << 8 | UInt32(webp[6]) << 16 | UInt32(webp[7]) << 24
        return Array(webp[0..<4]) + DamagedStills.littleEndian(change(size)) + Array(webp[8...])
    }

    /// Four colours in runs, for the RLE BMP.
    static let rlePalette = [Fixture.palette[0], Fixture.palette[1], Fixture.palette[2], Fixture.palette[3]]
    static let rleRows: [[UInt8]] = (0..<12).map { y in (0..<16).map { x in UInt8((x / 4 + y / 3) % 4) } }

    /// Blocks of flat colour: what a lossy format keeps well enough to compare.
    static let blocks = Fixture.blocks(width: 48, height: 32)
    static let rlePicture: RGBAImage = {
        var image = RGBAImage(width: 16, height: 12)
        for (y, row) in rleRows.enumerated() {
            for (x, index) in row.enumerated() { Fixture.set(&image, x, y, rlePalette[Int(index)]) }
        }
        return image
    }()

    /// Valid stills of every format, each with the picture it holds and how closely a
    /// decode must match it (mean error per sample): exactly for lossless formats.
    static let whole: [(String, RGBAImage, Double, Maker)] = [
        ("PNG", picture, 0, made("whole.png") { DamagedStills.png(picture) }),
        ("PNG (libavcodec)", picture, 0, damaged("whole-rgba.png", writePNG) { $0 }),
        ("JPEG", blocks, 4, damaged("whole.jpg", { try StillWriter.write(blocks, to: $0, format: .jpeg) }) { $0 }),
        // A JPEG ends at its EOI: a phone's second picture after it (here cut short, so the file
        // ends inside a scan) or a trailer holding FF DA is no part of the still.
        ("JPEG with half a second picture after it", blocks, 4,
         damaged("second.jpg", { try StillWriter.write(blocks, to: $0, format: .jpeg) }) { $0 + Array($0.prefix($0.count / 2)) }),
        ("JPEG with FF DA in a trailer", blocks, 4,
         damaged("trailer.jpg", { try StillWriter.write(blocks, to: $0, format: .jpeg) }) { $0 + [0xFF, 0xDA, 0x00, 0x08, 1, 2, 3, 4] }),
        ("WebP", blocks, 10, damaged("whole.webp", { try StillWriter.write(blocks, to: $0, format: .webp) }) { $0 }),
        // The picture ends with its RIFF chunk, as a PNG's with IEND; named .dat so the content
        // picks FFmpeg's WebP demuxer, whose parser reads the bytes after as a second picture.
        ("WebP with a broken second RIFF chunk after it", blocks, 10,
         damaged("trailer.dat", { try StillWriter.write(blocks, to: $0, format: .webp) }) { $0 + brokenRIFF }),
        ("BMP", picture, 0, damaged("whole.bmp", writeBMP) { $0 }),
        ("BMP RLE8", rlePicture, 0, made("whole-rle.bmp") { DamagedStills.rleBMP(width: 16, rows: rleRows, palette: rlePalette) }),
        ("TIFF raw", picture, 0, damaged("whole-raw.tiff", writeTIFF("raw")) { $0 }),
        ("TIFF PackBits", picture, 0, damaged("whole-packbits.tiff", writeTIFF("packbits")) { $0 }),
        ("TIFF LZW", picture, 0, damaged("whole-lzw.tiff", writeTIFF("lzw")) { $0 }),
        ("TIFF Deflate", picture, 0, damaged("whole-deflate.tiff", writeTIFF("deflate")) { $0 }),
        ("GIF", blocks, 20, damaged("whole.gif", { try StillEncoding.gif(blocks, to: $0) }) { $0 }),
        ("AVIF", blocks, 6, damaged("whole.avif", { try StillEncoding.avif(blocks, to: $0) }) { $0 }),
        ("JPEG XL", picture, 0, damaged("whole.jxl", writeJXL) { $0 }),
    ]

    static let broken: [(String, Maker)] = [
        ("PNG: IEND without all image", made("short.png") { DamagedStills.png(picture, rowsKept: 20) }),
        ("PNG: declares more rows than it has", made("tall.png") { DamagedStills.png(picture, declaredHeight: 64) }),
        ("PNG: corrupt deflate stream", made("flipped.png") { DamagedStills.png(picture, flip: [40, 41, 42]) }),
        ("JPEG: declares more rows than it has", damaged("tall.jpg", writeJPEG) { DamagedStills.jpegDeclaring(height: 256, $0) }),
        ("JPEG: scan data overwritten", damaged("scribbled.jpg", writeJPEG) { bytes in
            var bytes = bytes
            let start = DamagedStills.jpegScanData(bytes)! + 8
            for i in start..<(start + 64) { bytes[i] = 0xFF }
            return bytes
        }),
        // FFmpeg's decoder draws a JPEG cut inside its last scan (it emulates the missing EOI).
        ("JPEG: cut in its last scan", damaged("cut.jpg", writeJPEG) { Array($0.prefix($0.count - 40)) }),
        ("JPEG: cut, then a whole second picture", damaged("cut-then-whole.jpg", writeJPEG) { Array($0.prefix($0.count - 40)) + $0 }),
        ("WebP: cut in its picture data", damaged("cut.webp", writeWebP) { Array($0.prefix($0.count * 2 / 3)) }),
        // FFmpeg's decoder walks the chunks past a RIFF size that is too small and draws them.
        ("WebP: its chunks overrun its RIFF size", damaged("small.webp", writeWebP) { riffSize($0) { $0 - 16 } }),
        ("WebP: its RIFF size overruns the file", damaged("big.webp", writeWebP) { riffSize($0) { $0 + 16 } }),
        ("BMP: pixel rows cut short", damaged("cut.bmp", writeBMP) { Array($0.prefix($0.count - 200)) }),
        ("BMP RLE8: a skip beyond picture bounds", made("overrun.bmp") {
            DamagedStills.rleBMP(width: 16, rows: rleRows, palette: rlePalette, skipRows: 40)
        }),
        ("TIFF raw: declares 60000 columns", damaged("wide-raw.tiff", writeTIFF("raw")) { DamagedStills.settingTIFFTag($0, 256, to: 60000) }),
        ("TIFF raw: declares more rows", damaged("tall-raw.tiff", writeTIFF("raw")) { DamagedStills.settingTIFFTag($0, 257, to: 50) }),
        ("TIFF Deflate: declares 60000 columns", damaged("wide-deflate.tiff", writeTIFF("deflate")) { DamagedStills.settingTIFFTag($0, 256, to: 60000) }),
        ("TIFF Deflate: declares twice the columns", damaged("wider-deflate.tiff", writeTIFF("deflate")) { DamagedStills.settingTIFFTag($0, 256, to: 96) }),
        ("TIFF PackBits: declares 60000 columns", damaged("wide-packbits.tiff", writeTIFF("packbits")) { DamagedStills.settingTIFFTag($0, 256, to: 60000) }),
        ("TIFF LZW: Decoded only N bytes", damaged("flipped-lzw.tiff", writeTIFF("lzw")) { bytes in
            var bytes = bytes
            let start = DamagedStills.firstStripOffset(bytes)
            for i in (start + 100)..<(start + 108) { bytes[i] ^= 0x5A }
            return bytes
        }),
        ("TIFF: a strip beyond the end of the file", damaged("beyond.tiff", writeTIFF("deflate")) {
            DamagedStills.settingTIFFTag($0, 273, to: UInt32($0.count + 100))
        }),
        ("TIFF: cut before its directory", damaged("cut-raw.tiff", writeTIFF("raw")) { Array($0.prefix($0.count / 2)) }),
        ("GIF: LZW decode failed", damaged("flipped.gif", writeGIF) { bytes in
            var bytes = bytes
            let start = DamagedStills.gifImageData(bytes)! + 20
            for i in start..<(start + 10) { bytes[i] ^= 0xA5 }
            return bytes
        }),
        ("GIF: cut in its picture data", damaged("cut.gif", writeGIF) { Array($0.prefix($0.count * 2 / 3)) }),
        ("AVIF: cut in its picture data", damaged("cut.avif", writeAVIF) { Array($0.prefix($0.count - 40)) }),
        ("JPEG XL: cut in its picture data", damaged("cut.jxl", writeJXL) { Array($0.prefix($0.count * 2 / 3)) }),
    ]

    @Test("a whole still of every format decodes to its picture", arguments: whole.indices)
    func wholeDecodes(_ index: Int) throws {
        let (name, expected, tolerance, make) = Self.whole[index]
        try withTemporaryDirectory { dir in
            let path = try make(dir)
            let decoded = try StillDecoder.load(path: path, width: expected.width, height: expected.height,
                                                fit: .cover, background: .black)
            let error = meanAbsoluteError(expected, decoded)
            #expect(error <= tolerance, "\(name): mean error \(error)")
        }
    }

    @Test("a WebP is its RIFF chunk: the bytes after it never decide whether or how its picture decodes")
    func webpBytesAfterTheRIFFChunkNeverReachTheDecoder() throws {
        // FFmpeg's demuxer hands the decoder the whole file, and the VP8L bit reader looks past
        // its chunk's end: a chunk a byte short decoded, or not, by what followed it (fuzz seed 2
        // case 4033; the ffmpeg CLI even aborts on one of these). Each lossless chunk is cut
        // short by a few bytes and followed by zeros or by 0xFF: the two files must decode alike.
        try withTemporaryDirectory { dir in
            try FixtureFiles.losslessWebP(Self.picture, to: dir + "/whole.webp")
            let whole = try DamagedStills.read(dir + "/whole.webp")
            #expect(Array(whole[12..<16]) == Array("VP8L".utf8))
            let length = Int(whole[16]) | Int(whole[17]) << 8 | Int(whole[18]) << 16 | Int(whole[19]) << 24
            for short in 1...4 {
                let kept = length - short
                let chunk = Array("VP8L".utf8) + DamagedStills.littleEndian(UInt32(kept)) + Array(whole[20..<(20 + kept)]) + (kept % 2 == 1 ? [0] : [])
                let riff = Array("RIFF".utf8) + DamagedStills.littleEndian(UInt32(4 + chunk.count)) + Array("WEBP".utf8) + chunk
                var outcomes: [String] = []
                // What `probe` reads (MediaReader) stops at the chunk's end too.
                var probed: [String] = []
                for filler: UInt8 in [0x00, 0xFF] {
                    let path = dir + "/short-\(short)-\(filler).webp"
                    try DamagedStills.write(riff + [UInt8](repeating: filler, count: 32), to: path)
                    do {
                        let picture = try StillDecoder.load(path: path, width: 48, height: 32, fit: .cover, background: .black)
                        outcomes.append("decoded \(picture.pixels.hashValue)")
                    } catch let error as MediaError {
                        outcomes.append("refused: " + error.message)
                    }
                    do {
                        let frames = try MediaReader.frames(path: path, layout: .gbrp)
                        let samples = frames.map { frame in
                            (0..<3).flatMap { p in (0..<frame.height).flatMap { y in (0..<frame.width).map { frame.sample(plane: p, x: $0, y: y) } } }
                        }
                        probed.append("decoded \(samples.hashValue)")
                    } catch let error as MediaError {
                        probed.append("refused: " + error.message)
                    }
                }
                #expect(outcomes[0] == outcomes[1], "\(short) bytes short: \(outcomes)")
                #expect(probed[0] == probed[1], "\(short) bytes short, as probe reads it: \(probed)")
            }
        }
    }

    @Test("a damaged still is refused with one line naming the file and FFmpeg's reason", arguments: broken.indices)
    func damageIsRefused(_ index: Int) throws {
        let (name, make) = Self.broken[index]
        try withTemporaryDirectory { dir in
            let path = try make(dir)
            let error = #expect(throws: MediaError.self, "\(name)") {
                _ = try StillDecoder.load(path: path, width: 48, height: 32, fit: .cover, background: .black)
            }
            #expect(error?.kind == .inputInvalid, "\(name): \(String(describing: error))")
            #expect(error?.subject == path)
            let line = error?.description ?? ""
            #expect(line.contains("is truncated or corrupt ("), "\(name): \(line)")
            #expect(!line.contains("\n") && line.count < path.count + 160, "\(name): \(line)")
        }
    }
}

