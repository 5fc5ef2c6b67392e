// StillDecoder's fitting (cover crops the centre, contain letterboxes) and the errors a user
// meets with missing, foreign, truncated or empty inputs.

import Foundation
import SliceKit
import SliceMedia
import Testing

@Suite("StillDecoder fitting")
struct StillDecoderFitTests {
    static let red = RGBAColor(red: 220, green: 20, blue: 20)
    static let green = RGBAColor(red: 20, green: 200, blue: 20)
    static let blue = RGBAColor(red: 20, green: 20, blue: 220)
    static let background = RGBAColor(red: 250, green: 0, blue: 250)

    /// A 2:1 picture: a red quarter, a green half, a blue quarter.
    static let wide = Fixture.bands(height: 64, [(red, 32), (green, 64), (blue, 32)])

    /// `wide`, written as a PNG and fitted to a 32 × 32 frame.
    static func fitWide(_ fit: FitMode) throws -> RGBAImage {
        try withTemporaryDirectory { dir in
            let path = "\(dir)/wide.png"
            try StillWriter.write(wide, to: path, format: .png)
            return try StillDecoder.load(path: path, width: 32, height: 32, fit: fit, background: background)
        }
    }

    @Test("cover crops a 2:1 picture to its centre in a 1:1 frame")
    func coverCropsCentre() throws {
        let fitted = try Self.fitWide(.cover)
        #expect(fitted.width == 32 && fitted.height == 32)
        // Only the green half survives; the red and blue quarters are cropped off.
        for y in [0, 16, 31] {
            for x in 2..<30 {
                #expect(isClose(fitted[x, y], Self.green, within: 2), "(\(x), \(y)) is \(fitted[x, y])")
            }
            for x in [0, 1, 30, 31] {
                let pixel = fitted[x, y]
                #expect(pixel.green > pixel.red && pixel.green > pixel.blue, "edge (\(x), \(y)) is \(pixel)")
            }
        }
    }

    @Test("contain letterboxes a 2:1 picture onto the background in a 1:1 frame")
    func containLetterboxes() throws {
        let fitted = try Self.fitWide(.contain)
        #expect(fitted.width == 32 && fitted.height == 32)
        // Scaled to 32 × 16, centred: 8 rows of background above and below.
        for x in 0..<32 {
            for y in Array(0..<8) + Array(24..<32) {
                #expect(fitted[x, y] == Self.background, "(\(x), \(y)) is \(fitted[x, y])")
            }
        }
        // The whole width is picture: red at the left edge, green in the middle, blue at the right.
        for y in 9..<23 {
            #expect(isClose(fitted[1, y], Self.red, within: 3), "(1, \(y)) is \(fitted[1, y])")
            #expect(isClose(fitted[16, y], Self.green, within: 3), "(16, \(y)) is \(fitted[16, y])")
            #expect(isClose(fitted[30, y], Self.blue, within: 3), "(30, \(y)) is \(fitted[30, y])")
        }
    }

    @Test("contain pillarboxes a 1:2 picture in a 16:9 frame")
    func containPillarboxes() throws {
        let tall = RGBAImage(width: 16, height: 32, color: Self.green)
        try withTemporaryDirectory { dir in
            let path = "\(dir)/tall.bmp"
            try StillWriter.write(tall, to: path, format: .bmp)
            let fitted = try StillDecoder.load(path: path, width: 64, height: 36, fit: .contain, background: Self.background)
            // Scaled to 18 × 36 and centred at x = 23.
            #expect(fitted[22, 18] == Self.background)
            #expect(isClose(fitted[24, 18], Self.green, within: 2))
            #expect(isClose(fitted[39, 18], Self.green, within: 2))
            #expect(fitted[41, 18] == Self.background)
        }
    }

    @Test("fittedSize matches the deciding side exactly", arguments: [
        // source, frame, cover, contain
        ((1920, 1080), (64, 36), (64, 36), (64, 36)),
        ((128, 64), (32, 32), (64, 32), (32, 16)),
        ((64, 128), (32, 32), (32, 64), (16, 32)),
        ((4000, 3000), (1920, 1080), (1920, 1440), (1440, 1080)),
        ((1080, 1920), (1920, 1080), (1920, 3413), (608, 1080)),
        ((1000, 1000), (1920, 1080), (1920, 1920), (1080, 1080)),
        ((3, 1000), (64, 36), (64, 21333), (1, 36)),
        ((333, 100), (96, 54), (180, 54), (96, 29)),
    ])
    func fittedSizes(_ sizes: ((Int, Int), (Int, Int), (Int, Int), (Int, Int))) {
        let (source, frame, cover, contain) = sizes
        let covered = StillDecoder.fittedSize(source: source, frame: frame, fit: .cover)
        let contained = StillDecoder.fittedSize(source: source, frame: frame, fit: .contain)
        #expect(covered == cover)
        #expect(contained == contain)
        // Cover never leaves a gap; contain never overflows; one side always matches exactly.
        #expect(covered.width >= frame.0 && covered.height >= frame.1)
        #expect(covered.width == frame.0 || covered.height == frame.1)
        #expect(contained.width <= frame.0 && contained.height <= frame.1)
        #expect(contained.width == frame.0 || contained.height == frame.1)
    }
}

