// Where a laid-out text lands in its layer's box, and whether everything drawn for it (ink,
// outline, shadow, plate) stays inside: the test the size search asks at every size.

/// A layout placed in its box: where its origin goes, what it covers, and why it does not fit.
struct TextPlacement {
    /// The layout's top-left origin in the box, on whole pixels.
    let x: Double, y: Double
    /// The plate behind the lines, on whole pixels.
    let plate: Rectangle
    /// Why the text does not fit, as an error goes on ("needs 3 lines; max-lines is 2"); nil
    /// when it fits.
    let problem: String?

    /// How far drawn coverage may stray beyond the ink rectangle Pango reports: Cairo 1.16
    /// puts each glyph on a whole pixel, up to half a pixel from where Pango measured it.
    static let inkMargin = 1.0

    init(_ layout: TextLayout, layer: TextLayer) {
        let extents = layout.extents
        let padding = layer.plate?.padding ?? 0
        let inner = (width: Double(layer.width) - 2 * padding, height: Double(layer.height) - 2 * padding)
        let logical = extents.logical
        let free = inner.height - logical.height
        let top = switch layer.verticalAlignment {
        case .top: 0.0
        case .centre: free / 2
        case .bottom: free
        }
        x = padding.rounded()
        y = (padding + top - logical.y).rounded()
        let lines = logical.offset(x, y, growing: padding)
        plate = Rectangle(x: lines.x.rounded(.down), y: lines.y.rounded(.down),
                          width: lines.maxX.rounded(.up) - lines.x.rounded(.down),
                          height: lines.maxY.rounded(.up) - lines.y.rounded(.down))
        problem = Self.problem(extents, layer: layer, inner: inner, x: x, y: y)
    }

    private static func problem(_ extents: TextLayout.Extents, layer: TextLayer, inner: (width: Double, height: Double),
                                x: Double, y: Double) -> String? {
        if let maxLines = layer.maxLines, extents.lines > maxLines {
            return "it needs \(extents.lines) lines and max-lines is \(maxLines)"
        }
        if !layer.wrap && extents.wrapped {
            return "a line is wider than the box and wrapping is off"
        }
        if extents.logical.width > inner.width {
            return "a word is \(pixels(extents.logical.width)) px wide and the box has \(pixels(inner.width)) px for text"
        }
        if extents.logical.height > inner.height {
            return "its \(extents.lines) line\(extents.lines == 1 ? "" : "s") need \(pixels(extents.logical.height)) px of height and the box has \(pixels(inner.height)) px for text"
        }
        let box = Rectangle(x: 0, y: 0, width: Double(layer.width), height: Double(layer.height))
        let outline = layer.outline?.width ?? 0
        let ink = extents.ink.offset(x, y, growing: outline + inkMargin)
        if !box.contains(ink) {
            return "its ink (accents, descenders\(outline > 0 ? ", outline" : "")) reaches outside the box"
        }
        if let shadow = layer.shadow {
            let reach = Double(ShadowBlur(sigma: shadow.blur).reach)
            if !box.contains(ink.offset(shadow.x, shadow.y, growing: reach)) { return "its shadow reaches outside the box" }
        }
        return nil
    }

    /// A length for messages: whole pixels, or one decimal.
    static func pixels(_ value: Double) -> String {
        let tenths = (value * 10).rounded()
        return tenths.truncatingRemainder(dividingBy: 10) == 0 ? String(Int(tenths / 10)) : String(tenths / 10)
    }
}

extension Rectangle {
    /// Whether `other` lies wholly inside this rectangle (an empty one always does).
    func contains(_ other: Rectangle) -> Bool {
        other.width <= 0 || other.height <= 0 || (other.x >= x && other.y >= y && other.maxX <= maxX && other.maxY <= maxY)
    }
}
