// Which process decodes a still, told from its first bytes before any decoder sees it: the
// formats whose decoders can abort or allocate without bound go to the helper; FFmpeg's own
// decoders, which return errors, stay here.

import CFFmpeg

/// Where a still is decoded.
enum StillRoute: Equatable {
    /// In this process: PNG, JPEG, WebP, BMP, TIFF, GIF (FFmpeg's native decoders).
    case here
    /// In a decode helper; `format` names it in messages ("SVG", "HEIC", …).
    case helper(format: String)

    /// The route of `file`, by its signature: SVG text and gzip (an SVGZ), JPEG XL, HEIC and
    /// AVIF go to the helper; as a still, so does every other ISO-BMFF file (HEIF's kin, which
    /// libheif reads), but not for `probe` (`probing`), which reads MP4 and MOV videos here.
    init(_ file: InputFile, probing: Bool = false) {
        let head = file.bytes(at: 0, count: 64)
        switch StillHeader.format(of: head) {
        case .heic: self = .helper(format: "HEIC")
        case .avif: self = .helper(format: "AVIF")
        case .jpegXL: self = .helper(format: "JPEG XL")
        case .png, .jpeg, .webp, .bmp, .tiff, .gif: self = .here
        case .svg, nil:
            if !probing, head.count >= 8, Array(head[4..<8]) == Array("ftyp".utf8) {
                self = .helper(format: "HEIF")
            } else if head.count >= 2, head[0] == 0x1F, head[1] == 0x8B {
                self = .helper(format: "SVG")
            } else if StillHeader.isSVG(file) {
                self = .helper(format: "SVG")
            } else {
                self = .here
            }
        }
    }

    /// Whether `codec` may only run in a helper: a file that reached this process's decoder
    /// by its name alone (`x.svg` that does not start like SVG) is handed over instead.
    static func needsHelper(_ codec: AVCodecID) -> Bool {
        [AV_CODEC_ID_SVG, AV_CODEC_ID_JPEGXL, AV_CODEC_ID_AV1, AV_CODEC_ID_HEVC].contains(codec)
    }

    /// Whether reading a stream of `codec` for `probe` decodes with a library that can abort
    /// or write to standard error itself (librsvg, libjxl): such a file is read in a helper.
    static func needsHelperToProbe(_ codec: AVCodecID) -> Bool {
        [AV_CODEC_ID_SVG, AV_CODEC_ID_JPEGXL].contains(codec)
    }

    /// The decoder's words for messages about a helper that died: which library it ran.
    static func decoderName(_ format: String) -> String {
        switch format {
        case "SVG": "the SVG decoder (librsvg)"
        case "HEIC", "HEIF": "the HEIF decoder (libheif)"
        case "AVIF": "the AVIF decoder (libheif)"
        case "JPEG XL": "the JPEG XL decoder (libjxl)"
        default: "the \(format) decoder"
        }
    }
}