@Suite("StillDecoder errors")
struct StillDecoderErrorTests {
    /// Loads `path` at 32 × 18 and returns the error it must throw.
    func loadError(_ path: String) -> MediaError? {
        #expect(throws: MediaError.self) {
            try StillDecoder.load(path: path, width: 32, height: 18, fit: .cover, background: .black)
        }
    }

    @Test("a missing file is .inputMissing and names the path")
    func missing() throws {
        try withTemporaryDirectory { dir in
            let path = "\(dir)/nowhere.png"
            let error = loadError(path)
            #expect(error?.kind == .inputMissing)
            #expect(error?.subject == path)
            #expect(error?.description.contains(path) == true)
        }
    }

    @Test("a text file named .png is .inputInvalid, and said to be no image (not a damaged one)")
    func textFile() throws {
        try withTemporaryDirectory { dir in
            let path = "\(dir)/notes.png"
            try Data("These are notes, not a picture.\n".utf8).write(to: URL(fileURLWithPath: path))
            let error = loadError(path)
            #expect(error?.kind == .inputInvalid)
            #expect(error?.description.contains(path) == true)
            #expect(error?.message.contains("is not a readable image") == true, "\(String(describing: error))")
        }
    }

    @Test("an empty file is .inputInvalid", arguments: ["empty.png", "empty.jpg", "empty"])
    func empty(name: String) throws {
        try withTemporaryDirectory { dir in
            let path = "\(dir)/\(name)"
            _ = FileManager.default.createFile(atPath: path, contents: Data())
            let error = loadError(path)
            #expect(error?.kind == .inputInvalid)
            #expect(error?.subject == path)
        }
    }

    @Test("a directory is not an image")
    func directory() throws {
        try withTemporaryDirectory { dir in
            let error = loadError(dir)
            #expect(error?.kind == .inputInvalid || error?.kind == .inputMissing)
            #expect(error?.subject == dir)
        }
    }

    @Test("a still cut in half is .inputInvalid", arguments: [StillFormat.png, .jpeg, .webp, .bmp, .tiff])
    func truncated(format: StillFormat) throws {
        try withTemporaryDirectory { dir in
            let path = "\(dir)/cut.\(format.rawValue)"
            try StillWriter.write(Fixture.noise(width: 96, height: 54), to: path, format: format)
            let whole = try Data(contentsOf: URL(fileURLWithPath: path))
            try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: path))
            let error = loadError(path)
            #expect(error?.kind == .inputInvalid, "\(format): \(String(describing: error))")
            #expect(error?.subject == path)
        }
    }

    @Test("a still with its last bytes cut off is .inputInvalid", arguments: [StillFormat.png, .jpeg])
    func tailCut(format: StillFormat) throws {
        try withTemporaryDirectory { dir in
            let path = "\(dir)/cut.\(format.rawValue)"
            try StillWriter.write(Fixture.noise(width: 96, height: 54), to: path, format: format)
            let whole = try Data(contentsOf: URL(fileURLWithPath: path))
            try whole.prefix(whole.count - 16).write(to: URL(fileURLWithPath: path))
            let error = loadError(path)
            #expect(error?.kind == .inputInvalid, "\(format): \(String(describing: error))")
        }
    }
}

