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
    let targetHeight: Int32
    private let conversion: String

    /// The flags of a quality conversion that may resize: area averaging when the size changes
    /// (every source pixel counts when shrinking), bicubic otherwise; accurate rounding, and
    /// chroma interpolated at full resolution.
    static func qualityFlags(resizing: Bool) -> Int32 {
        (resizing ? SWS_AREA : SWS_BICUBIC) | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT
    }

    /// - Parameters:
    ///   - flags: `SWS_BICUBIC` etc.; add `SWS_ACCURATE_RND` for one-off, quality conversions.
    /// - Throws: `MediaError` when libswscale refuses the conversion.
    init(from source: (width: Int, height: Int, format: AVPixelFormat, color: ColorEncoding),
         to target: (width: Int, height: Int, format: AVPixelFormat, color: ColorEncoding),
         flags: Int32) throws(MediaError) {
        conversion = "\(pixelFormatName(source.format)) \(source.width)x\(source.height) to "
            + "\(pixelFormatName(target.format)) \(target.width)x\(target.height)"
        guard let sourceWidth = Int32(exactly: source.width), let sourceHeight = Int32(exactly: source.height),
              let targetWidth = Int32(exactly: target.width), let targetHeight = Int32(exactly: target.height),
              min(sourceWidth, sourceHeight, targetWidth, targetHeight) > 0,
              let context = sws_getContext(sourceWidth, sourceHeight, source.format, targetWidth, targetHeight, target.format,
                                           flags, nil, nil, nil) else {
            throw MediaError(.output, subject: "libswscale", message: "cannot convert \(conversion)")
        }
        self.context = context
        self.sourceHeight = sourceHeight
        self.targetHeight = targetHeight
        // Without the matrices and ranges the colours would silently be libswscale's defaults
        // (BT.601, limited range), so a refusal is an error, not a detail.
        let result = sws_setColorspaceDetails(context,
                                              sws_getCoefficients(source.color.matrix), source.color.fullRange ? 1 : 0,
                                              sws_getCoefficients(target.color.matrix), target.color.fullRange ? 1 : 0,
                                              0, 1 << 16, 1 << 16)
        guard result >= 0 else {
            sws_freeContext(context)
            throw MediaError(.output, subject: "libswscale", message: "cannot set the colour matrices to convert \(conversion)")
        }
    }

    deinit { sws_freeContext(context) }

    /// Converts one whole picture.
    /// - Throws: `MediaError` when libswscale did not write every row of the target.
    func scale(_ source: PlanePointers, into target: PlanePointers) throws(MediaError) {
        var srcData = source.data.map { UnsafePointer($0) }
        var srcStrides = source.strides
        var dstData = target.data
        var dstStrides = target.strides
        while srcData.count < 4 { srcData.append(nil); srcStrides.append(0) }
        while dstData.count < 4 { dstData.append(nil); dstStrides.append(0) }
        let rows = sws_scale(context, srcData, srcStrides, 0, sourceHeight, dstData, dstStrides)
        guard rows == targetHeight else {
            throw MediaError(.output, subject: "libswscale", message: "could not convert \(conversion)"
                             + (rows < 0 ? " (\(MediaError.text(for: rows)))" : ""))
        }
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
