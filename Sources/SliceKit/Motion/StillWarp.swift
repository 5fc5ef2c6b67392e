// A still resampled to show part of itself at the frame's size: what each frame of a moving
// still is, in its holds and under its strips alike. Separable bilinear in fixed point over the
// planes at the render's precision: each output row blends two source rows once (the vertical
// pass, contiguous memory), then each output sample blends two neighbours of that blend. The
// column taps are worked out once per plane and frame (every row has the same), and a frame in
// motion warps only the parts of a still its strips show.

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
        draw(still, view: view, into: target, parts: nil)
    }

    /// Draws only `parts[p]` of each plane `p` (rectangles in the plane's own samples; nil:
    /// every sample): what a frame in motion shows of a moving still. Each sample is drawn
    /// exactly as a whole draw would draw it; the samples outside the parts are left as they are.
    static func draw(_ still: PlanarImage, view: MotionView, into target: PlanarImage, parts: [[SampleRect]]?) {
        precondition(target.width == still.width && target.height == still.height && target.layout == still.layout,
                     "a still is warped into a picture of its own size and layout")
        precondition(target !== still, "a still is warped into another picture")
        for (p, source) in still.planes.enumerated() {
            let whole = [SampleRect(rows: 0..<source.height, columns: 0..<source.width)]
            let rects = parts?[p] ?? whole
            if rects.isEmpty { continue }
            // Chroma planes see the same rectangle in their own (subsampled) samples.
            let sx = Double(source.width) / Double(still.width), sy = Double(source.height) / Double(still.height)
            let columns = Taps(origin: view.x * sx, length: view.width * sx, samples: source.width)
            let rows = Taps(origin: view.y * sy, length: view.height * sy, samples: source.height)
            for rect in merged(rects) {
                precondition(rect.rows.lowerBound >= 0 && rect.rows.upperBound <= source.height
                    && rect.columns.lowerBound >= 0 && rect.columns.upperBound <= source.width, "a part lies within its plane")
                if still.layout.isDeep {
                    warp16(source, into: target.planes[p], columns: columns, rows: rows, rect: rect)
                } else {
                    warp8(source, into: target.planes[p], columns: columns, rows: rows, rect: rect)
                }
            }
        }
    }

    /// The samples of `rects` as rectangles whose rows are whole spans between the rectangles'
    /// edges, side by side ones joined: a frame's strips are narrow and each shows its own rows,
    /// so a warp part by part would go a few samples at a time; merged, it goes most of a row.
    static func merged(_ rects: [SampleRect]) -> [SampleRect] {
        let rects = rects.filter { !$0.rows.isEmpty && !$0.columns.isEmpty }
        guard rects.count > 1 else { return rects }
        let edges = Set(rects.flatMap { [$0.rows.lowerBound, $0.rows.upperBound] }).sorted()
        var done: [SampleRect] = [], open: [SampleRect] = []
        for (top, bottom) in zip(edges, edges.dropFirst()) {
            var columns: [Range<Int>] = []
            for c in rects.filter({ $0.rows.lowerBound <= top && $0.rows.upperBound >= bottom }).map(\.columns)
                .sorted(by: { $0.lowerBound < $1.lowerBound }) {
                if let last = columns.last, c.lowerBound <= last.upperBound {
                    columns[columns.count - 1] = last.lowerBound..<max(last.upperBound, c.upperBound)
                } else {
                    columns.append(c)
                }
            }
            // A piece with the same columns as one of the span above continues it downward.
            var next: [SampleRect] = []
            for c in columns {
                if let k = open.firstIndex(where: { $0.columns == c }) {
                    next.append(SampleRect(rows: open[k].rows.lowerBound..<bottom, columns: c))
                    open.remove(at: k)
                } else {
                    next.append(SampleRect(rows: top..<bottom, columns: c))
                }
            }
            done += open
            open = next
        }
        return done + open
    }

    /// Where each output sample along one axis reads: sample `index[i]` and the next, the next
    /// weighted `weight[i]` / 256. Sample centres map to sample centres: output `i` reads at
    /// `origin + (i + ½) × length / samples − ½`, clamped to the plane.
    struct Taps {
        let index: [Int]
        let weight: [UInt32]

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
        }

        /// The lowest and highest sample outputs `outputs` read (a second tap past the plane
        /// has weight 0).
        func reads(_ outputs: Range<Int>, samples n: Int) -> ClosedRange<Int> {
            var low = index[outputs.lowerBound], high = low
            for i in outputs { low = min(low, index[i]); high = max(high, index[i]) }
            return low...min(high + 1, n - 1)
        }
    }


    private static func warp8(_ source: Plane, into target: Plane, columns: Taps, rows: Taps, rect: SampleRect) {
        let one = UInt16(StillWarp.one)
        let read = columns.reads(rect.columns, samples: source.width)
        let x0 = rect.columns.lowerBound, x1 = rect.columns.upperBound
        // Each output sample's two horizontal weights as one word: the second tap's in the low
        // half, the first's in the high half (see `pairs`).
        let weights = (x0..<x1).map { x in UInt64(columns.weight[x]) | UInt64(UInt32(one) - columns.weight[x]) << 32 }
        // The vertical blends (8 more bits than a sample) of two output rows' source rows, as
        // pairs: sample j's in the low half of word j and sample j + 1's in its high half. A pair
        // times a weight word holds the bilinear sum in its high half (the cross terms are below
        // 2^32 and the rest overflows away): one multiply per sample.
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 2 * source.width) { pairs in
            let pairs = pairs.baseAddress!, spare = source.width
            /// Output row `y`'s vertical blends as pairs into `pair`, straight from the source
            /// rows (each blend made twice: reading back a blend just stored stalls the core).
            func blendRows(_ y: Int, into pair: UnsafeMutablePointer<UInt64>) {
                let r = rows.index[y], w = UInt16(rows.weight[y]), u = one &- w
                let upper = source.row(r), lower = source.row(min(r + 1, source.height - 1))
                @inline(__always) func blend(_ x: Int) -> UInt64 {
                    UInt64(UInt16(upper[x]) &* u &+ UInt16(lower[x]) &* w)
                }
                @inline(__always) func blend8(_ x: Int) -> SIMD8<UInt16> {
                    let a = UnsafeRawPointer(upper + x).loadUnaligned(as: SIMD8<UInt8>.self)
                    let b = UnsafeRawPointer(lower + x).loadUnaligned(as: SIMD8<UInt8>.self)
                    return SIMD8<UInt16>(truncatingIfNeeded: a) &* u &+ SIMD8<UInt16>(truncatingIfNeeded: b) &* w
                }
                // Eight pairs at a time while their nine samples lie within the read.
                var x = read.lowerBound
                while x &+ 8 <= read.upperBound {
                    let words = SIMD8<UInt64>(truncatingIfNeeded: blend8(x)) | SIMD8<UInt64>(truncatingIfNeeded: blend8(x &+ 1)) &<< 32
                    UnsafeMutableRawPointer(pair + x).storeBytes(of: words, as: SIMD8<UInt64>.self)
                    x &+= 8
                }
                while x < read.upperBound { pair[x] = blend(x) | blend(x &+ 1) &<< 32; x &+= 1 }
                // The last sample read pairs with itself: a second tap there has weight 0
                // (only a position clamped to the plane's last sample reads it).
                pair[read.upperBound] = blend(read.upperBound) | blend(read.upperBound) &<< 32
            }
            let half = UInt64(0x8000) << 32
            columns.index.withUnsafeBufferPointer { index in
                weights.withUnsafeBufferPointer { weights in
                    // `&+`/`&*`: indexes are within the plane, and a sum below 2^32 (module comment).
                    let index = index.baseAddress!, weight = weights.baseAddress! - x0
                    // Two output rows at a time share each sample's taps, loaded once.
                    var y = rect.rows.lowerBound
                    while y + 1 < rect.rows.upperBound {
                        let first = pairs, second = pairs + spare
                        blendRows(y, into: first)
                        blendRows(y + 1, into: second)
                        let out = target.row(y), below = target.row(y + 1)
                        for x in x0..<x1 {
                            let i = index[x], w = weight[x]
                            out[x] = UInt8(truncatingIfNeeded: (first[i] &* w &+ half) &>> 48)
                            below[x] = UInt8(truncatingIfNeeded: (second[i] &* w &+ half) &>> 48)
                        }
                        y += 2
                    }
                    if y < rect.rows.upperBound {
                        blendRows(y, into: pairs)
                        let out = target.row(y)
                        for x in x0..<x1 {
                            out[x] = UInt8(truncatingIfNeeded: (pairs[index[x]] &* weight[x] &+ half) &>> 48)
                        }
                    }
                }
            }
        }
    }

    private static func warp16(_ source: Plane, into target: Plane, columns: Taps, rows: Taps, rect: SampleRect) {
        let one = UInt32(StillWarp.one)
        let read = columns.reads(rect.columns, samples: source.width)
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: source.width + 1) { blend in
            let blend = blend.baseAddress!
            columns.index.withUnsafeBufferPointer { index in
                columns.weight.withUnsafeBufferPointer { weight in
                    let index = index.baseAddress!, weight = weight.baseAddress!
                    for y in rect.rows {
                        let r = rows.index[y], w = rows.weight[y], u = one &- w
                        let upper = source.row16(r), lower = source.row16(min(r + 1, source.height - 1))
                        for x in read {
                            blend[x] = UInt32(UInt16(littleEndian: upper[x])) &* u &+ UInt32(UInt16(littleEndian: lower[x])) &* w
                        }
                        blend[read.upperBound + 1] = blend[read.upperBound]
                        let out = target.row16(y)
                        for x in rect.columns {
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

/// A rectangle of one plane, in the plane's own samples.
struct SampleRect: Equatable {
    var rows: Range<Int>
    var columns: Range<Int>
}
