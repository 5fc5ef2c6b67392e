// What a still's first bytes say, read without decoding anything: which image format it is and
// the picture size it declares. The size is checked against the limits before FFmpeg is asked
// for anything, so a still too large to decode is refused without allocating its picture.

import CFFmpeg

/// A still's format and declared size, from its header.
struct StillHeader {
    /// The image formats slicevid reads, by their signatures.
    enum Format: String, CaseIterable {
        case png = "PNG", jpeg = "JPEG", webp = "WebP", bmp = "BMP", tiff = "TIFF", gif = "GIF"
        case heic = "HEIC", avif = "AVIF", jpegXL = "JPEG XL", svg = "SVG"

        /// libavformat's demuxers for the formats FFmpeg reads, the only ones a still is opened
        /// with (`image2` takes a file whose name's extension outscores its content's signature).
        static let demuxers = "image2,png_pipe,jpeg_pipe,webp_pipe,bmp_pipe,tiff_pipe,gif,gif_pipe,mov,jpegxl_pipe,svg_pipe"

        /// libavcodec's decoders for those formats, the only ones a still is decoded with (in a
        /// decode helper)...
        static let decoders = "png,mjpeg,webp,bmp,tiff,gif,libdav1d,libaom-av1,av1,libjxl,librsvg"
        /// ...and the only ones slicevid's own process runs: FFmpeg's own, which return errors.
        static let decodersHere = "png,mjpeg,webp,bmp,tiff,gif"

        /// Whether this build can decode the format: libheif's decoders for HEIC (and AVIF),
        /// libavcodec's for the rest.
        var isDecodable: Bool {
            switch self {
            case .heic: HEIFReader.decodesHEVC
            case .avif: HEIFReader.decodesAV1 || avcodec_find_decoder_by_name("libdav1d") != nil || avcodec_find_decoder_by_name("libaom-av1") != nil
            default: avcodec_find_decoder_by_name(decoder) != nil
            }
        }

        /// The libavcodec decoder that reads the format (HEIC's and AVIF's when FFmpeg reads them).
        private var decoder: String {
            switch self {
            case .png: "png"
            case .jpeg: "mjpeg"
            case .webp: "webp"
            case .bmp: "bmp"
            case .tiff: "tiff"
            case .gif: "gif"
            case .heic: "hevc"
            case .avif: "libdav1d"
            case .jpegXL: "libjxl"
            case .svg: "librsvg"
            }
        }

        /// The formats this build decodes, in a fixed order.
        static var accepted: [Format] { allCases.filter(\.isDecodable) }

        /// Their names as a user reads them: "PNG, JPEG, …, SVG".
        static var names: String { accepted.map(\.rawValue).joined(separator: ", ") }
    }

    /// The format its signature says, or nil for a file that does not start like an image.
    let format: Format?
    /// The picture size the header declares, or nil where it says nothing this reader knows
    /// (AVIF and JPEG XL: libavformat's stream parameters and the decoder's own limit check
    /// those before allocating).
    let size: (width: Int, height: Int)?
    /// A TIFF's first directory, which says what its strips must hold.
    let tiff: TIFFDirectory?
    /// A WebP's RIFF container: where the picture ends and whether its chunks fit.
    let webp: WebPContainer?

    init(reading file: InputFile) {
        let head = file.bytes(at: 0, count: 64)
        let format = Self.format(of: head) ?? (Self.isSVG(file) ? .svg : nil)
        self.format = format
        tiff = format == .tiff ? TIFFDirectory(reading: file) : nil
        webp = format == .webp ? WebPContainer(reading: file) : nil
        switch format {
        case .png: size = Self.pngSize(head)
        case .jpeg: size = Self.jpegSize(file)
        case .webp: size = Self.webpSize(head)
        case .bmp: size = Self.bmpSize(head)
        case .tiff: size = tiff.map { ($0.width, $0.height) }
        case .gif: size = head.count >= 10 ? (Int(head.le16(6)), Int(head.le16(8))) : nil
        case .heic, .avif, .jpegXL, .svg, nil: size = nil
        }
    }

