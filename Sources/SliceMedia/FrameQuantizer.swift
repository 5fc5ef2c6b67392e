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
    /// - Returns: false when libswscale could not scale the picture (nothing is written then).
    func quantize(_ image: PlanarImage, with scaler: Scaler, into frame: UnsafeMutablePointer<AVFrame>) -> Bool {
        guard let indices = frame.pointee.data.0, let palette = frame.pointee.data.1 else { return false }
        let stride = Int(frame.pointee.linesize.0)
        let (width, height) = (self.width, self.height)
        let scaled = rgba.withUnsafeMutableBufferPointer { buffer -> Bool in
            guard let base = buffer.baseAddress,
                  scaler.scale(image.planePointers, into: PlanePointers(data: [base], strides: [Int32(width * 4)])) else { return false }
            mapper.map(rgba: base, rgbaStride: width * 4, width: width, height: height, into: indices, stride: stride)
            return true
        }
        guard scaled else { return false }
        entries.withUnsafeBytes { bytes in
            palette.update(from: bytes.bindMemory(to: UInt8.self).baseAddress!, count: bytes.count)
        }
        return true
    }
}
