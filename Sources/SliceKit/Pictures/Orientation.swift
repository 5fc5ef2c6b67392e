// How a still must be turned to be seen upright: the eight EXIF orientations (a phone photo is
// stored sideways and tagged "rotate 90° clockwise to view"). Applied once, to the decoded
// still, before it is fitted to the frame.

/// One of the eight axis-aligned transforms of a picture: a rotation by a multiple of 90°,
/// optionally mirrored. Written as where a source pixel (x, y) lands, in y-down coordinates:
/// `x' = a·x + c·y`, `y' = b·x + d·y` (then moved back onto the canvas), which is libavutil's
/// display-matrix convention.
package struct Orientation: Sendable, Equatable, CustomStringConvertible {
    package let a: Int, b: Int, c: Int, d: Int

    /// Upright already.
    package static let upright = Orientation(a: 1, b: 0, c: 0, d: 1)

    private init(a: Int, b: Int, c: Int, d: Int) {
        self.a = a
        self.b = b
        self.c = c
        self.d = d
    }

    /// The EXIF `Orientation` tag's value, 1…8; nil for anything else.
    package init?(exif value: Int) {
        switch value {
        case 1: self = .upright
        case 2: self.init(a: -1, b: 0, c: 0, d: 1)   // mirrored left to right
        case 3: self.init(a: -1, b: 0, c: 0, d: -1)  // upside down
        case 4: self.init(a: 1, b: 0, c: 0, d: -1)   // mirrored top to bottom
        case 5: self.init(a: 0, b: 1, c: 1, d: 0)    // transposed
        case 6: self.init(a: 0, b: 1, c: -1, d: 0)   // turn 90° clockwise to view
        case 7: self.init(a: 0, b: -1, c: -1, d: 0)  // transversed
        case 8: self.init(a: 0, b: -1, c: 1, d: 0)   // turn 90° counter-clockwise to view
        default: return nil
        }
    }

    /// From a display matrix's 2×2 part (libavutil's `a b; c d`, in any fixed-point scale):
    /// nil unless it is one of the eight axis-aligned transforms (a free rotation or a scale is
    /// not an orientation).
    package init?(matrix a: Int32, _ b: Int32, _ c: Int32, _ d: Int32) {
        func unit(_ v: Int32) -> Int? { v == 0 ? 0 : (v > 0 ? 1 : -1) }
        guard let a = unit(a), let b = unit(b), let c = unit(c), let d = unit(d),
              (a == 0) == (d == 0), (b == 0) == (c == 0), (a == 0) != (b == 0) else { return nil }
        self.init(a: a, b: b, c: c, d: d)
    }

    /// The EXIF value of this orientation.
    package var exifValue: Int { (1...8).first { Orientation(exif: $0) == self } ?? 1 }

    /// Whether width and height trade places.
    package var swapsSides: Bool { a == 0 }

    /// The size a `width` × `height` picture has once turned.
    package func turnedSize(width: Int, height: Int) -> (width: Int, height: Int) {
        swapsSides ? (height, width) : (width, height)
    }

    /// `image` turned upright.
    package func apply(to image: RGBAImage) -> RGBAImage {
        if self == .upright { return image }
        let (w, h) = turnedSize(width: image.width, height: image.height)
        // Where source (0, 0) lands, so every landing spot is on the canvas.
        let originX = (a < 0 || c < 0) ? w - 1 : 0
        let originY = (b < 0 || d < 0) ? h - 1 : 0
        var turned = RGBAImage(width: w, height: h)
        let width = image.width, height = image.height
        image.pixels.withUnsafeBytes { source in
            turned.pixels.withUnsafeMutableBytes { target in
                let src = source.bindMemory(to: UInt32.self), dst = target.bindMemory(to: UInt32.self)
                for y in 0..<height {
                    // Along a source row the target moves by (a, b) each pixel.
                    var tx = originX + c * y, ty = originY + d * y
                    let row = y * width
                    for x in 0..<width {
                        dst[ty * w + tx] = src[row + x]
                        tx += a
                        ty += b
                    }
                }
            }
        }
        return turned
    }

    package var description: String {
        switch exifValue {
        case 2: "mirrored"
        case 3: "rotated 180°"
        case 4: "flipped"
        case 5: "transposed"
        case 6: "rotated 90° clockwise"
        case 7: "transversed"
        case 8: "rotated 90° counter-clockwise"
        default: "upright"
        }
    }
}
