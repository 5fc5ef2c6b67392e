// A still resampled to show part of itself at the frame's size: what each frame of a moving
// still is, in its holds and under its strips alike. Separable bilinear in fixed point over the
// planes at the render's precision: each output row blends two source rows once (the vertical
// pass, contiguous memory), then each output sample blends two neighbours of that blend.

/// Draws a rectangle of a still scaled to fill a picture of the still's size and layout.
///
/// Positions are kept to 1/256 of a sample and blends are rounded once, at the end, from a
/// 16-bit (8-bit layouts) or 24-bit (16-bit layouts) intermediate, so a flat area stays exactly
/// its colour, and the whole still at its own size (`MotionView.whole`) is an exact copy.
package enum StillWarp {
    /// Fractional positions are multiples of 2^-weightBits of a sample.
    static let weightBits = 8
    static let one = 1 << weightBits

    /// Draws `view` (in `still`'s pixels) of `still` scaled to fill `target`.
    /// - Precondition: `target` has `still`'s size and layout, and is not `still`.
    package static func draw(_ still: PlanarImage, view: MotionView, into target: PlanarImage) {
        precondition(target.width == still.width && target.height == still.height && target.layout == still.layout,
                     "a still is warped into a picture of its own size and layout")
        precondition(target !== still, "a still is warped into another picture")
        for (p, source) in still.planes.enumerated() {
            // Chroma planes see the same rectangle in their own (subsampled) samples.
            let sx = Double(source.width) / Double(still.width), sy = Double(source.height) / Double(still.height)
            let columns = Taps(origin: view.x * sx, length: view.width * sx, samples: source.width)
            let rows = Taps(origin: view.y * sy, length: view.height * sy, samples: source.height)
            if still.layout.isDeep {
                warp16(source, into: target.planes[p], columns: columns, rows: rows)
            } else {
                warp8(source, into: target.planes[p], columns: columns, rows: rows)
            }
        }
    }

    /// Where each output sample along one axis reads: sample `index[i]` and the next, the next
    /// weighted `weight[i]` / 256. Sample centres map to sample centres: output `i` reads at
    /// `origin + (i + ½) × length / samples − ½`, clamped to the plane.
    struct Taps {
        let index: [Int]
        let weight: [UInt32]
        /// The lowest and highest sample read (a second tap past the plane has weight 0).
        let first: Int
        let last: Int

        init(origin: Double, length: Double, samples n: Int) {
            let step = length / Double(n)
            var index = [Int](repeating: 0, count: n), weight = [UInt32](repeating: 0, count: n)
            for i in 0..<n {
                var position = origin + (Double(i) + 0.5) * step - 0.5
                // NaN (no accepted motion gives one) reads the first sample.
                position = position.isNaN ? 0 : min(max(position, 0), Double(n - 1))
                var whole = Int(position.rounded(.down))
                var fraction = Int(((position - Double(whole)) * Double(StillWarp.one)).rounded())
                if fraction == StillWarp.one { (whole, fraction) = (whole + 1, 0) }
                index[i] = whole
                weight[i] = UInt32(fraction)
            }
            self.index = index
            self.weight = weight
            first = index.min() ?? 0
            last = min((index.max() ?? 0) + 1, n - 1)
        }
    }

    private static func warp8(_ source: Plane, into target: Plane, columns: Taps, rows: Taps) {
        let one = UInt16(StillWarp.one)
        let spare = source.width + 1
        // The vertical blends of two output rows' source rows, at 8 more bits; one spare sample
        // past the last read each (a weight-0 second tap may read it).
        withUnsafeTemporaryAllocation(of: UInt16.self, capacity: 2 * spare) { blends in
            let blends = blends.baseAddress!
            /// Output row `y`'s vertical blend into `blend`.
            func blendRows(_ y: Int, into blend: UnsafeMutablePointer<UInt16>) {
                let r = rows.index[y], w = UInt16(rows.weight[y])
                let upper = source.row(r), lower = source.row(min(r + 1, source.height - 1))
                if w == 0 {
                    for x in columns.first...columns.last { blend[x] = UInt16(upper[x]) &<< 8 }
                } else {
                    let u = one &- w
                    for x in columns.first...columns.last { blend[x] = UInt16(upper[x]) &* u &+ UInt16(lower[x]) &* w }
                }
                blend[columns.last + 1] = blend[columns.last]
            }
            columns.index.withUnsafeBufferPointer { index in
                columns.weight.withUnsafeBufferPointer { weight in
                    // Two output rows at a time share each sample's taps, loaded once.
                    var y = 0
                    while y + 1 < target.height {
                        let first = blends, second = blends + spare
                        blendRows(y, into: first)
                        blendRows(y + 1, into: second)
                        let out = target.row(y), below = target.row(y + 1)
                        for x in 0..<target.width {
                            // `&+`: an index is below the plane's width; a checked add costs a third of the warp.
                            let i = index[x], b = weight[x], a = UInt32(one) &- b
                            out[x] = UInt8(truncatingIfNeeded: (UInt32(first[i]) &* a &+ UInt32(first[i &+ 1]) &* b &+ 0x8000) &>> 16)
                            below[x] = UInt8(truncatingIfNeeded: (UInt32(second[i]) &* a &+ UInt32(second[i &+ 1]) &* b &+ 0x8000) &>> 16)
                        }
                        y += 2
                    }
                    if y < target.height {
                        blendRows(y, into: blends)
                        let out = target.row(y)
                        for x in 0..<target.width {
                            let i = index[x], b = weight[x]
                            out[x] = UInt8(truncatingIfNeeded: (UInt32(blends[i]) &* (UInt32(one) &- b) &+ UInt32(blends[i &+ 1]) &* b &+ 0x8000) &>> 16)
                        }
                    }
                }
            }
        }
    }

    private static func warp16(_ source: Plane, into target: Plane, columns: Taps, rows: Taps) {
        let one = UInt32(StillWarp.one)
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: source.width + 1) { blend in
            let blend = blend.baseAddress!
            columns.index.withUnsafeBufferPointer { index in
                columns.weight.withUnsafeBufferPointer { weight in
                    for y in 0..<target.height {
                        let r = rows.index[y], w = rows.weight[y], u = one &- w
                        let upper = source.row16(r), lower = source.row16(min(r + 1, source.height - 1))
                        for x in columns.first...columns.last {
                            blend[x] = UInt32(UInt16(littleEndian: upper[x])) &* u &+ UInt32(UInt16(littleEndian: lower[x])) &* w
                        }
                        blend[columns.last + 1] = blend[columns.last]
                        let out = target.row16(y)
                        for x in 0..<target.width {
                            let i = index[x], b = UInt64(weight[x])
                            let sum = UInt64(blend[i]) &* (UInt64(one) &- b) &+ UInt64(blend[i &+ 1]) &* b
                            out[x] = UInt16(truncatingIfNeeded: (sum &+ 0x8000) &>> 16).littleEndian
                        }
                    }
                }
            }
        }
    }
}
