// Test material for layers: premultiplied RGBA16 layers with opaque middles and translucent
// rims, frames built from straight RGBA, and what a layer over a frame should give, computed
// in doubles from the design (compose in RGB, then BT.709 limited range), not from the code
// under test.

import SliceKit

/// A straight-alpha RGBA picture in doubles (0…1), the reference's working form.
struct ReferencePicture {
    let width: Int, height: Int
    /// Per pixel: red, green, blue (straight), alpha.
    var pixels: [(r: Double, g: Double, b: Double, a: Double)]

    subscript(x x: Int, y y: Int) -> (r: Double, g: Double, b: Double, a: Double) {
        get { pixels[y * width + x] }
        set { pixels[y * width + x] = newValue }
    }
}

enum OverlayReference {
    /// A `width` × `height` layer: opaque in the middle, a two-pixel rim of alpha from 1/5 to
    /// 4/5, fully transparent corners; colours vary with every pixel. Premultiplied, 16 bits.
    static func layer(width: Int, height: Int, seed: Int = 3) -> RGBA16Image {
        let layer = RGBA16Image(width: width, height: height, hasAlpha: true)
        for y in 0..<height {
            for x in 0..<width {
                let rim = min(x, y, width - 1 - x, height - 1 - y)
                let corner = (x == 0 || x == width - 1) && (y == 0 || y == height - 1)
                let alpha = corner ? 0 : rim >= 2 ? 65535 : 13107 * (1 + rim + 2 * ((x + y + seed) % 2))
                let straight = [(x * 9001 + y * 4099 + seed * 77) % 65536, (x * 3571 + y * 15013 + 20000) % 65536,
                                (x * 27449 + y * 733 + seed * 5000) % 65536]
                for c in 0..<3 { layer.row(c, y)[x] = UInt16((straight[c] * alpha + 32767) / 65535) }
                layer.row(3, y)[x] = UInt16(alpha)
            }
        }
        return layer
    }

    /// A frame's picture: colour constant within each 2 × 2 block (so 4:2:0 chroma is one
    /// colour's), varying between blocks; alpha per pixel from `alpha` (0…255). Values are
    /// 8-bit ones × 257 unless `deep`, so an 8-bit layout holds them exactly.
    static func frame(width: Int, height: Int, deep: Bool, alpha: (Int, Int) -> Int = { _, _ in 255 }) -> RGBA16Image {
        let frame = RGBA16Image(width: width, height: height, hasAlpha: true)
        for y in 0..<height {
            for x in 0..<width {
                let bx = x / 2, by = y / 2
                let eight = [(bx * 37 + by * 11 + 20) % 256, (bx * 13 + by * 71 + 90) % 256, (bx * 101 + by * 29 + 160) % 256]
                for c in 0..<3 { frame.row(c, y)[x] = UInt16(deep ? min(65535, eight[c] * 257 + (bx * 31 + by * 17 + c * 7) % 200) : eight[c] * 257) }
                frame.row(3, y)[x] = UInt16(alpha(x, y) * 257)
            }
        }
        return frame
    }

    /// `picture` (straight if it has alpha, else opaque) in doubles.
    static func straight(_ picture: RGBA16Image) -> ReferencePicture {
        var pixels: [(r: Double, g: Double, b: Double, a: Double)] = []
        for y in 0..<picture.height {
            for x in 0..<picture.width {
                func v(_ c: Int) -> Double { Double(picture.row(c, y)[x]) / 65535 }
                pixels.append((v(0), v(1), v(2), picture.hasAlpha ? v(3) : 1))
            }
        }
        return ReferencePicture(width: picture.width, height: picture.height, pixels: pixels)
    }

