// The mapping between slicevid's planar layouts and FFmpeg's pixel formats.

import CFFmpeg
import SliceKit

extension PixelLayout {
    /// The FFmpeg pixel format with the same planes.
    public var avPixelFormat: AVPixelFormat {
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
}

/// The name FFmpeg gives a pixel format (`yuv420p`, `rgb24`, …).
public func pixelFormatName(_ format: AVPixelFormat) -> String {
    guard let name = av_get_pix_fmt_name(format) else { return "unknown" }
    return String(cString: name)
}
