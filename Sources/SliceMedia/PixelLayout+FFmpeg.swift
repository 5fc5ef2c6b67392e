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
        }
    }

    /// Whether the planes hold Y'CbCr (as opposed to RGB).
    var isYUV: Bool {
        switch self {
        case .yuv420p, .yuva420p, .yuv444p: true
        case .gbrp, .gbrap: false
        }
    }

    /// The layout to render in so that an encoder taking `pixelFormat` gets everything it can
    /// store: RGB for RGB and palette formats, full chroma for 4:4:4 and 4:2:2, alpha when the
    /// format has it (ignored for palettes, whose transparency the caller decides). Deeper
    /// formats (10-bit) are fed from the 8-bit layout.
    /// - Returns: nil for a name FFmpeg does not know.
    package static func rendering(pixelFormat name: String, alpha: Bool? = nil) -> PixelLayout? {
        let format = av_get_pix_fmt(name)
        guard format != AV_PIX_FMT_NONE, let descriptor = av_pix_fmt_desc_get(format) else { return nil }
        let flags = descriptor.pointee.flags
        let isPalette = flags & UInt64(AV_PIX_FMT_FLAG_PAL) != 0
        let hasAlpha = alpha ?? (!isPalette && flags & UInt64(AV_PIX_FMT_FLAG_ALPHA) != 0)
        if isPalette || flags & UInt64(AV_PIX_FMT_FLAG_RGB) != 0 { return hasAlpha ? .gbrap : .gbrp }
        let fullChroma = descriptor.pointee.nb_components >= 3 && descriptor.pointee.log2_chroma_h == 0
        if fullChroma { return hasAlpha ? .gbrap : .yuv444p }
        return hasAlpha ? .yuva420p : .yuv420p
    }

    /// The one layout that feeds every layout in `layouts` without loss: RGB if any wants RGB,
    /// full chroma if any wants it, alpha if any wants it (there is no planar 4:4:4 YUV with
    /// alpha, so that case is rendered as RGB with alpha).
    package static func covering(_ layouts: [PixelLayout]) -> PixelLayout {
        let alpha = layouts.contains { $0.hasAlpha }
        let rgb = layouts.contains { !$0.isYUV }
        let fullChroma = rgb || layouts.contains { $0 == .yuv444p }
        if rgb || (fullChroma && alpha) { return alpha ? .gbrap : .gbrp }
        if fullChroma { return .yuv444p }
        return alpha ? .yuva420p : .yuv420p
    }
}

/// The name FFmpeg gives a pixel format (`yuv420p`, `rgb24`, …).
package func pixelFormatName(_ format: AVPixelFormat) -> String {
    guard let name = av_get_pix_fmt_name(format) else { return "unknown" }
    return String(cString: name)
}
