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
        let matrix: Int32 = pointer.pointee.colorspace == AVCOL_SPC_BT709 ? SWS_CS_ITU709 : SWS_CS_DEFAULT
        return (format, ColorEncoding(matrix: matrix, fullRange: fullRange))
    }

    /// Whether any pixel of this packed 8-bit frame is less than opaque (false without alpha).
    var hasTranslucentPixel: Bool {
        guard let descriptor = av_pix_fmt_desc_get(pixelFormat),
              descriptor.pointee.flags & UInt64(AV_PIX_FMT_FLAG_ALPHA) != 0, descriptor.pointee.nb_components == 4,
              descriptor.pointee.flags & UInt64(AV_PIX_FMT_FLAG_PLANAR) == 0 else { return false }
        let alpha = descriptor.pointee.comp.3
        let plane = planes(count: 1)
        guard alpha.depth == 8, let base = plane.data[0] else { return false }
        for y in 0..<height {
            let row = base + y * Int(plane.strides[0]) + Int(alpha.offset)
            for x in 0..<width where row[x * Int(alpha.step)] < 255 { return true }
        }
        return false
    }
}
