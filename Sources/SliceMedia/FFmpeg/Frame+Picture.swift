// What a decoded picture says about itself: its layout in memory, how it must be turned to be
// seen upright, and how libswscale must read its colours.

import CFFmpeg
import Foundation
import SliceKit

extension Frame {
    /// The byte order when the picture is opaque packed 8-bit RGB, which the planar converter
    /// reads in place; nil for anything else (YUV, palettes, alpha, more than 8 bits).
    var packedOrder: PackedOrder? {
        switch pixelFormat {
        case AV_PIX_FMT_RGB24: .rgb
        case AV_PIX_FMT_BGR24: .bgr
        default: nil
        }
    }

    /// Whether the pixel format carries alpha.
    var hasAlphaChannel: Bool {
        (av_pix_fmt_desc_get(pixelFormat)?.pointee.flags ?? 0) & UInt64(AV_PIX_FMT_FLAG_ALPHA) != 0
    }

    /// How the decoder says the picture must be turned to be seen upright (a JPEG's EXIF
    /// orientation arrives as a display matrix, a WebP's as metadata); upright when it says
    /// nothing, or something that is not a quarter turn or a mirror.
    var orientation: Orientation {
        if let side = av_frame_get_side_data(pointer, AV_FRAME_DATA_DISPLAYMATRIX),
           side.pointee.size >= 9 * MemoryLayout<Int32>.size, let data = side.pointee.data {
            // The matrix is nine native-endian int32 in a byte buffer: loaded, not rebound.
            let m = { (i: Int) in UnsafeRawPointer(data).loadUnaligned(fromByteOffset: i * 4, as: Int32.self) }
            return Orientation(matrix: m(0), m(1), m(3), m(4)) ?? .upright
        }
        // WebP's decoder passes the EXIF tag on only as metadata (padded: "    6" from JPEG).
        if let entry = av_dict_get(pointer.pointee.metadata, "Orientation", nil, 0), let value = entry.pointee.value,
           let number = Int(String(cString: value).trimmingCharacters(in: .whitespaces)) {
            return Orientation(exif: number) ?? .upright
        }
        return .upright
    }

    /// The frame's pixel format and colour encoding as a `Scaler` source.
    ///
    /// YUV follows the frame's tags (the deprecated "J" formats become their plain twins, full
    /// range). RGB, palette and grey samples are full range and carry no matrix; they get the
    /// matrix of `.rgb`, because when libswscale resizes RGB to RGB it passes through YUV with the
    /// target's matrix one way and the source's the other, and a mismatch shifts every colour.
    var scalerSource: (format: AVPixelFormat, color: ColorEncoding) {
        var format = pixelFormat
        let descriptor = av_pix_fmt_desc_get(format)
        let flags = descriptor?.pointee.flags ?? 0
        if flags & UInt64(AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_PAL) != 0 { return (format, .rgb) }
        if (descriptor?.pointee.nb_components ?? 3) < 3 {
            return (format, ColorEncoding(matrix: ColorEncoding.rgb.matrix, fullRange: pointer.pointee.color_range != AVCOL_RANGE_MPEG))
        }
        var fullRange = pointer.pointee.color_range == AVCOL_RANGE_JPEG
        let jFormats: [(AVPixelFormat, AVPixelFormat)] = [
            (AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUV420P), (AV_PIX_FMT_YUVJ422P, AV_PIX_FMT_YUV422P),
            (AV_PIX_FMT_YUVJ444P, AV_PIX_FMT_YUV444P), (AV_PIX_FMT_YUVJ440P, AV_PIX_FMT_YUV440P),
            (AV_PIX_FMT_YUVJ411P, AV_PIX_FMT_YUV411P),
        ]
        if let match = jFormats.first(where: { $0.0 == format }) {
            format = match.1
            fullRange = true
        }
        return (format, ColorEncoding(matrix: Self.matrix(of: pointer.pointee.colorspace), fullRange: fullRange))
    }

