// Cards: layers composed onto a fitted still once, before it is converted to the render layout
// and cut into strips, so what is printed on a card flies with its strips and costs nothing per
// frame. Source over, premultiplied, in exact integer maths with one rounding per sample.

/// How a picture with an alpha plane stores its colour.
package enum AlphaForm: Sendable {
    /// Colour as it is, alpha beside it: a fitted still placed on a translucent background.
    case straight
    /// Colour multiplied by alpha: a layer, or a still while it is scaled.
    case premultiplied
}

extension RGBA16Image {
    /// Composes the premultiplied `layer` over this picture ("source over") with the layer's
    /// top-left corner at (`x`, `y`); the parts of the layer outside this picture are clipped.
    ///
    /// The layer's colour is capped at its alpha first. Each sample is computed exactly in
    /// integers and rounded once to the nearest 16-bit value (A = the layer's alpha, L its
    /// colour, D and Dₐ this picture's, all 0…65535):
    /// - no alpha plane (opaque): L + D·(1 − A);
    /// - `.premultiplied`: the same for colour, alpha A + Dₐ·(1 − A);
    /// - `.straight`: alpha A + Dₐ·(1 − A), colour (L + D·Dₐ·(1 − A)) / that alpha, so the
    ///   picture stays in straight alpha.
    /// Where the layer is transparent the picture keeps its samples exactly; where it is
    /// opaque it takes the layer's.
    /// - Parameter alphaForm: how this picture stores colour when it has an alpha plane.
    package func compose(_ layer: RGBA16Image, x: Int, y: Int, alphaForm: AlphaForm = .straight) {
        guard let box = layer.visiblePart(atX: x, y: y, onWidth: width, height: height) else { return }
        let full = 65535, square = 65535 * 65535
        for fy in box.y0..<box.y1 {
            let ly = fy - y
            let from = (0..<3).map { layer.row($0, ly) + (box.x0 - x) }
            let to = (0..<3).map { row($0, fy) + box.x0 }
            let layerAlpha = layer.hasAlpha ? layer.row(3, ly) + (box.x0 - x) : nil
            let alpha = hasAlpha ? row(3, fy) + box.x0 : nil
            for i in 0..<(box.x1 - box.x0) {
                let a = layerAlpha.map { Int($0[i]) } ?? full
                if a == 0 { continue }
                let keep = full - a
                guard let alpha else {
                    for c in 0..<3 { to[c][i] = UInt16(min(full, (min(Int(from[c][i]), a) * full + keep * Int(to[c][i]) + 32767) / full)) }
                    continue
                }
                let under = Int(alpha[i])
                switch alphaForm {
                case .premultiplied:
                    for c in 0..<3 { to[c][i] = UInt16(min(full, (min(Int(from[c][i]), a) * full + keep * Int(to[c][i]) + 32767) / full)) }
                    alpha[i] = UInt16((a * full + keep * under + 32767) / full)
                case .straight:
                    // Both in units of 1/65535²: the result's alpha, and (for each colour) its
                    // premultiplied colour × 65535, so the quotient is straight colour in 0…65535.
                    let coverage = a * full + keep * under
                    for c in 0..<3 {
                        let premultiplied = min(Int(from[c][i]), a) * square + keep * Int(to[c][i]) * under
                        to[c][i] = UInt16(min(full, (premultiplied + coverage / 2) / coverage))
                    }
                    alpha[i] = UInt16((coverage + 32767) / full)
                }
            }
        }
    }

    /// The rows and columns of a frame of `frameWidth` × `frameHeight` that this picture
    /// covers when its top-left corner is at (`x`, `y`): the half-open ranges x0..<x1 and
    /// y0..<y1, or nil when none does. Safe for any `x` and `y`.
    package func visiblePart(atX x: Int, y: Int, onWidth frameWidth: Int, height frameHeight: Int)
        -> (x0: Int, y0: Int, x1: Int, y1: Int)? {
        // Compared before added: x + width cannot overflow once x < frameWidth.
        guard x < frameWidth, y < frameHeight, x > -width, y > -height else { return nil }
        return (max(0, x), max(0, y), min(frameWidth, x + width), min(frameHeight, y + height))
    }

