// One plane's share of a `FrameOverlay`, prepared once: the runs of samples the layer covers
// and, for each, its premultiplied value in the plane's units and what of the frame shows
// through it. Exact integer maths from the layer's 16-bit samples.

/// What an overlay does to one plane.
struct OverlayPlane: Sendable {
    /// Consecutive samples of one plane row the layer covers; their prepared values start at
    /// `start` in `pre` and `keep`.
    struct Run: Sendable {
        let y: Int
        let x: Int
        let count: Int
        let start: Int
    }

    let runs: [Run]
    /// The layer's premultiplied value × 2¹⁶ in the plane's units (a whole value, × 2¹⁶,
    /// where the layer is opaque).
    let pre: [UInt32]
    /// 1 − the layer's alpha, × 2¹⁶ for 8-bit layouts and × 2²⁴ for 16-bit ones.
    let keep: [UInt32]
    /// Chroma of 4:2:0 layouts with alpha: `keep` of each of the four pixels a sample covers,
    /// four per sample, to weigh the frame's own alpha pixel by pixel.
    let pixelKeeps: [UInt32]

    static let empty = OverlayPlane(runs: [], pre: [], keep: [], pixelKeeps: [])

    /// Transparent samples between two covered ones that still join one run: drawing them
    /// leaves the frame exactly as it is, and is cheaper than starting a new run.
    static let joinedGap = 8

    private init(runs: [Run], pre: [UInt32], keep: [UInt32], pixelKeeps: [UInt32]) {
        self.runs = runs
        self.pre = pre
        self.keep = keep
        self.pixelKeeps = pixelKeeps
    }

    /// Plane `p` of `layout` for the layer `source`.
    init(_ source: LayerSamples, plane p: Int, layout: PixelLayout) {
        let maths = PlaneMaths(layout: layout, plane: p)
        let s = layout.subsampling(ofPlane: p)
        let keepShift = layout.isDeep ? 24 : 16
        // Every sample is read as n pixels (the converters' rule): 4 for 4:2:0 chroma, at an odd
        // edge the last column or row standing in for the missing one.
        let n = 1 << (s.x + s.y)
        let perPixel = layout.hasAlpha && p < 3 && n > 1
        let whole = 65535 * n
        // The value × 2¹⁶ is num / (den >> 16); the whole value num / den.
        let den = (65535 * maths.divisor * n) << maths.shift
        let box = source.box
        let (width, height) = (source.frameWidth, source.frameHeight)
        var runs: [Run] = [], pre: [UInt32] = [], keep: [UInt32] = [], pixelKeeps: [UInt32] = []
        func keepOf(_ alpha: Int, count: Int) -> UInt32 {
            UInt32(((count * 65535 - alpha) << keepShift + count * 65535 / 2) / (count * 65535))
        }
        for py in (box.y0 >> s.y)...((box.y1 - 1) >> s.y) {
            let y0 = py << s.y, y1 = s.y == 1 && y0 + 1 < height ? y0 + 1 : y0
            var runX = -1, runStart = 0, last = -1
            for px in (box.x0 >> s.x)...((box.x1 - 1) >> s.x) {
                let x0 = px << s.x, x1 = s.x == 1 && x0 + 1 < width ? x0 + 1 : x0
                // The pixels the sample covers (one, or the 2 × 2 block), without an allocation.
                let p0 = source.at(x0, y0)
                let (p1, p2, p3) = n == 1 ? (p0, p0, p0) : (source.at(x1, y0), source.at(x0, y1), source.at(x1, y1))
                let a = n == 1 ? p0.a : p0.a + p1.a + p2.a + p3.a
                let r = n == 1 ? p0.r : p0.r + p1.r + p2.r + p3.r
                let g = n == 1 ? p0.g : p0.g + p1.g + p2.g + p3.g
                let b = n == 1 ? p0.b : p0.b + p1.b + p2.b + p3.b
                guard a > 0 else { continue }
                if runX >= 0 && px - last - 1 <= Self.joinedGap {
                    for _ in (last + 1)..<px {
                        pre.append(0)
                        keep.append(UInt32(1 << keepShift))
                        if perPixel { pixelKeeps.append(contentsOf: repeatElement(UInt32(1 << keepShift), count: 4)) }
                    }
                } else {
                    if runX >= 0 { runs.append(Run(y: py, x: runX, count: last - runX + 1, start: runStart)) }
                    runX = px
                    runStart = pre.count
                }
                let num = max(0, ((maths.offset * a * maths.divisor) << maths.shift)
                                 + 65535 * (maths.red * r + maths.green * g + maths.blue * b))
                // Opaque: rounded once to the whole value, as converting the layer's colour would.
                let value = a == whole ? ((num + den / 2) / den) << 16 : (num + (den >> 17)) / (den >> 16)
                pre.append(UInt32(min(value, maths.maximum << 16)))
                keep.append(keepOf(a, count: n))
                if perPixel {
                    for pixel in [p0, p1, p2, p3] { pixelKeeps.append(keepOf(pixel.a, count: 1)) }
                }
                last = px
            }
            if runX >= 0 { runs.append(Run(y: py, x: runX, count: last - runX + 1, start: runStart)) }
        }
        self.init(runs: runs, pre: pre, keep: keep, pixelKeeps: pixelKeeps)
    }
}

/// A plane's value for a premultiplied pixel, affine in it: offset × alpha + the colour's
/// red, green and blue times coefficients that are × 2^shift and apply to RGB divided by
/// `divisor` (257: the 8-bit converter's coefficients, which take 8-bit RGB).
struct PlaneMaths {
    let offset: Int
    let red: Int, green: Int, blue: Int
    let shift: Int
    let divisor: Int
    /// The largest sample.
    let maximum: Int

    init(layout: PixelLayout, plane p: Int) {
        maximum = layout.isDeep ? 65535 : 255
        divisor = layout.isDeep || p == 3 ? 1 : 257
        let unit = 1 << 16
        switch (p, layout.isYUV, layout.isDeep) {
        case (3, _, _):
            // Alpha: the layer's alpha itself, in the plane's units.
            (offset, red, green, blue, shift) = (maximum, 0, 0, 0, 16)
        case (_, false, _):
            // FFmpeg's planar RGB order is G, B, R.
            (offset, shift) = (0, 16)
            (red, green, blue) = [(0, unit, 0), (0, 0, unit), (unit, 0, 0)][p]
        case (_, true, false):
            typealias C = Coefficients
            shift = 16
            (offset, red, green, blue) = [(16, C.yR, C.yG, C.yB), (128, C.cbR, C.cbG, C.cbB), (128, C.crR, C.crG, C.crB)][p]
        case (_, true, true):
            typealias C = YCbCr16
            shift = 24
            (offset, red, green, blue) = [(4096, C.yR, C.yG, C.yB), (32768, C.cbR, C.cbG, C.cbB), (32768, C.crR, C.crG, C.crB)][p]
        }
    }
}
