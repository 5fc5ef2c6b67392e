// One libswscale context: converts (and optionally resizes) pictures between pixel formats
// with explicit colour matrices, so what we tag BT.709 really is BT.709.

import CFFmpeg
import SliceKit

/// How a picture's samples map to colour.
struct ColorEncoding: Equatable {
    /// `SWS_CS_ITU709`, `SWS_CS_ITU601`, …; ignored for RGB formats.
    var matrix: Int32
    /// Full range (0–255) rather than limited (16–235).
    var fullRange: Bool

    /// Limited-range BT.709: what every YUV output is tagged with.
    static let videoBT709 = ColorEncoding(matrix: SWS_CS_ITU709, fullRange: false)
    /// Full-range RGB.
    static let rgb = ColorEncoding(matrix: SWS_CS_ITU709, fullRange: true)
}

/// A picture's planes as libswscale takes them.
struct PlanePointers {
    var data: [UnsafeMutablePointer<UInt8>?]
    var strides: [Int32]
}

/// A libswscale context for one fixed conversion.
///
/// Not thread-safe (libswscale's contexts are not): each owner uses its own.
final class Scaler {
    private let context: OpaquePointer
    let sourceHeight: Int32

    /// - Parameters:
    ///   - flags: `SWS_BICUBIC` etc.; add `SWS_ACCURATE_RND` for one-off, quality conversions.
    /// - Throws: `MediaError` when libswscale refuses the conversion.
    init(from source: (width: Int, height: Int, format: AVPixelFormat, color: ColorEncoding),
         to target: (width: Int, height: Int, format: AVPixelFormat, color: ColorEncoding),
         flags: Int32) throws(MediaError) {
        guard let context = sws_getContext(Int32(source.width), Int32(source.height), source.format,
                                           Int32(target.width), Int32(target.height), target.format,
                                           flags, nil, nil, nil) else {
            throw MediaError(.output, subject: "libswscale",
                             message: "cannot convert \(pixelFormatName(source.format)) to \(pixelFormatName(target.format))")
        }
        self.context = context
        sourceHeight = Int32(source.height)
        let result = sws_setColorspaceDetails(context,
                                              sws_getCoefficients(source.color.matrix), source.color.fullRange ? 1 : 0,
                                              sws_getCoefficients(target.color.matrix), target.color.fullRange ? 1 : 0,
                                              0, 1 << 16, 1 << 16)
        // -1 means "not supported for this pair" (e.g. RGB → RGB): nothing to set then.
        _ = result
    }

    deinit { sws_freeContext(context) }

    /// Converts one whole picture.
    /// - Returns: whether libswscale wrote it (it returns the rows written, ≤ 0 on failure).
    @discardableResult
    func scale(_ source: PlanePointers, into target: PlanePointers) -> Bool {
        var srcData = source.data.map { UnsafePointer($0) }
        var srcStrides = source.strides
        var dstData = target.data
        var dstStrides = target.strides
        while srcData.count < 4 { srcData.append(nil); srcStrides.append(0) }
        while dstData.count < 4 { dstData.append(nil); dstStrides.append(0) }
        return sws_scale(context, srcData, srcStrides, 0, sourceHeight, dstData, dstStrides) > 0
    }
}

extension PlanarImage {
    /// The image's planes in the form libswscale takes.
    var planePointers: PlanePointers {
        PlanePointers(data: planes.map { $0.base }, strides: planes.map { Int32($0.stride) })
    }
}

/// The colour encoding of a planar layout as slicevid stores it.
extension ColorEncoding {
    static func of(_ layout: PixelLayout) -> ColorEncoding { layout.isYUV ? .videoBT709 : .rgb }
}