extension StillDecoderErrorTests {
    /// The byte offsets where each chunk of a PNG file starts.
    static func pngChunkStarts(_ data: Data) -> [(offset: Int, type: String)] {
        let bytes = [UInt8](data)
        var chunks: [(Int, String)] = []
        var offset = 8
        while offset + 8 <= bytes.count {
            let length = bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            chunks.append((offset, String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)))
            offset += 12 + length
        }
        return chunks
    }

    @Test("a PNG that stops cleanly between two image-data chunks is .inputInvalid")
    func pngCutBetweenChunks() throws {
        try withTemporaryDirectory { dir in
            let path = "\(dir)/cut.png"
            try StillWriter.write(Fixture.noise(width: 96, height: 54), to: path, format: .png)
            let whole = try Data(contentsOf: URL(fileURLWithPath: path))
            let idat = Self.pngChunkStarts(whole).filter { $0.type == "IDAT" }
            try #require(idat.count >= 2, "the fixture should span several IDAT chunks")
            try whole.prefix(idat[1].offset).write(to: URL(fileURLWithPath: path))
            #expect(loadError(path)?.kind == .inputInvalid)
        }
    }

    @Test("a JPEG cut right after its scan header is .inputInvalid")
    func jpegCutAfterScanHeader() throws {
        try withTemporaryDirectory { dir in
            let path = "\(dir)/cut.jpeg"
            try StillWriter.write(Fixture.noise(width: 96, height: 54), to: path, format: .jpeg)
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            let scan = try #require((0..<(bytes.count - 1)).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDA })
            let headerLength = Int(bytes[scan + 2]) << 8 | Int(bytes[scan + 3])
            try Data(bytes.prefix(scan + 2 + headerLength + 64)).write(to: URL(fileURLWithPath: path))
            #expect(loadError(path)?.kind == .inputInvalid)
        }
    }

    @Test("a whole JPEG with bytes after its end marker still decodes")
    func jpegTrailingBytes() throws {
        try withTemporaryDirectory { dir in
            let path = "\(dir)/trailer.jpeg"
            let image = Fixture.blocks(width: 64, height: 32)
            try StillWriter.write(image, to: path, format: .jpeg)
            var data = try Data(contentsOf: URL(fileURLWithPath: path))
            data.append(contentsOf: [UInt8](repeating: 0, count: 100))
            try data.write(to: URL(fileURLWithPath: path))
            let decoded = try StillDecoder.load(path: path, width: 64, height: 32, fit: .cover, background: .black)
            #expect(meanAbsoluteError(image, decoded) < 3)
        }
    }
}

@Suite("StillDecoder EXIF orientation")
struct StillDecoderOrientationTests {
    /// Four columns and two rows of distinct colours, 64 × 32: every turn and mirror of it
    /// puts different colours in the corners.
    static let picture = Fixture.blocks(width: 64, height: 32)

    /// A JPEG of `picture` carrying an EXIF APP1 segment with `orientation`, as a phone writes it.
    static func orientedJPEG(_ orientation: Int, in dir: String) throws -> String {
        let plain = "\(dir)/plain.jpg", path = "\(dir)/oriented-\(orientation).jpg"
        try StillWriter.write(picture, to: plain, format: .jpeg)
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: plain))
        let payload = Array("Exif".utf8) + [0, 0] + exifTIFF(orientation)
        let length = payload.count + 2
        let segment: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        try (jpeg.prefix(2) + Data(segment) + jpeg.dropFirst(2)).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The EXIF block both formats carry: a big-endian TIFF header and one IFD entry, tag
    /// 0x0112 Orientation, SHORT, count 1.
    static func exifTIFF(_ orientation: Int) -> [UInt8] {
        [0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, UInt8(orientation), 0, 0, 0, 0, 0, 0]
    }

    /// A WebP of `picture` in the extended format (a VP8X header) with an EXIF chunk.
    static func orientedWebP(_ orientation: Int, in dir: String) throws -> String {
        let plain = "\(dir)/plain.webp", path = "\(dir)/oriented-\(orientation).webp"
        try StillWriter.write(picture, to: plain, format: .webp)
        let webp = [UInt8](try Data(contentsOf: URL(fileURLWithPath: plain)))
        func le(_ value: Int, _ bytes: Int) -> [UInt8] { (0..<bytes).map { UInt8((value >> (8 * $0)) & 0xFF) } }
        let tiff = exifTIFF(orientation)
        let vp8x = Array("VP8X".utf8) + le(10, 4) + [0x08, 0, 0, 0] + le(picture.width - 1, 3) + le(picture.height - 1, 3)
        let exif = Array("EXIF".utf8) + le(tiff.count, 4) + tiff + (tiff.count % 2 == 1 ? [0] : [])
        let body = Array("WEBP".utf8) + vp8x + webp[12...] + exif
        try Data(Array("RIFF".utf8) + le(body.count, 4) + body).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Whether two pictures of the same size agree at the centre of each of their 4 × 2 blocks
    /// (the JPEG's edges blur; its block centres do not).
    static func sameBlocks(_ a: RGBAImage, _ b: RGBAImage) -> Bool {
        guard a.width == b.width, a.height == b.height else { return false }
        let columns = a.width > a.height ? 4 : 2, rows = a.width > a.height ? 2 : 4
        for row in 0..<rows {
            for column in 0..<columns {
                let x = (2 * column + 1) * a.width / (2 * columns), y = (2 * row + 1) * a.height / (2 * rows)
                if !isClose(a[x, y], b[x, y], within: 12) { return false }
            }
        }
        return true
    }

    @Test("a tagged JPEG is turned upright before it is fitted", arguments: 1...8)
    func turnedUpright(orientation: Int) throws {
        try withTemporaryDirectory { dir in
            let path = try Self.orientedJPEG(orientation, in: dir)
            let turn = try #require(Orientation(exif: orientation))
            let expected = turn.apply(to: Self.picture)
            let loaded = try StillDecoder.load(path: path, width: expected.width, height: expected.height,
                                               fit: .cover, background: .black)
            let same = Self.sameBlocks(loaded, expected)
            #expect(same, "orientation \(orientation) (\(turn))")
        }
    }

    @Test("a tagged WebP is turned upright too", arguments: [3, 6, 8])
    func webPTurnedUpright(orientation: Int) throws {
        try withTemporaryDirectory { dir in
            let path = try Self.orientedWebP(orientation, in: dir)
            let expected = try #require(Orientation(exif: orientation)).apply(to: Self.picture)
            let loaded = try StillDecoder.load(path: path, width: expected.width, height: expected.height,
                                               fit: .cover, background: .black)
            let same = Self.sameBlocks(loaded, expected)
            #expect(same, "orientation \(orientation)")
        }
    }

    @Test("a sideways photo fills a frame of its upright shape without cropping")
    func uprightShapeDecidesTheFit() throws {
        try withTemporaryDirectory { dir in
            // Stored 64 × 32, seen 32 × 64: contained in a 32 × 64 frame it needs no bars.
            let path = try Self.orientedJPEG(6, in: dir)
            let background = RGBAColor(red: 250, green: 0, blue: 250)
            let loaded = try StillDecoder.load(path: path, width: 32, height: 64, fit: .contain, background: background)
            let corners = [loaded[0, 0], loaded[31, 63]]
            #expect(corners.allSatisfy { !isClose($0, background, within: 40) }, "\(corners)")
            // Scaled down by two into a 16 × 32 frame it is still the same turned picture.
            let small = try StillDecoder.load(path: path, width: 16, height: 32, fit: .cover, background: background)
            let expected = try #require(Orientation(exif: 6)).apply(to: Self.picture)
            let upright = try StillDecoder.load(path: path, width: 32, height: 64, fit: .cover, background: background)
            let same = Self.sameBlocks(upright, expected)
            #expect(same)
            #expect(small.width == 16 && small.height == 32)
            #expect(isClose(small[4, 4], expected[8, 8], within: 16))
        }
    }
}

