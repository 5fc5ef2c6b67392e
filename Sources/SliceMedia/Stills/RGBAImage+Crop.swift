// Cutting the visible part out of a scaled still: the cover fit scales a window a few pixels
// larger than the frame (so its edges are filtered like the inside) and keeps the frame's part.

import SliceKit

extension RGBAImage {
    /// The `width` × `height` part of this picture whose top-left corner is (`x`, `y`).
    /// - Precondition: the part lies inside the picture.
    func cropped(x: Int, y: Int, width: Int, height: Int) -> RGBAImage {
        precondition(x >= 0 && y >= 0 && x + width <= self.width && y + height <= self.height, "crop outside the picture")
        if x == 0 && y == 0 && width == self.width && height == self.height { return self }
        let rowBytes = 4 * width
        let pixels = [UInt8](unsafeUninitializedCapacity: rowBytes * height) { target, count in
            self.pixels.withUnsafeBufferPointer { source in
                for row in 0..<height {
                    (target.baseAddress! + row * rowBytes)
                        .initialize(from: source.baseAddress! + 4 * ((y + row) * self.width + x), count: rowBytes)
                }
            }
            count = rowBytes * height
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }
}
