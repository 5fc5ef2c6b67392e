// An `over` layer in motion: its pixels, drawn once, moved for each frame by a transform — an
// offset, a scale about its centre, the part a wipe uncovers, its strips displaced — resampled
// bilinearly at sub-pixel positions on premultiplied samples, so a slow slide glides instead of
// stepping a pixel at a time. The result is an ordinary layer, drawn as `FrameOverlay` draws
// any, so every output format (alpha, 4:2:0, 16-bit) takes it the same way.

/// A layer's picture made ready to be moved over frames of one size.
///
/// Immutable once made: any number of render threads may transform it at once, and the same
/// state gives the same samples on any of them.
package final class MovingLayer: @unchecked Sendable {
    // `image` is written here only (trimmed from the drawn layer) and read afterwards.
    /// The layer's samples, trimmed to the part that is not transparent.
    let image: RGBA16Image
    /// The same with a transparent border of one sample, for the translation's filter.
    let padded: RGBA16Image
    /// Where the trimmed picture's top-left corner is on the frame when the layer is at rest.
    let x: Int, y: Int
    /// The layer's whole box on the frame: its centre is what it scales about, its sides what
    /// a wipe's fractions measure.
    let box: (x: Double, y: Double, width: Double, height: Double)
    let frameWidth: Int, frameHeight: Int
    /// Frame pixels per pixel at 1080p (the frame's shorter side / 1080).
    let unit: Double
    /// What a reveal uncovers, in pixels of the layer's box (a text layer's); nil: none.
    let units: RevealUnits?

    /// - Parameters:
    ///   - layer: premultiplied 16-bit samples (without alpha: opaque), the layer's box.
    ///   - x: the frame column of its left edge.
    ///   - y: the frame row of its top edge.
    ///   - units: what a typewriter, word or line reveal uncovers of it.
    /// - Returns: nil when the layer is fully transparent.
    package init?(layer: RGBA16Image, x: Int, y: Int, frameWidth: Int, frameHeight: Int, units: RevealUnits? = nil) {
        precondition(frameWidth > 0 && frameHeight > 0, "frame size must be positive")
        self.units = units
        box = (Double(x), Double(y), Double(layer.width), Double(layer.height))
        self.frameWidth = frameWidth
        self.frameHeight = frameHeight
        unit = Double(min(frameWidth, frameHeight)) / 1080
        // The part with any alpha: a line of text covers a fraction of its box.
        var (x0, y0, x1, y1) = (layer.width, layer.height, 0, 0)
        if layer.hasAlpha {
            for row in 0..<layer.height {
                let alpha = layer.row(3, row)
                var first = -1, last = -1
                for column in 0..<layer.width where alpha[column] != 0 {
                    if first < 0 { first = column }
                    last = column
                }
                guard first >= 0 else { continue }
                (x0, x1) = (min(x0, first), max(x1, last + 1))
                (y0, y1) = (min(y0, row), row + 1)
            }
        } else {
            (x0, y0, x1, y1) = (0, 0, layer.width, layer.height)
        }
        guard x1 > x0, y1 > y0 else { return nil }
        let trimmed = RGBA16Image(width: x1 - x0, height: y1 - y0, hasAlpha: true)
        for row in 0..<trimmed.height {
            let alpha = layer.hasAlpha ? layer.row(3, y0 + row) + x0 : nil
            for c in 0..<3 {
                let from = layer.row(c, y0 + row) + x0, to = trimmed.row(c, row)
                for column in 0..<trimmed.width { to[column] = min(from[column], alpha?[column] ?? 65535) }
            }
            let to = trimmed.row(3, row)
            for column in 0..<trimmed.width { to[column] = alpha?[column] ?? 65535 }
        }
        image = trimmed
        padded = Self.padded(trimmed)
        self.x = x + x0
        self.y = y + y0
    }

    /// A layer already trimmed (`image`, its top-left at `x`, `y` of the frame), from `from`.
    private init(trimmed image: RGBA16Image, x: Int, y: Int, like from: MovingLayer) {
        self.image = image
        padded = Self.padded(image)
        (self.x, self.y) = (x, y)
        box = from.box
        (frameWidth, frameHeight, unit) = (from.frameWidth, from.frameHeight, from.unit)
        units = nil
    }

    /// `image` with a transparent border of one sample.
    private static func padded(_ image: RGBA16Image) -> RGBA16Image {
        let padded = RGBA16Image(width: image.width + 2, height: image.height + 2, hasAlpha: true)
        for c in 0..<4 {
            for row in 0..<padded.height {
                let to = padded.row(c, row)
                for column in 0..<padded.width { to[column] = 0 }
                guard row >= 1, row <= image.height else { continue }
                let from = image.row(c, row - 1)
                for column in 0..<image.width { to[column + 1] = from[column] }
            }
        }
        return padded
    }

    /// The layer as `reveal` shows it: each unit's boxes at the unit's presence (premultiplied
    /// samples scaled by it, so a fading word is the layer at that opacity there), nothing of
    /// the units not yet begun. Units at their place make one picture (`still`); a unit still
    /// sliding in is a picture of its own, with its offset in pixels at 1080p. A layer without
    /// units shows whole.
    package func revealing(_ reveal: LayerState.Reveal) -> (still: MovingLayer?, moving: [(layer: MovingLayer, dx: Double, dy: Double)]) {
        guard let units else { return (self, []) }
        let list = units.units(reveal.unit)
        // The trimmed picture's corner in the layer's box.
        let (left, top) = (x - Int(box.x), y - Int(box.y))
        /// `boxes` of the trimmed picture, clipped to it.
        func clipped(_ boxes: [RevealUnits.Box]) -> [(x0: Int, y0: Int, x1: Int, y1: Int)] {
            boxes.compactMap { box in
                let (x0, x1) = (max(0, box.x0 - left), min(image.width, box.x1 - left))
                let (y0, y1) = (max(0, box.y0 - top), min(image.height, box.y1 - top))
                return x1 > x0 && y1 > y0 ? (x0, y0, x1, y1) : nil
            }
        }
        /// Copies `boxes` of the picture at `presence` into `out`, whose corner is (`ox`, `oy`) of it.
        func copy(_ boxes: [(x0: Int, y0: Int, x1: Int, y1: Int)], presence: Double, into out: RGBA16Image, ox: Int, oy: Int) {
            let weight = Int((presence * 65536).rounded())
            for box in boxes {
                for c in 0..<4 {
                    for row in box.y0..<box.y1 {
                        let from = image.row(c, row), to = out.row(c, row - oy) - ox
                        if weight >= 65536 {
                            for column in box.x0..<box.x1 { to[column] = from[column] }
                        } else {
                            for column in box.x0..<box.x1 { to[column] = UInt16((Int(from[column]) * weight + 32768) >> 16) }
                        }
                    }
                }
            }
        }
        func cleared(width: Int, height: Int) -> RGBA16Image {
            let out = RGBA16Image(width: width, height: height, hasAlpha: true)
            for c in 0..<4 {
                for row in 0..<height { out.row(c, row).update(repeating: 0, count: width) }
            }
            return out
        }
        var resting: RGBA16Image?
        var moving: [(layer: MovingLayer, dx: Double, dy: Double)] = []
        for (index, unit) in list.enumerated() {
            let presence = reveal.presence(of: index, count: list.count)
            let boxes = clipped(unit.boxes)
            guard presence > 0, !boxes.isEmpty else { continue }
            let offset = reveal.offset(of: index)
            if offset == (0, 0) {
                let out = resting ?? cleared(width: image.width, height: image.height)
                resting = out
                copy(boxes, presence: presence, into: out, ox: 0, oy: 0)
            } else {
                // Its own picture, as small as its boxes.
                let (x0, y0) = (boxes.map(\.x0).min()!, boxes.map(\.y0).min()!)
                let (x1, y1) = (boxes.map(\.x1).max()!, boxes.map(\.y1).max()!)
                let out = cleared(width: x1 - x0, height: y1 - y0)
                copy(boxes, presence: presence, into: out, ox: x0, oy: y0)
                moving.append((MovingLayer(trimmed: out, x: x + x0, y: y + y0, like: self), offset.dx, offset.dy))
            }
        }
        return (resting.map { MovingLayer(trimmed: $0, x: x, y: y, like: self) }, moving)
    }

    /// The layer as `state` shows it, ready to draw onto frames of `layout` (at the state's
    /// opacity, which `FrameOverlay.draw` applies): one overlay, or one a strip.
    package func overlays(_ state: LayerState, layout: PixelLayout) -> [FrameOverlay] {
        pieces(state).map { FrameOverlay(layer: $0.image, x: $0.x, y: $0.y, frameWidth: frameWidth, frameHeight: frameHeight, layout: layout) }
    }

    /// The layer's samples as `state` places them, in pieces that do not overlap: a
    /// translation (a slide) or strips over a translation are moved piece by piece in integers
    /// (each strip its own piece, so the frame between strips is not part of any); a scale or
    /// a wipe goes through `transformed`.
    package func pieces(_ state: LayerState) -> [(image: RGBA16Image, x: Int, y: Int)] {
        if let reveal = state.reveal {
            let shown = revealing(reveal)
            var rest = state
            rest.reveal = nil
            return (shown.still?.pieces(rest) ?? []) + shown.moving.flatMap { unit in
                var moved = rest
                (moved.dx, moved.dy) = (rest.dx + unit.dx, rest.dy + unit.dy)
                return unit.layer.pieces(moved)
            }
        }
        guard let moves = translations(state) else { return transformed(state).map { [$0] } ?? [] }
        return moves.compactMap { translated(dx: $0.dx, dy: $0.dy, inside: $0.inside) }
    }

    /// A state that only moves the layer as pieces (a slide, strips, both), as offsets in frame
    /// pixels each for a part of the frame (x0, y0, x1, y1); nil for a scale or a wipe.
    package func translations(_ state: LayerState) -> [(dx: Double, dy: Double, inside: (Int, Int, Int, Int))]? {
        guard state.scale == 1, state.visible == (0, 0, 1, 1), state.reveal == nil, state.dx.isFinite, state.dy.isFinite else { return nil }
        let (ox, oy) = (state.dx * unit, state.dy * unit)
        let limit = 16 * Double(max(frameWidth, frameHeight))
        guard ox.magnitude < limit, oy.magnitude < limit else { return [] }
        guard let strips = state.strips else { return [(ox, oy, (0, 0, frameWidth, frameHeight))] }
        let vertical = strips.cut.direction == .vertical
        let layout = StripLayout(count: strips.cut.count, seed: strips.cut.seed, travel: strips.cut.travel)
        let across = vertical ? frameWidth : frameHeight, extent = Double(vertical ? frameHeight : frameWidth)
        // Only the strips the layer falls in (two samples of margin for the filter).
        let first = vertical ? Int((Double(x) + ox).rounded(.down)) - 2 : Int((Double(y) + oy).rounded(.down)) - 2
        let last = first + (vertical ? image.width : image.height) + 4
        var moves: [(dx: Double, dy: Double, inside: (Int, Int, Int, Int))] = []
        for k in 0..<layout.count {
            let (from, to) = (max(first, layout.boundary(k, extent: across)), min(last, layout.boundary(k + 1, extent: across)))
            guard from < to else { continue }
            let travel = strips.leaving ? StripLayout.outgoingSign(k) * layout.outgoingTravel[k] : StripLayout.incomingSign(k) * layout.incomingTravel[k]
            let shift = max(-limit, min(limit, travel * extent * strips.factor))
            moves.append(vertical ? (ox, oy + shift, (from, 0, to, frameHeight)) : (ox + shift, oy, (0, from, frameWidth, to)))
        }
        return moves
    }

    /// The picture moved by (`ox`, `oy`) frame pixels, the part inside `inside` (x0, y0, x1,
    /// y1) of the frame. Every output sample mixes the same four neighbours with the same
    /// weights, so this is done in integers on the padded picture, the offset's fraction taken
    /// to 1/4096 px; each written sample is rounded once to nearest.
    private func translated(dx ox: Double, dy oy: Double, inside: (Int, Int, Int, Int)) -> (image: RGBA16Image, x: Int, y: Int)? {
        let (tw, th) = (image.width, image.height)
        // Picture column u = X − ox − x; padded, u + 1 = (X − x + 1 + kx) + fx with −ox = kx + fx.
        let kx = Int((-ox).rounded(.down)), ky = Int((-oy).rounded(.down))
        var fx = Int(((-ox - Double(kx)) * 4096).rounded()), fy = Int(((-oy - Double(ky)) * 4096).rounded())
        var (left, top) = (x - 1 - kx, y - 1 - ky)
        // A fraction that rounds up to a whole sample is the next whole offset.
        if fx == 4096 { (fx, left) = (0, left - 1) }
        if fy == 4096 { (fy, top) = (0, top - 1) }
        // Output column X reads padded columns X − left and the next: tw + 1 columns from `left`.
        let (x0, y0) = (max(inside.0, left), max(inside.1, top))
        let (x1, y1) = (min(inside.2, left + tw + 1), min(inside.3, top + th + 1))
        guard x1 > x0, y1 > y0 else { return nil }
        let out = RGBA16Image(width: x1 - x0, height: y1 - y0, hasAlpha: true)
        let w00 = (4096 - fx) * (4096 - fy), w01 = fx * (4096 - fy), w10 = (4096 - fx) * fy, w11 = fx * fy
        let stride = padded.stride
        var any = false
        // Alpha first: colour is capped at it.
        for c in [3, 0, 1, 2] {
            let source = padded.row(c, 0)
            for row in y0..<y1 {
                let above = source + (row - top) * stride, below = above + stride
                let target = out.row(c, row - y0), alpha = out.row(3, row - y0)
                for column in x0..<x1 {
                    let i = column - left
                    let sum = w00 &* Int(above[i]) &+ w01 &* Int(above[i &+ 1]) &+ w10 &* Int(below[i]) &+ w11 &* Int(below[i &+ 1])
                    var value = (sum &+ (1 << 23)) >> 24
                    if c == 3 {
                        any = any || value > 0
                    } else {
                        value = min(value, Int(alpha[column - x0]))
                    }
                    target[column - x0] = UInt16(truncatingIfNeeded: value)
                }
            }
        }
        return any ? (out, x0, y0) : nil
    }

    /// The layer's samples as `state` places them, and where on the frame they go; nil when
    /// nothing of it is on the frame.
    ///
    /// Each output pixel's centre is mapped back through the transform into the picture and
    /// sampled bilinearly (outside the picture is transparent, so edges are soft by the
    /// fraction they cover); a wipe's edge weighs the picture's samples by how much of each
    /// the uncovered part holds; a strip's displacement shifts its columns (rows, for
    /// horizontal strips) by a fraction of a pixel too.
    package func transformed(_ state: LayerState) -> (image: RGBA16Image, x: Int, y: Int)? {
        let scale = state.scale
        guard scale.isFinite, scale > 1e-4, state.dx.isFinite, state.dy.isFinite else { return nil }
        let (ox, oy) = (state.dx * unit, state.dy * unit)
        let (cx, cy) = (box.x + box.width / 2, box.y + box.height / 2)
        let (tw, th) = (image.width, image.height)
        let (fw, fh) = (Double(frameWidth), Double(frameHeight))
        let limit = 4 * max(fw, fh)

        // Each strip's displacement, by frame column (vertical strips) or row (horizontal).
        var shifts: [Double]? = nil
        var vertical = true
        if let strips = state.strips {
            vertical = strips.cut.direction == .vertical
            let layout = StripLayout(count: strips.cut.count, seed: strips.cut.seed, travel: strips.cut.travel)
            let across = vertical ? frameWidth : frameHeight
            let extent = vertical ? fh : fw
            var table = [Double](repeating: 0, count: across)
            for k in 0..<layout.count {
                let travel = strips.leaving ? StripLayout.outgoingSign(k) * layout.outgoingTravel[k] : StripLayout.incomingSign(k) * layout.incomingTravel[k]
                // Off the frame is as far as a strip needs to go.
                let shift = max(-limit, min(limit, travel * extent * strips.factor))
                for i in layout.boundary(k, extent: across)..<layout.boundary(k + 1, extent: across) { table[i] = shift }
            }
            shifts = table
        }

        // Where the picture lands: its corners through the transform, one pixel of margin for
        // the filter, widened by the strips' shifts, inside the frame.
        let left = cx + (Double(x) - cx) * scale + ox, right = cx + (Double(x + tw) - cx) * scale + ox
        let top = cy + (Double(y) - cy) * scale + oy, bottom = cy + (Double(y + th) - cy) * scale + oy
        guard left.magnitude < limit * 4, right.magnitude < limit * 4, top.magnitude < limit * 4, bottom.magnitude < limit * 4 else { return nil }
        var (x0, x1) = (Int(left.rounded(.down)) - 1, Int(right.rounded(.up)) + 1)
        var (y0, y1) = (Int(top.rounded(.down)) - 1, Int(bottom.rounded(.up)) + 1)
        if let shifts {
            // Only the strips the layer's columns (rows) fall in.
            let range = vertical ? max(0, x0)..<min(frameWidth, max(max(0, x0), x1)) : max(0, y0)..<min(frameHeight, max(max(0, y0), y1))
            let moved = range.map { shifts[$0] }
            let (low, high) = (moved.min() ?? 0, moved.max() ?? 0)
            if vertical {
                (y0, y1) = (y0 + Int(low.rounded(.down)), y1 + Int(high.rounded(.up)))
            } else {
                (x0, x1) = (x0 + Int(low.rounded(.down)), x1 + Int(high.rounded(.up)))
            }
        }
        (x0, y0, x1, y1) = (max(0, x0), max(0, y0), min(frameWidth, x1), min(frameHeight, y1))
        guard x1 > x0, y1 > y0 else { return nil }

        // How much of each picture column and row the uncovered part holds (a wipe's soft edge).
        let visible = state.visible
        let (vx0, vx1) = (box.x + visible.x0 * box.width, box.x + visible.x1 * box.width)
        let (vy0, vy1) = (box.y + visible.y0 * box.height, box.y + visible.y1 * box.height)
        func cover(_ first: Int, _ count: Int, _ low: Double, _ high: Double) -> [Double]? {
            guard low > Double(first) || high < Double(first + count) else { return nil }
            return (0..<count).map { i in max(0, min(Double(first + i + 1), high) - max(Double(first + i), low)) }
        }
        let columns = cover(x, tw, vx0, vx1), rows = cover(y, th, vy0, vy1)
        if columns?.allSatisfy({ $0 == 0 }) == true || rows?.allSatisfy({ $0 == 0 }) == true { return nil }

        let out = RGBA16Image(width: x1 - x0, height: y1 - y0, hasAlpha: true)
        let inverse = 1 / scale
        // Picture coordinates: sample i's centre is at i + 0.5 from the picture's left edge.
        let (originX, originY) = (cx - Double(x) - 0.5, cy - Double(y) - 0.5)
        let source = (image.row(0, 0), image.row(1, 0), image.row(2, 0), image.row(3, 0))
        let stride = image.stride
        let wiped = columns != nil || rows != nil
        let columnCover = columns ?? [Double](repeating: 1, count: tw), rowCover = rows ?? [Double](repeating: 1, count: th)
        var any = false
        for row in y0..<y1 {
            let (red, green, blue, alphas) = (out.row(0, row - y0), out.row(1, row - y0), out.row(2, row - y0), out.row(3, row - y0))
            let frameY = Double(row) + 0.5 - oy - cy
            for column in x0..<x1 {
                var dx = Double(column) + 0.5 - ox - cx, dy = frameY
                if let shifts {
                    if vertical { dy -= shifts[column] } else { dx -= shifts[row] }
                }
                let u = dx * inverse + originX, v = dy * inverse + originY
                let i0 = Int(u.rounded(.down)), j0 = Int(v.rounded(.down))
                var sums = (0.0, 0.0, 0.0, 0.0)
                if i0 >= -1, i0 < tw, j0 >= -1, j0 < th {
                    let fx = u - Double(i0), fy = v - Double(j0)
                    // One of the four neighbours, weighed by the filter and the part uncovered.
                    @inline(__always) func add(_ i: Int, _ j: Int, _ weight: Double) {
                        guard i >= 0, i < tw, j >= 0, j < th, weight > 0 else { return }
                        let w = weight * (wiped ? columnCover[i] * rowCover[j] : 1)
                        let at = j &* stride &+ i
                        sums.0 += w * Double(source.0[at])
                        sums.1 += w * Double(source.1[at])
                        sums.2 += w * Double(source.2[at])
                        sums.3 += w * Double(source.3[at])
                    }
                    add(i0, j0, (1 - fx) * (1 - fy))
                    add(i0 + 1, j0, fx * (1 - fy))
                    add(i0, j0 + 1, (1 - fx) * fy)
                    add(i0 + 1, j0 + 1, fx * fy)
                }
                let alpha = min(65535, Int(sums.3 + 0.5))
                if alpha > 0 { any = true }
                alphas[column - x0] = UInt16(alpha)
                red[column - x0] = UInt16(min(alpha, Int(sums.0 + 0.5)))
                green[column - x0] = UInt16(min(alpha, Int(sums.1 + 0.5)))
                blue[column - x0] = UInt16(min(alpha, Int(sums.2 + 0.5)))
            }
        }
        return any ? (out, x0, y0) : nil
    }
}
