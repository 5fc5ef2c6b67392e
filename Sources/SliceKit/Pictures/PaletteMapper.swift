// Turns RGBA pixels into palette indices for a GIF frame. Colours the palette holds exactly
// stay exact; the rest get an 8×8 ordered (Bayer) dither. Ordered rather than error-diffusion
// dithering because it depends on the pixel alone: a region that does not change between frames
// maps to the same indices every frame, so strips moving over a still background do not make
// the whole picture shimmer, and the GIF encoder can skip the unchanged pixels.

/// Maps RGBA pictures onto one palette.
///
/// Not thread-safe: it caches nearest-colour answers as it goes. One per GIF writer.
package final class PaletteMapper {
    package let palette: Palette
    private let exact: [UInt32: UInt8]
    private let entries: [(r: Int, g: Int, b: Int)]
    /// Nearest entry for each 6-bit-a-channel cell, filled on first use (0xFFFF = not yet).
    private var nearestCache: [UInt16]

    /// The 8×8 Bayer matrix as offsets of about ±8 levels: enough to break up banding between
    /// palette colours of a photo, too little to speckle flat areas.
    private static let bayer: [Int] = {
        let matrix = [0, 32, 8, 40, 2, 34, 10, 42, 48, 16, 56, 24, 50, 18, 58, 26,
                      12, 44, 4, 36, 14, 46, 6, 38, 60, 28, 52, 20, 62, 30, 54, 22,
                      3, 35, 11, 43, 1, 33, 9, 41, 51, 19, 59, 27, 49, 17, 57, 25,
                      15, 47, 7, 39, 13, 45, 5, 37, 63, 31, 55, 23, 61, 29, 53, 21]
        return matrix.map { ($0 * 2 - 63) >> 3 }
    }()

    package init(palette: Palette) {
        self.palette = palette
        var exact: [UInt32: UInt8] = [:]
        for (i, color) in palette.colors.enumerated() where exact[color.rgbKey] == nil { exact[color.rgbKey] = UInt8(i) }
        self.exact = exact
        entries = palette.colors.map { (Int($0.red), Int($0.green), Int($0.blue)) }
        nearestCache = [UInt16](repeating: 0xFFFF, count: 1 << 18)
    }

    /// Maps `width` × `height` RGBA pixels to indices.
    /// - Parameters:
    ///   - rgba: the first pixel; rows `rgbaStride` bytes apart.
    ///   - indices: where index rows go, `stride` bytes apart.
    package func map(rgba: UnsafePointer<UInt8>, rgbaStride: Int, width: Int, height: Int,
                    into indices: UnsafeMutablePointer<UInt8>, stride: Int) {
        let transparent = palette.transparentIndex.map(UInt8.init)
        for y in 0..<height {
            let source = rgba + y * rgbaStride
            let target = indices + y * stride
            let ditherRow = (y & 7) << 3
            for x in 0..<width {
                let p = source + 4 * x
                if let transparent, p[3] < 128 {
                    target[x] = transparent
                    continue
                }
                let r = Int(p[0]), g = Int(p[1]), b = Int(p[2])
                if let index = exact[UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b)] {
                    target[x] = index
                    continue
                }
                let d = PaletteMapper.bayer[ditherRow | (x & 7)]
                target[x] = nearest(clamp(r + d), clamp(g + d), clamp(b + d))
            }
        }
    }

    /// The index of the palette entry nearest to a colour, weighting green most and blue least
    /// as the eye does; answers are shared by every colour of a 4×4×4 cell.
    private func nearest(_ r: Int, _ g: Int, _ b: Int) -> UInt8 {
        let cell = (r >> 2) << 12 | (g >> 2) << 6 | (b >> 2)
        let cached = nearestCache[cell]
        if cached != 0xFFFF { return UInt8(cached) }
        let cr = (r & ~3) + 2, cg = (g & ~3) + 2, cb = (b & ~3) + 2
        var best = 0, bestDistance = Int.max
        for (i, e) in entries.enumerated() {
            let dr = cr - e.r, dg = cg - e.g, db = cb - e.b
            let distance = 3 * dr * dr + 4 * dg * dg + 2 * db * db
            if distance < bestDistance { bestDistance = distance; best = i }
        }
        nearestCache[cell] = UInt16(best)
        return UInt8(best)
    }

    @inline(__always)
    private func clamp(_ v: Int) -> Int { min(255, max(0, v)) }
}
