// Colour through a coverage mask onto a premultiplied 16-bit picture: how a text layer's plate,
// shadow, outline and fill become pixels. Integer arithmetic with rounding, so the same masks
// give the same bytes everywhere.

import SliceKit

extension RGBA16Image {
    /// A transparent premultiplied picture (every sample 0) of `width` × `height`, with alpha.
    static func transparent(width: Int, height: Int) -> RGBA16Image {
        let image = RGBA16Image(width: width, height: height, hasAlpha: true)
        for plane in image.planes { plane.update(repeating: 0, count: image.stride * height) }
        return image
    }

    /// Paints `color` (straight alpha, sRGB) through `coverage` (row-major, this picture's
    /// size, 0 … 65535) over this premultiplied picture: source over, the source being the
    /// colour premultiplied by its alpha times the coverage.
    func paint(_ color: RGBAColor, coverage: [UInt16]) {
        precondition(hasAlpha && coverage.count == width * height, "a coverage per pixel of a picture with alpha")
        let alpha16 = UInt32(color.alpha) * 257
        let channels = [color.red, color.green, color.blue].map { UInt32($0) * 257 }
        guard alpha16 > 0 else { return }
        coverage.withUnsafeBufferPointer { coverage in
            for y in 0..<height {
                let covered = coverage.baseAddress! + y * width
                let (r, g, b, a) = (row(0, y), row(1, y), row(2, y), row(3, y))
                for x in 0..<width {
                    let m = UInt32(covered[x])
                    if m == 0 { continue }
                    let sourceAlpha = (alpha16 &* m &+ 32767) / 65535
                    let keep = 65535 &- sourceAlpha
                    func over(_ destination: UInt16, _ channel: UInt32) -> UInt16 {
                        let source = (channel &* sourceAlpha &+ 32767) / 65535
                        return UInt16(min(65535, source &+ (UInt32(destination) &* keep &+ 32767) / 65535))
                    }
                    let newAlpha = over(a[x], 65535)
                    // Rounding each channel apart could leave a colour a unit above its alpha.
                    r[x] = min(over(r[x], channels[0]), newAlpha)
                    g[x] = min(over(g[x], channels[1]), newAlpha)
                    b[x] = min(over(b[x], channels[2]), newAlpha)
                    a[x] = newAlpha
                }
            }
        }
    }
}
