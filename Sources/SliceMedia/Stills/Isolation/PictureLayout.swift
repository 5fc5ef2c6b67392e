// Where a decoded picture's planes lie in the helper's answer. Both sides compute it from the
// pixel format and size alone, so the only numbers the parent takes from the helper are those
// three, checked first; the strides and offsets it maps are its own.

import CFFmpeg

/// The planes of a picture of one format and size, laid out as FFmpeg's own buffers are:
/// rows aligned to 64 bytes, and padding after each plane for libswscale's reads past a row.
struct PictureLayout: Equatable {
    /// One plane: where it starts (from the first plane's start), its row stride, its rows,
    /// and how many bytes of each row are picture.
    struct Plane: Equatable {
        var offset: Int, stride: Int, rows: Int, rowBytes: Int
    }

    let planes: [Plane]
    /// Bytes from the first plane's start to the end of the last plane's padding, a whole
    /// number of pages (the parent maps exactly this).
    let byteCount: Int

    /// FFmpeg's padding after a buffer (AV_INPUT_BUFFER_PADDING_SIZE), and its row alignment.
    private static let padding = 64, alignment = 64, page = 4096

    /// The layout of a `width` × `height` picture in `format`; nil for sizes outside the still
    /// limits and for formats that are not plain planes of samples (palettes, bitstreams,
    /// hardware frames, Bayer mosaics), which no isolated decoder delivers.
    init?(format: AVPixelFormat, width: Int, height: Int) {
        guard width > 0, height > 0, width <= StillLimits.maxSide, height <= StillLimits.maxSide,
              width * height <= StillLimits.maxPixels,
              let descriptor = av_pix_fmt_desc_get(format)?.pointee, descriptor.nb_components > 0 else { return nil }
        let excluded = AV_PIX_FMT_FLAG_PAL | AV_PIX_FMT_FLAG_BITSTREAM | AV_PIX_FMT_FLAG_HWACCEL | AV_PIX_FMT_FLAG_BAYER
        guard descriptor.flags & UInt64(excluded) == 0 else { return nil }
        var lines: (Int32, Int32, Int32, Int32) = (0, 0, 0, 0)
        let filled = withUnsafeMutableBytes(of: &lines) { raw in
            av_image_fill_linesizes(raw.baseAddress!.assumingMemoryBound(to: Int32.self), format, Int32(width))
        }
        guard filled >= 0 else { return nil }
        let components = [descriptor.comp.0, descriptor.comp.1, descriptor.comp.2, descriptor.comp.3]
        let count = Int(components.prefix(Int(descriptor.nb_components)).map(\.plane).max() ?? 0) + 1
        let rowBytes = [lines.0, lines.1, lines.2, lines.3].prefix(count).map(Int.init)
        var planes: [Plane] = []
        var offset = 0
        for (index, bytes) in rowBytes.enumerated() {
            guard bytes > 0 else { return nil }
            let chroma = index == 1 || index == 2
            // AV_CEIL_RSHIFT: a 4:2:0 picture of odd height has (height + 1) / 2 chroma rows.
            let rows = chroma ? -((-height) >> Int(descriptor.log2_chroma_h)) : height
            let stride = (bytes + Self.alignment - 1) / Self.alignment * Self.alignment
            planes.append(Plane(offset: offset, stride: stride, rows: rows, rowBytes: bytes))
            offset += (stride * rows + Self.padding + Self.alignment - 1) / Self.alignment * Self.alignment
        }
        self.planes = planes
        byteCount = (offset + Self.page - 1) / Self.page * Self.page
    }
}
