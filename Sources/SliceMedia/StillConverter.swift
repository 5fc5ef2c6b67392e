// Turns an RGBA picture into the compositor's planar layout, once per still.

import CFFmpeg
import SliceKit

/// Converts RGBA stills (decoded or drawn) into planar images for the compositor.
public enum StillConverter {
    /// Converts `image` to `layout` at the same size: BT.709 limited range for YUV layouts,
    /// a plain de-interleave for RGB layouts.
    /// - Throws: `MediaError` if libswscale refuses the conversion.
    public static func planar(_ image: RGBAImage, layout: PixelLayout) throws(MediaError) -> PlanarImage {
        let target = PlanarImage(width: image.width, height: image.height, layout: layout)
        if !layout.isYUV {
            deinterleave(image, into: target)
            return target
        }
        let scaler = try Scaler(
            from: (image.width, image.height, AV_PIX_FMT_RGBA, .rgb),
            to: (image.width, image.height, layout.avPixelFormat, .videoBT709),
            flags: SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT)
        var pixels = image.pixels
        pixels.withUnsafeMutableBufferPointer { buffer in
            scaler.scale(PlanePointers(data: [buffer.baseAddress], strides: [Int32(image.width * 4)]),
                         into: target.planePointers)
        }
        if layout.hasAlpha { copyAlpha(image, into: target.planes[3]) }
        return target
    }

    /// RGBA → G, B, R(, A) planes: exact, no colour maths.
    private static func deinterleave(_ image: RGBAImage, into target: PlanarImage) {
        let order = [1, 2, 0, 3] // G, B, R, A as FFmpeg's gbrp/gbrap order them.
        image.pixels.withUnsafeBufferPointer { src in
            for (p, plane) in target.planes.enumerated() {
                let channel = order[p]
                for y in 0..<image.height {
                    let row = plane.row(y)
                    var s = y * image.width * 4 + channel
                    for x in 0..<image.width {
                        row[x] = src[s]
                        s += 4
                    }
                }
            }
        }
    }

    private static func copyAlpha(_ image: RGBAImage, into plane: Plane) {
        image.pixels.withUnsafeBufferPointer { src in
            for y in 0..<image.height {
                let row = plane.row(y)
                for x in 0..<image.width { row[x] = src[(y * image.width + x) * 4 + 3] }
            }
        }
    }
}
