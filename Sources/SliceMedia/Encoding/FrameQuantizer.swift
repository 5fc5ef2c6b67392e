// Turns a rendered frame into a GIF's PAL8 frame: scaled (and converted to RGBA) by libswscale,
// then mapped onto the clip's palette in Swift. libavcodec's GIF encoder takes the palette from
// the frame's second plane.

import CFFmpeg
import SliceKit

/// Fills PAL8 frames from planar renders. One per GIF writer; not thread-safe.
final class FrameQuantizer {
    private let mapper: PaletteMapper
    private let entries: [UInt32]
    private var rgba: [UInt8]
    private let width: Int
    private let height: Int

    /// - Parameters:
    ///   - palette: the clip's colours.
    ///   - width: the GIF's width; `height` likewise.
    init(palette: Palette, width: Int, height: Int) {
        mapper = PaletteMapper(palette: palette)
        entries = palette.argbEntries
        rgba = [UInt8](repeating: 0, count: width * height * 4)
        self.width = width
        self.height = height
    }

    /// Scales `image` with `scaler` (which must produce RGBA at the GIF's size) and writes its
    /// palette indices and the palette into `frame`.
    /// - Throws: `MediaError` when libswscale could not scale the picture or the frame has no
    ///   PAL8 planes (nothing is written then).
    func quantize(_ image: PlanarImage, with scaler: Scaler, into frame: Frame) throws(MediaError) {
        let planes = frame.planes(count: 2)
        guard let indices = planes.data[0], let palette = planes.data[1] else {
            throw MediaError(.output, subject: "GIF", message: "the frame has no palette planes")
        }
        let stride = Int(planes.strides[0])
        let (width, height) = (self.width, self.height)
        try rgba.withUnsafeMutableBufferPointer { (buffer) throws(MediaError) in
            let base = buffer.baseAddress!
            try scaler.scale(image.planePointers, into: PlanePointers(data: [base], strides: [Int32(width * 4)]))
            mapper.map(rgba: base, rgbaStride: width * 4, width: width, height: height, into: indices, stride: stride)
        }
        // The palette plane takes the ARGB entries as bytes, copied without rebinding them.
        entries.withUnsafeBytes { bytes in
            UnsafeMutableRawPointer(palette).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
        }
    }
}
