// The built-in demo pictures, drawn in code so `slicevid make --preset spring` needs no files.

import Foundation

/// Two distinct, colourful cards: a warm one to leave and a cool one to arrive.
package enum DemoCards {
    /// The outgoing demo card: a sunset gradient with a sun and horizon bands.
    package static func source(width: Int, height: Int) -> RGBAImage {
        draw(width: width, height: height) { u, v in
            // Gradient from orange (top) to magenta (bottom), a pale sun, dark bands below.
            var r = 255.0, g = 150 - 110 * v, b = 60 + 120 * v
            let dx = (u - 0.5) * Double(width) / Double(height), dy = v - 0.55
            if dx * dx + dy * dy < 0.06 { r = 255; g = 236; b = 170 }
            if v > 0.62, Int(v * 40) % 3 == 0 { r *= 0.45; g *= 0.35; b *= 0.55 }
            return (r, g, b)
        }
    }

    /// The incoming demo card: a teal-to-blue diagonal with a white diamond and a grid.
    package static func destination(width: Int, height: Int) -> RGBAImage {
        draw(width: width, height: height) { u, v in
            let t = (u + v) / 2
            var r = 20 + 40 * t, g = 200 - 120 * t, b = 190 + 60 * t
            let aspect = Double(width) / Double(height)
            if abs((u - 0.5) * aspect) + abs(v - 0.5) < 0.28 { r = 245; g = 250; b = 255 }
            if Int(u * 24) % 6 == 0 || Int(v * 14) % 6 == 0 { r *= 0.8; g *= 0.85; b *= 0.9 }
            return (r, g, b)
        }
    }

    private static func draw(width: Int, height: Int, shade: (Double, Double) -> (Double, Double, Double)) -> RGBAImage {
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let (r, g, b) = shade((Double(x) + 0.5) / Double(width), (Double(y) + 0.5) / Double(height))
                let i = 4 * (y * width + x)
                pixels[i] = UInt8(max(0, min(255, r)))
                pixels[i + 1] = UInt8(max(0, min(255, g)))
                pixels[i + 2] = UInt8(max(0, min(255, b)))
            }
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }
}