    /// libswscale's matrix for a frame's colour-space tag. The tag's numbers are libswscale's
    /// `SWS_CS_*` (1 BT.709, 4 FCC, 5 and 6 BT.601, 7 SMPTE 240M, 9 BT.2020); an untagged
    /// picture, or one tagged with a matrix libswscale lacks, is read as BT.601, JPEG's.
    static func matrix(of colorspace: AVColorSpace) -> Int32 {
        switch colorspace {
        case AVCOL_SPC_BT709, AVCOL_SPC_FCC, AVCOL_SPC_BT470BG, AVCOL_SPC_SMPTE170M, AVCOL_SPC_SMPTE240M,
             AVCOL_SPC_BT2020_NCL, AVCOL_SPC_BT2020_CL:
            Int32(colorspace.rawValue)
        default:
            SWS_CS_DEFAULT
        }
    }

    /// Bits per sample of the picture's deepest component (8 for palettes).
    var bitDepth: Int {
        guard let descriptor = av_pix_fmt_desc_get(pixelFormat)?.pointee,
              descriptor.flags & UInt64(AV_PIX_FMT_FLAG_PAL) == 0 else { return 8 }
        let components = [descriptor.comp.0, descriptor.comp.1, descriptor.comp.2, descriptor.comp.3]
        return Int(components.prefix(Int(descriptor.nb_components)).map(\.depth).max() ?? 8)
    }

    /// Whether the picture is grey (one colour component, perhaps with alpha).
    var isGrey: Bool {
        guard let descriptor = av_pix_fmt_desc_get(pixelFormat)?.pointee else { return false }
        let alpha = descriptor.flags & UInt64(AV_PIX_FMT_FLAG_ALPHA) != 0 ? 1 : 0
        return descriptor.flags & UInt64(AV_PIX_FMT_FLAG_PAL) == 0 && Int(descriptor.nb_components) - alpha == 1
    }

    /// Whether any pixel is less than opaque (false without alpha): packed or planar, 8 or 16
    /// bits, or a palette with translucent colours in use.
    var hasTranslucentPixel: Bool {
        guard let descriptor = av_pix_fmt_desc_get(pixelFormat)?.pointee,
              descriptor.flags & UInt64(AV_PIX_FMT_FLAG_ALPHA) != 0 else { return false }
        let plane = planes(count: 2)
        if descriptor.flags & UInt64(AV_PIX_FMT_FLAG_PAL) != 0 {
            guard let indices = plane.data[0], let palette = plane.data[1] else { return false }
            // The palette is 256 native-endian 32-bit ARGB entries.
            let alphas = (0..<256).map { UnsafeRawPointer(palette).loadUnaligned(fromByteOffset: 4 * $0, as: UInt32.self) >> 24 }
            guard alphas.contains(where: { $0 < 255 }) else { return false }
            for y in 0..<height {
                let row = indices + y * Int(plane.strides[0])
                for x in 0..<width where alphas[Int(row[x])] < 255 { return true }
            }
            return false
        }
        let components = [descriptor.comp.0, descriptor.comp.1, descriptor.comp.2, descriptor.comp.3]
        let alpha = components[Int(descriptor.nb_components) - 1]
        let all = planes(count: Int(alpha.plane) + 1)
        guard let base = all.data[Int(alpha.plane)], alpha.depth <= 16 else { return false }
        let bigEndian = descriptor.flags & UInt64(AV_PIX_FMT_FLAG_BE) != 0
        let opaque = (1 << Int(alpha.depth)) - 1
        for y in 0..<height {
            let row = UnsafeRawPointer(base + y * Int(all.strides[Int(alpha.plane)]) + Int(alpha.offset))
            for x in 0..<width {
                let at = x * Int(alpha.step)
                let value: Int
                if alpha.depth <= 8 {
                    value = Int(row.load(fromByteOffset: at, as: UInt8.self))
                } else {
                    let word = row.loadUnaligned(fromByteOffset: at, as: UInt16.self)
                    value = Int(bigEndian ? UInt16(bigEndian: word) : UInt16(littleEndian: word)) >> Int(alpha.shift)
                }
                if value < opaque { return true }
            }
        }
        return false
    }
}
