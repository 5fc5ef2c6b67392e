// One plane's share of a `FrameOverlay`, prepared once: the runs of samples the layer covers
// and, for each, its premultiplied value in the plane's units and what of the frame shows
// through it. Exact integer maths from the layer's 16-bit samples.

/// What an overlay does to one plane.
struct OverlayPlane: Sendable {
    /// Consecutive samples of one plane row the layer covers.
    struct Run: Sendable {
        let y: Int
        let x: Int
        let count: Int
        /// Whether every sample is opaque: its prepared values are final samples in `solid`;
        /// otherwise blends in `blend`. Either way from sample `start` (× the layout's bytes or
        /// words a sample).
        let opaque: Bool
        let start: Int
        /// Where the run's samples start in `pixelKeeps` (when it is used).
        let pixelStart: Int
    }

    let runs: [Run]
    /// Opaque runs: each sample's final value (the layer's colour converted and rounded once)
    /// as the plane stores it: one byte, or two little-endian ones in 16-bit layouts.
    let solid: [UInt8]
    /// Blended runs. 8-bit layouts, one word a sample: the layer's premultiplied value × 2⁹ in
    /// the high 17 bits, 1 − its alpha × 2¹⁴ in the low 15. 16-bit layouts, two words: the
    /// value × 2¹⁶, then 1 − alpha × 2²⁴. Opaque samples hold a whole value.
    let blend: [UInt32]
    /// Chroma of 4:2:0 layouts with alpha: 1 − alpha (× 2¹⁴ or × 2²⁴) of each of the four
    /// pixels a sample covers, four per sample of every run, to weigh the frame's own alpha
    /// pixel by pixel.
    let pixelKeeps: [UInt32]

    static let empty = OverlayPlane(runs: [], solid: [], blend: [], pixelKeeps: [])

    /// Transparent samples between two covered ones that still join one run: drawing them
    /// leaves the frame exactly as it is, and is cheaper than starting a new run.
    static let joinedGap = 8
    /// The fixed-point shift of 1 − alpha: 14 bits for 8-bit layouts (so a value and its keep
    /// share one 32-bit word and the per-frame sums stay in 32 bits), 24 for 16-bit ones.
    static func keepShift(deep: Bool) -> Int { deep ? 24 : 14 }

    /// The fewest opaque samples in a row that make a run of their own (copied, not blended);
    /// shorter stretches (inside text) cost less blended with their neighbours.
    static let shortestCopy = 16

    private init(runs: [Run], solid: [UInt8], blend: [UInt32], pixelKeeps: [UInt32]) {
        self.runs = runs
        self.solid = solid
        self.blend = blend
        self.pixelKeeps = pixelKeeps
    }

    /// One covered sample while preparing: its value × 2¹⁶ (whole where opaque), 1 − alpha
    /// × 2^keepShift, and its pixels' 1 − alpha.
    private struct Prepared {
        var value: Int
        var keep: Int
        var opaque: Bool
        var pixelKeeps: (UInt32, UInt32, UInt32, UInt32)
    }

