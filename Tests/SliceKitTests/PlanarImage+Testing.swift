// Helpers for building small planar pictures with a distinct value at every pixel, so a test
// can tell exactly which source pixel ended up where.

import SliceKit

extension PlanarImage {
    /// An image whose byte at (plane, x, y) is `pattern(plane, x, y)`.
    static func patterned(width: Int, height: Int, layout: PixelLayout, pattern: (Int, Int, Int) -> UInt8) -> PlanarImage {
        let image = PlanarImage(width: width, height: height, layout: layout)
        for (p, plane) in image.planes.enumerated() {
            for y in 0..<plane.height {
                for x in 0..<plane.width { plane.row(y)[x] = pattern(p, x, y) }
            }
        }
        return image
    }

    /// The byte at (x, y) of `plane`.
    func pixel(plane: Int, x: Int, y: Int) -> UInt8 {
        planes[plane].row(y)[x]
    }
}