@Suite("StillDecoder straight to planar")
struct StillDecoderPlanarTests {
    /// An RGB PNG of the frame's size converts in place; anything else through RGBA. Either way
    /// the planar still must be the one `load(…).planar(layout)` gives. (16-bit layouts take
    /// the 16-bit way, which `load`'s 8-bit result cannot match.)
    @Test("the in-place conversion gives the same bytes as the RGBA path", arguments: PixelLayout.allCases.filter { !$0.isDeep })
    func sameBytes(layout: PixelLayout) throws {
        try withTemporaryDirectory { dir in
            let picture = Fixture.noise(width: 66, height: 38)
            let png = "\(dir)/noise.png", bmp = "\(dir)/noise.bmp", rgba = "\(dir)/noise-rgba.png"
            // An RGB (rgb24) PNG, as most photos and renders are: a one-frame poster of the picture.
            let poster = try VideoWriter(path: png, outputFormat: .poster, width: 66, height: 38, frameRate: FrameRate(1),
                                         inputLayout: .gbrp, settings: EncoderSettings())
            try poster.write(picture.planar(.gbrp))
            try poster.finish()
            #expect(try MediaReader.info(path: png).pixelFormat == "rgb24")
            try StillWriter.write(picture, to: bmp, format: .bmp)
            try StillWriter.write(picture, to: rgba, format: .png)
            for path in [png, bmp, rgba] {
                for (width, height) in [(66, 38), (32, 18)] {
                    let direct = try StillDecoder.loadPlanar(path: path, width: width, height: height, fit: .cover,
                                                             background: .black, layout: layout)
                    let viaRGBA = try StillDecoder.load(path: path, width: width, height: height, fit: .cover,
                                                        background: .black).planar(layout)
                    #expect(direct.hasSamePixels(as: viaRGBA), "\(path) at \(width)x\(height) in \(layout)")
                }
            }
            // The exact-size RGB PNG decodes to what was written, alpha opaque.
            let direct = try StillDecoder.loadPlanar(path: png, width: 66, height: 38, fit: .cover, background: .black, layout: layout)
            #expect(direct.hasSamePixels(as: picture.planar(layout)))
        }
    }
}