    /// Plane `p` of `layout` for the layer `source`.
    init(_ source: LayerSamples, plane p: Int, layout: PixelLayout) {
        let maths = PlaneMaths(layout: layout, plane: p)
        let s = layout.subsampling(ofPlane: p)
        let keepShift = OverlayPlane.keepShift(deep: layout.isDeep)
        // Every sample is read as n pixels (the converters' rule): 4 for 4:2:0 chroma, at an odd
        // edge the last column or row standing in for the missing one.
        let n = 1 << (s.x + s.y)
        let perPixel = layout.hasAlpha && p < 3 && n > 1
        let whole = 65535 * n
        // The value × 2¹⁶ is num / (den >> 16); the whole value num / den.
        let den = (65535 * maths.divisor * n) << maths.shift
        let box = source.box
        let (width, height) = (source.frameWidth, source.frameHeight)
        func keepOf(_ alpha: Int, count: Int) -> Int {
            ((count * 65535 - alpha) << keepShift + count * 65535 / 2) / (count * 65535)
        }
        let clear = UInt32(1 << keepShift)
        let transparent = Prepared(value: 0, keep: 1 << keepShift, opaque: false, pixelKeeps: (clear, clear, clear, clear))
        var encoder = Encoder(deep: layout.isDeep, perPixel: perPixel)
        for py in (box.y0 >> s.y)...((box.y1 - 1) >> s.y) {
            let y0 = py << s.y, y1 = s.y == 1 && y0 + 1 < height ? y0 + 1 : y0
            // The row's covered samples, one span at a time (joined across short gaps).
            var span: [Prepared] = [], spanX = 0
            for px in (box.x0 >> s.x)...((box.x1 - 1) >> s.x) {
                let x0 = px << s.x, x1 = s.x == 1 && x0 + 1 < width ? x0 + 1 : x0
                // The pixels the sample covers (one, or the 2 × 2 block), without an allocation.
                let p0 = source.at(x0, y0)
                let (p1, p2, p3) = n == 1 ? (p0, p0, p0) : (source.at(x1, y0), source.at(x0, y1), source.at(x1, y1))
                let a = n == 1 ? p0.a : p0.a + p1.a + p2.a + p3.a
                guard a > 0 else { continue }
                let r = n == 1 ? p0.r : p0.r + p1.r + p2.r + p3.r
                let g = n == 1 ? p0.g : p0.g + p1.g + p2.g + p3.g
                let b = n == 1 ? p0.b : p0.b + p1.b + p2.b + p3.b
                let gap = px - (spanX + span.count)
                if !span.isEmpty && gap > Self.joinedGap {
                    encoder.add(span, y: py, x: spanX)
                    span.removeAll(keepingCapacity: true)
                }
                if span.isEmpty {
                    spanX = px
                } else {
                    span += repeatElement(transparent, count: gap)
                }
                let num = max(0, ((maths.offset * a * maths.divisor) << maths.shift)
                                 + 65535 * (maths.red * r + maths.green * g + maths.blue * b))
                // Opaque: rounded once to the whole value, as converting the layer's colour would.
                let value = a == whole ? ((num + den / 2) / den) << 16 : (num + (den >> 17)) / (den >> 16)
                span.append(Prepared(value: min(value, maths.maximum << 16), keep: keepOf(a, count: n), opaque: a == whole,
                                     pixelKeeps: (UInt32(keepOf(p0.a, count: 1)), UInt32(keepOf(p1.a, count: 1)),
                                                  UInt32(keepOf(p2.a, count: 1)), UInt32(keepOf(p3.a, count: 1)))))
            }
            if !span.isEmpty { encoder.add(span, y: py, x: spanX) }
        }
        self.init(runs: encoder.runs, solid: encoder.solid, blend: encoder.blend, pixelKeeps: encoder.pixelKeeps)
    }

    /// Turns spans of prepared samples into runs and their stored values.
    private struct Encoder {
        let deep: Bool
        let perPixel: Bool
        var runs: [Run] = [], solid: [UInt8] = [], blend: [UInt32] = [], pixelKeeps: [UInt32] = []

        init(deep: Bool, perPixel: Bool) {
            self.deep = deep
            self.perPixel = perPixel
        }

        /// A span starting at plane column `x` of row `y`: long opaque stretches become
        /// opaque runs, the rest blended runs.
        mutating func add(_ span: [Prepared], y: Int, x: Int) {
            var i = 0
            while i < span.count {
                // The next opaque stretch long enough to be copied, if any.
                var copyStart = i
                while copyStart < span.count {
                    var end = copyStart
                    while end < span.count && span[end].opaque { end += 1 }
                    if end - copyStart >= OverlayPlane.shortestCopy { break }
                    copyStart = end + 1
                }
                copyStart = min(copyStart, span.count)
                if copyStart > i { append(span[i..<copyStart], y: y, x: x + i, opaque: false) }
                guard copyStart < span.count else { break }
                var end = copyStart
                while end < span.count && span[end].opaque { end += 1 }
                append(span[copyStart..<end], y: y, x: x + copyStart, opaque: true)
                i = end
            }
        }

        private mutating func append(_ samples: ArraySlice<Prepared>, y: Int, x: Int, opaque: Bool) {
            runs.append(Run(y: y, x: x, count: samples.count, opaque: opaque, start: (opaque ? solid.count : blend.count) / (deep ? 2 : 1),
                            pixelStart: pixelKeeps.count / 4))
            for sample in samples {
                if opaque {
                    let value = sample.value >> 16
                    solid.append(UInt8(truncatingIfNeeded: value))
                    if deep { solid.append(UInt8(truncatingIfNeeded: value >> 8)) }
                } else if deep {
                    blend += [UInt32(sample.value), UInt32(sample.keep)]
                } else {
                    blend.append(UInt32(min((sample.value + 64) >> 7, 255 << 9)) << 15 | UInt32(sample.keep))
                }
                if perPixel {
                    pixelKeeps += [sample.pixelKeeps.0, sample.pixelKeeps.1, sample.pixelKeeps.2, sample.pixelKeeps.3]
                }
            }
        }
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
