// A still resampled to show part of itself at the frame's size: what each frame of a moving
// still is, in its holds and under its strips alike. Separable bilinear in fixed point over the
// planes at the render's precision: each output row blends two source rows once (the vertical
// pass, contiguous memory), then each output sample blends two neighbours of that blend. The
// column taps are worked out once per plane and frame (every row has the same), and a frame in
// motion warps only the parts of a still its strips show. The 8-bit warp is C (CWarp), a
// rectangle per call, which picks the widest vectors the machine has (AVX-512, AVX2, or plain
// C elsewhere), to the same bytes.

import CWarp

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
    /// weighted `v` / 256 where `weight[i]` is `(256 − v) | v << 16` (the kernel's form, CWarp.h).
    /// Sample centres map to sample centres: output `i` reads at
    /// `origin + (i + ½) × length / samples − ½`, clamped to the plane.
    struct Taps {
        let index: [Int32]
        let weight: [UInt32]

        init(origin: Double, length: Double, samples n: Int) {
            let step = length / Double(n)
            var index = [Int32](repeating: 0, count: n), weight = [UInt32](repeating: 0, count: n)
            for i in 0..<n {
                var position = origin + (Double(i) + 0.5) * step - 0.5
                // NaN (no accepted motion gives one) reads the first sample.
                position = position.isNaN ? 0 : min(max(position, 0), Double(n - 1))
                var whole = Int(position.rounded(.down))
                var fraction = Int(((position - Double(whole)) * Double(StillWarp.one)).rounded())
                if fraction == StillWarp.one { (whole, fraction) = (whole + 1, 0) }
                index[i] = Int32(whole)
                weight[i] = UInt32(StillWarp.one - fraction) | UInt32(fraction) << 16
            }
            self.index = index
            self.weight = weight
        }

        /// The weight of output `i`'s second tap, in 256ths.
        func second(_ i: Int) -> UInt32 { weight[i] >> 16 }

        /// The lowest and highest sample outputs `outputs` read (a second tap past the plane
        /// has weight 0).
        func reads(_ outputs: Range<Int>, samples n: Int) -> ClosedRange<Int> {
            var low = Int(index[outputs.lowerBound]), high = low
            for i in outputs { low = min(low, Int(index[i])); high = max(high, Int(index[i])) }
            return low...min(high + 1, n - 1)
        }
    }

    private static func warp8(_ source: Plane, into target: Plane, columns: Taps, rows: Taps, rect: SampleRect) {
        let n = rect.columns.count
        // Scratch: a row's vertical blends, and the kernel's working of the column taps.
        withUnsafeTemporaryAllocation(of: UInt16.self, capacity: source.width + Int(CWARP_BLEND_PAST)) { blend in
            withUnsafeTemporaryAllocation(of: Int32.self, capacity: n + n / 16 + 1) { scratch in
                columns.index.withUnsafeBufferPointer { index in
                    columns.weight.withUnsafeBufferPointer { weight in
                        rows.index.withUnsafeBufferPointer { rowIndex in
                            rows.weight.withUnsafeBufferPointer { rowWeight in
                                let x0 = rect.columns.lowerBound, y0 = rect.rows.lowerBound
                                cwarp_warp8(source.row(0), source.stride, source.width, source.height,
                                            rowIndex.baseAddress! + y0, rowWeight.baseAddress! + y0, rect.rows.count,
                                            index.baseAddress! + x0, weight.baseAddress! + x0, n,
                                            target.row(y0) + x0, target.stride, blend.baseAddress!, scratch.baseAddress!)
                            }
                        }
                    }
                }
            }
        }
    }

    /// The 8-bit kernel's paths this machine runs (`CWARP_PLAIN`, then `CWARP_AVX2` and
    /// `CWARP_AVX512` where it has them), for the tests that hold each to the plain one.
    static var kernelPaths: [Int32] { Array(Int32(CWARP_PLAIN)...cwarp_best_path()) }

    /// A row's vertical blends by one kernel path (tests).
    static func kernelRows(path: Int32, upper: [UInt8], lower: [UInt8], weight: UInt16) -> [UInt16] {
        precondition(upper.count == lower.count)
        var out = [UInt16](repeating: 0, count: upper.count)
        out.withUnsafeMutableBufferPointer { out in
            cwarp_rows8_path(path, upper, lower, weight, out.baseAddress!, upper.count)
        }
        return out
    }

    /// A row's horizontal blends by one kernel path (tests): output `x` reads `blend[index[x]]`
    /// and the next, the next weighted `weight[x]` / 256.
    static func kernelColumns(path: Int32, blend: [UInt16], index: [Int], weight: [UInt32]) -> [UInt8] {
        precondition(index.count == weight.count && index.allSatisfy { $0 >= 0 && $0 + 1 < blend.count } && weight.allSatisfy { $0 < 256 })
        let index32 = index.map { Int32($0) }, packed = weight.map { 256 - $0 | $0 << 16 }
        var out = [UInt8](repeating: 0, count: index.count)
        // The kernel may load blends past the last tap (never using them).
        let padded = blend + [UInt16](repeating: 0, count: Int(CWARP_BLEND_PAST))
        var scratch = [Int32](repeating: 0, count: index.count + index.count / 16 + 1)
        out.withUnsafeMutableBufferPointer { out in
            cwarp_columns8_path(path, padded, index32, packed, out.baseAddress!, index.count, &scratch)
        }
        return out
    }

    /// A rectangle of a plane warped by one kernel path (tests): `rows × columns` samples.
    static func kernelWarp(path: Int32, _ source: Plane, rows: (index: [Int32], weight: [UInt32]),
                           columns: (index: [Int32], weight: [UInt32])) -> [UInt8] {
        precondition(rows.index.count == rows.weight.count && columns.index.count == columns.weight.count)
        precondition(rows.index.allSatisfy { 0..<Int32(source.height) ~= $0 } && columns.index.allSatisfy { 0..<Int32(source.width) ~= $0 })
        let n = columns.index.count
        var out = [UInt8](repeating: 0, count: rows.index.count * n)
        var blend = [UInt16](repeating: 0, count: source.width + Int(CWARP_BLEND_PAST))
        var scratch = [Int32](repeating: 0, count: n + n / 16 + 1)
        out.withUnsafeMutableBufferPointer { out in
            cwarp_warp8_path(path, source.row(0), source.stride, source.width, source.height,
                             rows.index, rows.weight, rows.index.count, columns.index, columns.weight, n,
                             out.baseAddress!, n, &blend, &scratch)
        }
        return out
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
                        let r = Int(rows.index[y]), w = rows.second(y), u = one &- w
                        let upper = source.row16(r), lower = source.row16(min(r + 1, source.height - 1))
                        for x in read {
                            blend[x] = UInt32(UInt16(littleEndian: upper[x])) &* u &+ UInt32(UInt16(littleEndian: lower[x])) &* w
                        }
                        blend[read.upperBound + 1] = blend[read.upperBound]
                        let out = target.row16(y)
                        for x in rect.columns {
                            let i = Int(index[x]), b = UInt64(weight[x] >> 16)
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
