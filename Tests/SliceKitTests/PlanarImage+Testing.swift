// Helpers for building small planar pictures with a distinct value at every pixel, so a test
// can tell exactly which source pixel ended up where. In 16-bit layouts the pattern sets each
// byte of every sample.

import SliceKit

extension PlanarImage {
    /// An image whose byte at (plane, x, y) is `pattern(plane, x, y)`, x counting bytes.
    static func patterned(width: Int, height: Int, layout: PixelLayout, pattern: (Int, Int, Int) -> UInt8) -> PlanarImage {
        let image = PlanarImage(width: width, height: height, layout: layout)
        for (p, plane) in image.planes.enumerated() {
            for y in 0..<plane.height {
                for x in 0..<plane.rowBytes { plane.row(y)[x] = pattern(p, x, y) }
            }
        }
        return image
    }

    /// Sets the sample at (x, y) of `plane`, whatever its size.
    func setSample(plane p: Int, x: Int, y: Int, _ value: Int) {
        if layout.isDeep {
            planes[p].row16(y)[x] = UInt16(truncatingIfNeeded: value).littleEndian
        } else {
            planes[p].row(y)[x] = UInt8(truncatingIfNeeded: value)
        }
    }

    /// The byte at (x, y) of `plane`.
    func pixel(plane: Int, x: Int, y: Int) -> UInt8 {
        planes[plane].row(y)[x]
    }
}
