// The mapping between slicevid's planar layouts and FFmpeg's pixel formats.

import CFFmpeg
import SliceKit

extension PixelLayout {
    /// The FFmpeg pixel format with the same planes.
    package var avPixelFormat: AVPixelFormat {
        switch self {
        case .yuv420p: AV_PIX_FMT_YUV420P
        case .yuva420p: AV_PIX_FMT_YUVA420P
        case .yuv444p: AV_PIX_FMT_YUV444P
        case .gbrp: AV_PIX_FMT_GBRP
        case .gbrap: AV_PIX_FMT_GBRAP
        case .yuv420p16: AV_PIX_FMT_YUV420P16LE
        case .yuva420p16: AV_PIX_FMT_YUVA420P16LE
        case .yuv444p16: AV_PIX_FMT_YUV444P16LE
        case .gbrp16: AV_PIX_FMT_GBRP16LE
        case .gbrap16: AV_PIX_FMT_GBRAP16LE
        }
    }

    /// The layout to render in so that an encoder taking `pixelFormat` gets everything it can
    /// store: RGB for RGB and palette formats, full chroma for 4:4:4 and 4:2:2, alpha when the
    /// format has it (ignored for palettes, whose transparency the caller decides), and 16-bit
    /// samples when the format has more than 8 bits (10-bit video, ProRes, 16-bit PNG and FFV1).
    /// - Returns: nil for a name FFmpeg does not know.
    package static func rendering(pixelFormat name: String, alpha: Bool? = nil) -> PixelLayout? {
        let format = av_get_pix_fmt(name)
        guard format != AV_PIX_FMT_NONE, let descriptor = av_pix_fmt_desc_get(format) else { return nil }
        let flags = descriptor.pointee.flags
        let isPalette = flags & UInt64(AV_PIX_FMT_FLAG_PAL) != 0
        let hasAlpha = alpha ?? (!isPalette && flags & UInt64(AV_PIX_FMT_FLAG_ALPHA) != 0)
        let layout: PixelLayout
        if isPalette || flags & UInt64(AV_PIX_FMT_FLAG_RGB) != 0 {
            layout = hasAlpha ? .gbrap : .gbrp
        } else if descriptor.pointee.nb_components >= 3 && descriptor.pointee.log2_chroma_h == 0 {
            layout = hasAlpha ? .gbrap : .yuv444p
        } else {
            layout = hasAlpha ? .yuva420p : .yuv420p
        }
        return !isPalette && descriptor.pointee.comp.0.depth > 8 ? layout.sixteenBit : layout
    }

    /// The one layout that feeds every layout in `layouts` without loss: RGB if any wants RGB,
    /// full chroma if any wants it, alpha if any wants it (there is no planar 4:4:4 YUV with
    /// alpha, so that case is rendered as RGB with alpha), 16-bit samples if any wants more
    /// than 8 bits; 8-bit otherwise, today's fast path.
    package static func covering(_ layouts: [PixelLayout]) -> PixelLayout {
        let alpha = layouts.contains { $0.hasAlpha }
        let rgb = layouts.contains { !$0.isYUV }
        let fullChroma = rgb || layouts.contains { $0.eightBit == .yuv444p }
        let layout: PixelLayout
        if rgb || (fullChroma && alpha) {
            layout = alpha ? .gbrap : .gbrp
        } else if fullChroma {
            layout = .yuv444p
        } else {
            layout = alpha ? .yuva420p : .yuv420p
        }
        return layouts.contains(where: \.isDeep) ? layout.sixteenBit : layout
    }
}

/// The name FFmpeg gives a pixel format (`yuv420p`, `rgb24`, …).
package func pixelFormatName(_ format: AVPixelFormat) -> String {
    guard let name = av_get_pix_fmt_name(format) else { return "unknown" }
    return String(cString: name)
}