    /// The format `head` (a file's first bytes) starts like; nil for none and for SVG, which is text.
    static func format(of head: [UInt8]) -> Format? {
        func starts(_ bytes: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + bytes.count && Array(head[offset..<offset + bytes.count]) == bytes
        }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return .webp }
        if starts(Array("BM".utf8)) { return .bmp }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return .tiff }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return .gif }
        if starts(Array("ftyp".utf8), at: 4) && (starts(Array("avif".utf8), at: 8) || starts(Array("avis".utf8), at: 8)) {
            return .avif
        }
        if starts(Array("ftyp".utf8), at: 4),
           ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1"].contains(where: { starts(Array($0.utf8), at: 8) }) {
            return .heic
        }
        if starts([0xFF, 0x0A]) || starts([0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]) { return .jpegXL }
        return nil
    }

    /// SVG text: `<svg` first (after blanks), or after an XML declaration or comment within
    /// the first 4 KB; what libavformat's SVG probe looks for.
    static func isSVG(_ file: InputFile) -> Bool {
        let text = String(decoding: file.bytes(at: 0, count: 4096), as: UTF8.self).drop { $0.isWhitespace }
        if text.hasPrefix("<svg") { return true }
        return (text.hasPrefix("<?xml") || text.hasPrefix("<!--")) && text.contains("<svg")
    }

    /// IHDR, which must be the first chunk: width and height, big-endian, at 16 and 20.
    private static func pngSize(_ head: [UInt8]) -> (width: Int, height: Int)? {
        guard head.count >= 24, Array(head[12..<16]) == Array("IHDR".utf8) else { return nil }
        return (Int(head.be32(16)), Int(head.be32(20)))
    }

    /// The first start-of-frame segment's size, found by walking the segments from the start.
    private static func jpegSize(_ file: InputFile) -> (width: Int, height: Int)? {
        var offset: Int64 = 2
        // Real files have a few dozen segments before the frame; a long walk is not a JPEG.
        for _ in 0..<1024 {
            let marker = file.bytes(at: offset, count: 9)
            guard marker.count >= 4, marker[0] == 0xFF else { return nil }
            let type = marker[1]
            if type == 0xFF { offset += 1; continue }                      // fill byte
            if (0xD0...0xD7).contains(type) || type == 0x01 { offset += 2; continue }  // no length
            if type == 0xD9 || type == 0xDA { return nil }                 // end, or scan before a frame
            let length = Int64(marker.be16(2))
            let isFrame = (0xC0...0xCF).contains(type) && ![0xC4, 0xC8, 0xCC].contains(type)
            if isFrame {
                guard marker.count >= 9 else { return nil }
                let height = Int(marker.be16(5)), width = Int(marker.be16(7))
                // A height of 0 is announced later (DNL): the decoder judges that one.
                return height > 0 ? (width, height) : nil
            }
            guard length >= 2 else { return nil }
            offset += 2 + length
        }
        return nil
    }

    /// The first chunk: lossy (VP8), lossless (VP8L) or extended (VP8X, the canvas size).
    private static func webpSize(_ head: [UInt8]) -> (width: Int, height: Int)? {
        guard head.count >= 30 else { return nil }
        switch String(decoding: head[12..<16], as: UTF8.self) {
        case "VP8 ":
            guard Array(head[23..<26]) == [0x9D, 0x01, 0x2A] else { return nil }
            return (Int(head.le16(26) & 0x3FFF), Int(head.le16(28) & 0x3FFF))
        case "VP8L":
            guard head[20] == 0x2F else { return nil }
            let bits = head.le32(21)
            return (Int(bits & 0x3FFF) + 1, Int((bits >> 14) & 0x3FFF) + 1)
        case "VP8X":
            return (Int(head.le24(24)) + 1, Int(head.le24(27)) + 1)
        default:
            return nil
        }
    }

    /// The DIB header's size: 16-bit in OS/2's 12-byte header, signed 32-bit (negative height:
    /// top-down rows) in the others.
    private static func bmpSize(_ head: [UInt8]) -> (width: Int, height: Int)? {
        guard head.count >= 26 else { return nil }
        if head.le32(14) == 12 { return (Int(head.le16(18)), Int(head.le16(20))) }
        let width = Int(Int32(bitPattern: head.le32(18))), height = Int(Int32(bitPattern: head.le32(22)))
        return (abs(width), abs(height))
    }
}

/// Unsigned integers read from header bytes, big- or little-endian.
extension Array where Element == UInt8 {
    func be16(_ i: Int) -> UInt16 { UInt16(self[i]) << 8 | UInt16(self[i + 1]) }
    func be32(_ i: Int) -> UInt32 { UInt32(be16(i)) << 16 | UInt32(be16(i + 2)) }
    func le16(_ i: Int) -> UInt16 { UInt16(self[i]) | UInt16(self[i + 1]) << 8 }
    func le24(_ i: Int) -> UInt32 { UInt32(self[i]) | UInt32(self[i + 1]) << 8 | UInt32(self[i + 2]) << 16 }
    func le32(_ i: Int) -> UInt32 { UInt32(le16(i)) | UInt32(le16(i + 2)) << 16 }
}
