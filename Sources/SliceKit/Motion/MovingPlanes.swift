// A moving layer drawn straight onto frames without an alpha plane, with no per-frame picture:
// its premultiplied plane values and what it leaves of the frame are made once per layout,
// and since both are linear in the layer's samples, the values of the layer moved by a fraction
// of a pixel are the made values sampled bilinearly at that fraction. A 4:2:0 chroma sample is
// the mean of its four pixels, so chroma is sampled from sums over 2 × 2 pixels made once too.

/// A `MovingLayer`'s planes in one layout without alpha, ready to be drawn at any offset.
///
/// Immutable once made: any number of render threads may draw from it at once. All drawing
/// arithmetic is in integers (the offset's fraction to 1/4096 px), each sample rounded once.
package final class MovingPlanes: @unchecked Sendable {
    // The fields are written here only and read afterwards.
    package let layout: PixelLayout
    let frameWidth: Int, frameHeight: Int
    /// The frame pixel of field sample (0, 0) at rest.
    let x: Int, y: Int
    /// One field per plane, row-major `widths[p]` wide: the plane's value × 2⁸ at each pixel of
    /// the padded picture (a subsampled plane: summed over the 2 × 2 pixels from there).
    let values: [[Int32]]
    /// What the layer leaves of the frame, 1 − alpha × 2¹⁶, likewise (per plane, since a
    /// subsampled plane sums it over its pixels).
    let keeps: [[Int32]]
    let widths: [Int]
    let heights: [Int]

    /// The most padded pixels a layer may have to be drawn this way (about 6 × 4 bytes each);
    /// a larger one is moved as a picture.
    static let largest = 4_000_000

    /// nil when the layout has alpha or the layer is too large.
    package init?(_ layer: MovingLayer, layout: PixelLayout) {
        let picture = layer.image
        // Two transparent samples around the picture: a subsampled plane's sums reach one
        // pixel further than its filter, on either side.
        let pad = 2
        let (pw, ph) = (picture.width + 2 * pad, picture.height + 2 * pad)
        guard !layout.hasAlpha, pw * ph <= Self.largest else { return nil }
        self.layout = layout
        frameWidth = layer.frameWidth
        frameHeight = layer.frameHeight
        x = layer.x - pad
        y = layer.y - pad
        /// Sample (`i`, `j`) of the padded picture: alpha, red, green, blue.
        func sample(_ i: Int, _ j: Int) -> (a: Int, r: Int, g: Int, b: Int) {
            let (u, v) = (i - pad, j - pad)
            guard u >= 0, u < picture.width, v >= 0, v < picture.height else { return (0, 0, 0, 0) }
            return (Int(picture.row(3, v)[u]), Int(picture.row(0, v)[u]), Int(picture.row(1, v)[u]), Int(picture.row(2, v)[u]))
        }
        var values: [[Int32]] = [], keeps: [[Int32]] = [], widths: [Int] = [], heights: [Int] = []
        var keep = [Int32](repeating: 0, count: pw * ph)
        for j in 0..<ph {
            for i in 0..<pw { keep[j * pw + i] = Int32((Double(65535 - sample(i, j).a) * 65536 / 65535).rounded()) }
        }
        for p in 0..<layout.planeCount {
            let maths = PlaneMaths(layout: layout, plane: p)
            let den = Double(65535 * maths.divisor) * Double(1 << maths.shift)
            var field = [Int32](repeating: 0, count: pw * ph)
            for j in 0..<ph {
                for i in 0..<pw {
                    let (a, r, g, b) = sample(i, j)
                    let num = max(0, Double(maths.offset * a * maths.divisor) * Double(1 << maths.shift)
                                      + 65535 * Double(maths.red * r + maths.green * g + maths.blue * b))
                    field[j * pw + i] = Int32(min(Double(maths.maximum), num / den) * 256 + 0.5)
                }
            }
            let s = layout.subsampling(ofPlane: p)
            // A subsampled plane's sample covers 2 (or 2 × 2) pixels from its first: summed from there.
            let (fw, fh) = (pw - s.x, ph - s.y)
            func summed(_ source: [Int32]) -> [Int32] {
                guard s.x + s.y > 0 else { return source }
                var out = [Int32](repeating: 0, count: fw * fh)
                for j in 0..<fh {
                    for i in 0..<fw {
                        var total = source[j * pw + i]
                        if s.x == 1 { total += source[j * pw + i + 1] }
                        if s.y == 1 { total += source[(j + 1) * pw + i] }
                        if s.x == 1 && s.y == 1 { total += source[(j + 1) * pw + i + 1] }
                        out[j * fw + i] = total
                    }
                }
                return out
            }
            values.append(summed(field))
            keeps.append(summed(keep))
            widths.append(fw)
            heights.append(fh)
        }
        self.values = values
        self.keeps = keeps
        self.widths = widths
        self.heights = heights
    }

    /// Draws the layer moved by each of `moves` (offsets in frame pixels, each for a part of the
    /// frame: x0, y0, x1, y1, by the pixel a sample starts at) onto `frame` at `opacity`.
    /// - Precondition: `frame` has this layout and the frame size.
    package func draw(_ moves: [(dx: Double, dy: Double, inside: (Int, Int, Int, Int))], onto frame: PlanarImage, opacity: Double) {
        precondition(frame.layout == layout && frame.width == frameWidth && frame.height == frameHeight, "another frame size or layout")
        guard opacity > 0 else { return }
        let strength = opacity >= 1 ? 1 << 16 : Int((opacity * 65536).rounded())
        guard strength > 0 else { return }
        for move in moves {
            let kx = Int((-move.dx).rounded(.down)), ky = Int((-move.dy).rounded(.down))
            var fx = Int(((-move.dx - Double(kx)) * 4096).rounded()), fy = Int(((-move.dy - Double(ky)) * 4096).rounded())
            // Frame pixel X reads field column X − left (and the next), plus the fraction.
            var (left, top) = (x - kx, y - ky)
            if fx == 4096 { (fx, left) = (0, left - 1) }
            if fy == 4096 { (fy, top) = (0, top - 1) }
            for p in 0..<layout.planeCount {
                if layout.isDeep {
                    draw(plane: p, into: frame.planes[p], sample: UInt16.self, left: left, top: top, fx: fx, fy: fy, inside: move.inside, strength: strength)
                } else {
                    draw(plane: p, into: frame.planes[p], sample: UInt8.self, left: left, top: top, fx: fx, fy: fy, inside: move.inside, strength: strength)
                }
            }
        }
    }

    private func draw<Sample: FixedWidthInteger & UnsignedInteger>(plane p: Int, into plane: Plane, sample: Sample.Type, left: Int, top: Int,
                                                                    fx: Int, fy: Int, inside: (Int, Int, Int, Int), strength: Int) {
        let s = layout.subsampling(ofPlane: p)
        let (fw, fh) = (widths[p], heights[p])
        // Samples whose first pixel is inside the part, on the frame, and has a field sample and
        // the next one (the filter's) to read.
        func range(_ low: Int, _ high: Int, origin: Int, count: Int, shift: Int, samples: Int) -> Range<Int> {
            let first = max(low, origin, 0), last = min(high, origin + count - 1)
            let from = (first + (1 << shift) - 1) >> shift, to = min(samples, ((last - 1) >> shift) + 1)
            return from < to ? from..<to : 0..<0
        }
        let columns = range(inside.0, inside.2, origin: left, count: fw, shift: s.x, samples: plane.width)
        let rows = range(inside.1, inside.3, origin: top, count: fh, shift: s.y, samples: plane.height)
        guard !columns.isEmpty, !rows.isEmpty else { return }
        let w00 = (4096 - fx) * (4096 - fy), w01 = fx * (4096 - fy), w10 = (4096 - fx) * fy, w11 = fx * fy
        // Sums come out × 2^(32 + e) for values (× 2⁸ × 2²⁴) and × 2^(40 + e) for keeps; both
        // are taken to × 2^(24 + e), e the pixels a sample sums (0, 1 or 2 as a power of two).
        let e = s.x + s.y, unit = 24 + e, whole = 1 << unit, half = 1 << (unit - 1)
        let maximum = Int(Sample.max)
        let full = strength == 1 << 16
        values[p].withUnsafeBufferPointer { values in
            keeps[p].withUnsafeBufferPointer { keeps in
                for row in rows {
                    let j = (row << s.y) - top
                    let target = UnsafeMutableRawPointer(plane.row(row)).assumingMemoryBound(to: Sample.self)
                    for column in columns {
                        let i = (column << s.x) - left
                        let at = j &* fw &+ i, below = at &+ fw
                        var value = (w00 &* Int(values[at]) &+ w01 &* Int(values[at &+ 1]) &+ w10 &* Int(values[below]) &+ w11 &* Int(values[below &+ 1])
                                     &+ 128) >> 8
                        var keep = (w00 &* Int(keeps[at]) &+ w01 &* Int(keeps[at &+ 1]) &+ w10 &* Int(keeps[below]) &+ w11 &* Int(keeps[below &+ 1])
                                    &+ 32768) >> 16
                        // Nothing of the layer here: the frame stays as it is.
                        if keep >= whole && value == 0 { continue }
                        if !full {
                            value = (value &* strength &+ 32768) >> 16
                            keep = whole &- (((whole &- keep) &* strength &+ 32768) >> 16)
                        }
                        let under = Int(Sample(littleEndian: target[column]))
                        let out = (value &+ keep &* under &+ half) >> unit
                        target[column] = Sample(truncatingIfNeeded: min(max(out, 0), maximum)).littleEndian
                    }
                }
            }
        }
    }
}