    /// This fitted picture (opaque, or straight alpha as `placed` leaves it) with `layers`
    /// composed onto it in order, converted to `layout`. The layers are composed into this
    /// picture itself.
    package func planar(_ layout: PixelLayout, layers: [CardLayer]) -> PlanarImage {
        compose(layers)
        return planar(layout)
    }

    /// Composes `layers` onto this picture in order, in place.
    package func compose(_ layers: [CardLayer]) {
        for layer in layers { compose(layer.picture, x: layer.x, y: layer.y) }
    }
}

extension RGBAImage {
    /// This fitted picture with `layers` composed onto it in order, converted to `layout`.
    /// Without layers it is exactly `planar(layout)`. With some, the picture takes the 16-bit
    /// way where the layers are (× 257, composed, rounded back once), and every pixel no layer
    /// touches keeps the bytes it has without them: 16-bit layouts expand the whole picture
    /// as they always do; 8-bit ones only the rows and columns the layers cover, so a card
    /// costs its layers' boxes, not a second pass over the frame.
    package func planar(_ layout: PixelLayout, layers: [CardLayer]) -> PlanarImage {
        if layers.isEmpty { return planar(layout) }
        if layout.isDeep { return RGBA16Image(expanding: self, alpha: layout.hasAlpha).planar(layout, layers: layers) }
        var card = self
        card.compose(layers, alpha: layout.hasAlpha)
        return card.planar(layout)
    }

    /// Composes `layers` onto this picture at 16 bits and rounds the result back to 8 bits
    /// (`RGBA16Image.eightBit`), box by box: layers whose visible parts overlap (directly or
    /// through others) share the smallest box holding them all and are composed there in
    /// order, so every pixel is rounded once — the same samples as composing onto the whole
    /// picture × 257 and reducing it.
    /// - Parameter alpha: whether alpha counts (straight, as a fitted still holds it) and is
    ///   written back; without it the picture is taken as opaque and its alpha bytes are kept.
    mutating func compose(_ layers: [CardLayer], alpha: Bool) {
        typealias Box = (x0: Int, y0: Int, x1: Int, y1: Int)
        // Groups of overlapping layers (by index, in order) and the box each group covers.
        var groups: [(box: Box, members: [Int])] = []
        for (index, layer) in layers.enumerated() {
            // Layers off the picture are left out (their positions may be anything).
            guard var box = layer.picture.visiblePart(atX: layer.x, y: layer.y, onWidth: width, height: height) else { continue }
            var members = [index]
            while let hit = groups.firstIndex(where: { $0.box.x0 < box.x1 && box.x0 < $0.box.x1 && $0.box.y0 < box.y1 && box.y0 < $0.box.y1 }) {
                let group = groups.remove(at: hit)
                box = (min(box.x0, group.box.x0), min(box.y0, group.box.y0), max(box.x1, group.box.x1), max(box.y1, group.box.y1))
                members += group.members
            }
            groups.append((box, members.sorted()))
        }
        for group in groups { compose(group.members.map { layers[$0] }, within: group.box, alpha: alpha) }
    }

    /// Composes `layers` within `box` (which holds their visible parts) at 16 bits.
    private mutating func compose(_ layers: [CardLayer], within box: (x0: Int, y0: Int, x1: Int, y1: Int), alpha: Bool) {
        let part = RGBA16Image(width: box.x1 - box.x0, height: box.y1 - box.y0, hasAlpha: alpha)
        let channels = alpha ? 4 : 3, stride = width
        pixels.withUnsafeMutableBufferPointer { pixels in
            for y in 0..<part.height {
                let row = pixels.baseAddress! + 4 * ((box.y0 + y) * stride + box.x0)
                for c in 0..<channels {
                    let to = part.row(c, y)
                    for x in 0..<part.width { to[x] = UInt16(row[4 &* x &+ c]) &* 257 }
                }
            }
            for layer in layers { part.compose(layer.picture, x: layer.x - box.x0, y: layer.y - box.y0) }
            for y in 0..<part.height {
                let row = pixels.baseAddress! + 4 * ((box.y0 + y) * stride + box.x0)
                for c in 0..<channels {
                    let from = part.row(c, y)
                    for x in 0..<part.width { row[4 &* x &+ c] = RGBA16Image.eightBit(from[x]) }
                }
            }
        }
    }
}
