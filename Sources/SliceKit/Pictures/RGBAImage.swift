// Interleaved 8-bit RGBA pictures: what decoded stills and demo cards are before they are
// converted, once, into the compositor's planar layout.

/// A packed RGBA picture, row-major, 4 bytes a pixel, no padding.
package struct RGBAImage: Sendable, Equatable {
    package let width: Int
    package let height: Int
    package var pixels: [UInt8]

    /// Creates an image filled with `color`.
    package init(width: Int, height: Int, color: RGBAColor = .black) {
        precondition(width > 0 && height > 0, "image size must be positive")
        self.width = width
        self.height = height
        // One pixel as a 32-bit word, repeated: the fill runs at memory speed.
        let word = UInt32(color.red) | UInt32(color.green) << 8 | UInt32(color.blue) << 16 | UInt32(color.alpha) << 24
        pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { buffer, count in
            UnsafeMutableRawPointer(buffer.baseAddress!).bindMemory(to: UInt32.self, capacity: width * height)
                .initialize(repeating: UInt32(littleEndian: word), count: width * height)
            count = width * height * 4
        }
    }

    /// Wraps existing pixels.
    /// - Precondition: `pixels.count == width * height * 4`.
    package init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height * 4, "RGBA buffer has the wrong size")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The pixel at (x, y).
    package subscript(x: Int, y: Int) -> RGBAColor {
        let i = 4 * (y * width + x)
        return RGBAColor(red: pixels[i], green: pixels[i + 1], blue: pixels[i + 2], alpha: pixels[i + 3])
    }

    /// This picture drawn centred on a `width` × `height` canvas of `background`: parts that
    /// stick out are cropped (cover), uncovered parts show the background (contain), and
    /// translucent pixels are blended over an opaque background ("source over").
    package func centred(onCanvasWidth canvasWidth: Int, height canvasHeight: Int, background: RGBAColor) -> RGBAImage {
        var canvas = RGBAImage(width: canvasWidth, height: canvasHeight, color: background)
        let offsetX = (canvasWidth - width) / 2
        let offsetY = (canvasHeight - height) / 2
        let x0 = max(0, offsetX), x1 = min(canvasWidth, offsetX + width)
        let y0 = max(0, offsetY), y1 = min(canvasHeight, offsetY + height)
        guard x0 < x1, y0 < y1 else { return canvas }
        let blend = background.alpha == 255
        let bg = [Int(background.red), Int(background.green), Int(background.blue)]
        let runBytes = 4 * (x1 - x0)
        pixels.withUnsafeBufferPointer { src in
            canvas.pixels.withUnsafeMutableBufferPointer { dst in
                for y in y0..<y1 {
                    let from = 4 * ((y - offsetY) * width + (x0 - offsetX))
                    let to = 4 * (y * canvasWidth + x0)
                    // Opaque rows (nearly every row of nearly every still) are one copy.
                    var opaque = true
                    var a = from + 3
                    while a < from + runBytes {
                        if src[a] != 255 { opaque = false; break }
                        a += 4
                    }
                    if !blend || opaque {
                        (dst.baseAddress! + to).update(from: src.baseAddress! + from, count: runBytes)
                        continue
                    }
                    var s = from, d = to
                    for _ in x0..<x1 {
                        let a = Int(src[s + 3])
                        if a == 255 {
                            dst[d] = src[s]; dst[d + 1] = src[s + 1]; dst[d + 2] = src[s + 2]; dst[d + 3] = 255
                        } else {
                            for c in 0..<3 {
                                dst[d + c] = UInt8((Int(src[s + c]) * a + bg[c] * (255 - a) + 127) / 255)
                            }
                            dst[d + 3] = 255
                        }
                        s += 4; d += 4
                    }
                }
            }
        }
        return canvas
    }
}
