// A still between decoding and the render layout when 8 bits are not enough: more than 8 bits
// in or out, or alpha to be scaled premultiplied. Planar 16-bit R, G, B (and A), one plane
// after another with one stride, which is both Little CMS's planar layout and (with the plane
// pointers reordered) libswscale's GBR(A)P16.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A 16-bit RGB(A) picture in planes: R, G, B, then A when it has alpha. Samples are full
/// range, 0…65535 (an 8-bit value v is v × 257).
///
/// Not thread-safe: one decode owns it.
package final class RGBA16Image {
    package let width: Int
    package let height: Int
    package let hasAlpha: Bool
    /// Samples from one row to the next, in every plane.
    package let stride: Int
    /// The first sample of each plane, R, G, B(, A).
    package let planes: [UnsafeMutablePointer<UInt16>]
    private let storage: UnsafeMutableRawPointer

    /// Allocates a picture; its samples are undefined until written.
    package init(width: Int, height: Int, hasAlpha: Bool) {
        precondition(width > 0 && height > 0, "image size must be positive")
        self.width = width
        self.height = height
        self.hasAlpha = hasAlpha
        // 64-byte rows, and 64 spare bytes at the end: libswscale reads and writes in vectors.
        let stride = (width + 31) & ~31, planeCount = hasAlpha ? 4 : 3
        self.stride = stride
        storage = PlanarImage.allocate(planeCount * stride * height * 2 + 64)
        let samples = storage.bindMemory(to: UInt16.self, capacity: planeCount * stride * height)
        planes = (0..<planeCount).map { samples + $0 * stride * height }
    }

    deinit { free(storage) }

    /// Bytes between planes: what Little CMS calls BytesPerPlane.
    package var planeBytes: Int { stride * height * 2 }

    /// The start of row `y` of plane `c` (0 R, 1 G, 2 B, 3 A).
    @inline(__always)
    package func row(_ c: Int, _ y: Int) -> UnsafeMutablePointer<UInt16> { planes[c] + y * stride }

    /// `image` with every sample × 257 (exact: 255 becomes 65535); alpha kept only when
    /// `alpha` is set, else the picture is opaque.
    package convenience init(expanding image: RGBAImage, alpha: Bool) {
        self.init(width: image.width, height: image.height, hasAlpha: alpha)
        expand(image, atRow: 0)
    }

    /// Writes `image` (as wide as this picture) × 257 into rows `top` onward: R, G, B, and A
    /// if this picture has alpha.
    package func expand(_ image: RGBAImage, atRow top: Int) {
        precondition(image.width == width && top >= 0 && top + image.height <= height, "the rows must fit")
        let channels = hasAlpha ? 4 : 3
        image.pixels.withUnsafeBufferPointer { source in
            for y in 0..<image.height {
                let from = source.baseAddress! + 4 * width * y
                for c in 0..<channels {
                    let to = row(c, top + y)
                    for x in 0..<width { to[x] = UInt16(from[4 &* x &+ c]) &* 257 }
                }
            }
        }
    }

    /// This picture in 8 bits, each sample rounded to the nearest 8-bit value
    /// ((v × 255 + 32895) >> 16, the exact inverse of × 257); opaque without alpha.
    package func reduced() -> RGBAImage {
        var result = RGBAImage(width: width, height: height, color: RGBAColor(red: 0, green: 0, blue: 0))
        result.pixels.withUnsafeMutableBufferPointer { target in
            for y in 0..<height {
                let to = target.baseAddress! + 4 * width * y
                for c in 0..<planes.count {
                    let from = row(c, y)
                    for x in 0..<width { to[4 &* x &+ c] = Self.eightBit(from[x]) }
                }
            }
        }
        return result
    }

    /// The 8-bit value nearest to a 16-bit one.
    @inline(__always)
    package static func eightBit(_ value: UInt16) -> UInt8 {
        UInt8(truncatingIfNeeded: (UInt32(value) &* 255 &+ 32895) >> 16)
    }

    /// The `width` × `height` part whose top-left corner is (`x`, `y`).
    /// - Precondition: the part lies inside the picture.
    package func cropped(x: Int, y: Int, width: Int, height: Int) -> RGBA16Image {
        precondition(x >= 0 && y >= 0 && x + width <= self.width && y + height <= self.height, "crop outside the picture")
        if x == 0 && y == 0 && width == self.width && height == self.height { return self }
        let part = RGBA16Image(width: width, height: height, hasAlpha: hasAlpha)
        for c in 0..<planes.count {
            for r in 0..<height { part.row(c, r).update(from: row(c, y + r) + x, count: width) }
        }
        return part
    }

    /// This picture turned upright by `orientation` (see `Orientation.apply`).
    package func turned(_ orientation: Orientation) -> RGBA16Image {
        if orientation == .upright { return self }
        let (w, h) = orientation.turnedSize(width: width, height: height)
        let (a, b, c, d) = (orientation.a, orientation.b, orientation.c, orientation.d)
        let originX = (a < 0 || c < 0) ? w - 1 : 0
        let originY = (b < 0 || d < 0) ? h - 1 : 0
        let turned = RGBA16Image(width: w, height: h, hasAlpha: hasAlpha)
        for plane in 0..<planes.count {
            let target = turned.planes[plane]
            for y in 0..<height {
                // Along a source row the target moves by (a, b) each pixel.
                var tx = originX + c * y, ty = originY + d * y
                let from = row(plane, y)
                for x in 0..<width {
                    target[ty * turned.stride + tx] = from[x]
                    tx += a
                    ty += b
                }
            }
        }
        return turned
    }
}