    /// `layer` (premultiplied, at `opacity`) over `frame` (straight) at (`x`, `y`): the
    /// straight result per pixel, composed in RGB.
    static func composed(_ layer: RGBA16Image, x: Int, y: Int, opacity: Double, over frame: ReferencePicture) -> ReferencePicture {
        var result = frame
        for ly in 0..<layer.height {
            for lx in 0..<layer.width {
                let fx = x + lx, fy = y + ly
                guard fx >= 0, fy >= 0, fx < frame.width, fy < frame.height else { continue }
                let a = Double(layer.row(3, ly)[lx]) / 65535 * opacity
                let c = (0..<3).map { min(Double(layer.row($0, ly)[lx]) / 65535, Double(layer.row(3, ly)[lx]) / 65535) * opacity }
                let under = frame[x: fx, y: fy]
                let coverage = a + (1 - a) * under.a
                func mix(_ l: Double, _ d: Double) -> Double { coverage == 0 ? 0 : (l + (1 - a) * under.a * d) / coverage }
                result[x: fx, y: fy] = (mix(c[0], under.r), mix(c[1], under.g), mix(c[2], under.b), coverage)
            }
        }
        return result
    }

    /// The value plane `p` of `layout` should hold at sample (`sx`, `sy`) for `picture`, in
    /// the layout's units, or nil when any value would do (colour under alpha 0). Y'CbCr is
    /// BT.709 limited range; a 4:2:0 chroma sample is the mean over its 2 × 2 pixels (the last
    /// column or row standing in at an odd edge), weighted by alpha when the layout has alpha.
    static func expected(_ picture: ReferencePicture, layout: PixelLayout, plane p: Int, x sx: Int, y sy: Int) -> Double? {
        let scale = layout.isDeep ? 65535.0 : 255
        let s = layout.subsampling(ofPlane: p)
        let x0 = sx << s.x, y0 = sy << s.y
        let x1 = s.x == 1 && x0 + 1 < picture.width ? x0 + 1 : x0, y1 = s.y == 1 && y0 + 1 < picture.height ? y0 + 1 : y0
        let block = [picture[x: x0, y: y0], picture[x: x1, y: y0], picture[x: x0, y: y1], picture[x: x1, y: y1]]
        if p == 3 { return block[0].a * scale }
        let weights = block.map { layout.hasAlpha ? $0.a : 1 }
        let total = weights.reduce(0, +)
        guard total > 0 else { return nil }
        func mean(_ f: ((r: Double, g: Double, b: Double, a: Double)) -> Double) -> Double {
            zip(block, weights).map { f($0) * $1 }.reduce(0, +) / total
        }
        let r = mean(\.r), g = mean(\.g), b = mean(\.b)
        guard layout.isYUV else { return [g, b, r][p] * scale }
        let kr = 0.2126, kb = 0.0722, luma = kr * r + (1 - kr - kb) * g + kb * b
        let unit = layout.isDeep ? 256.0 : 1
        switch p {
        case 0: return (16 + 219 * luma) * unit
        case 1: return (128 + 224 * (b - luma) / (2 * (1 - kb))) * unit
        default: return (128 + 224 * (r - luma) / (2 * (1 - kr))) * unit
        }
    }

    /// Samples where `a` and `b` differ by more than `tolerance`, as "plane p (x, y): got vs
    /// expected" lines (at most `limit`), and how many there were.
    static func differences(_ got: PlanarImage, expected picture: ReferencePicture, tolerance: Double,
                            limit: Int = 5) -> (count: Int, lines: [String]) {
        var count = 0, lines: [String] = []
        for p in 0..<got.layout.planeCount {
            let plane = got.planes[p]
            for y in 0..<plane.height {
                for x in 0..<plane.width {
                    guard let want = expected(picture, layout: got.layout, plane: p, x: x, y: y) else { continue }
                    let have = got.sample(plane: p, x: x, y: y)
                    if abs(Double(have) - want.rounded()) > tolerance {
                        count += 1
                        if lines.count < limit { lines.append("plane \(p) (\(x), \(y)): \(have) vs \(want)") }
                    }
                }
            }
        }
        return (count, lines)
    }
}

extension PlanarImage {
    /// A copy with the same pixels.
    func duplicate() -> PlanarImage {
        let copy = PlanarImage(width: width, height: height, layout: layout)
        copy.copy(from: self)
        return copy
    }
}
