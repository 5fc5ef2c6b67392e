// Where a laid-out text lands in its layer's box, and whether everything drawn for it (ink,
// outline, shadow, plate) stays inside: the test the size search asks at every size.

import SliceKit

/// A layout placed in its box: where its origin goes, what it covers, and why it does not fit.
struct TextPlacement {
    /// The layout's top-left origin in the box, on whole pixels.
    let x: Double, y: Double
    /// The plate behind the lines, on whole pixels, within the box.
    let plate: Rectangle
    /// Why the text does not fit, as an error goes on ("it needs 3 lines and max-lines is 2");
    /// nil when it fits.
    let problem: String?

    /// How far drawn coverage may stray beyond the ink rectangle Pango reports: Cairo 1.16
    /// puts each glyph on a whole pixel, up to half a pixel from where Pango measured it.
    static let inkMargin = 1.0

    /// Places the lines by their advances and line heights (the logical box) in the box less
    /// the plate's padding, as the alignments ask; then, where ink overhangs that box (a
    /// Devanagari headline left of the first letter, an accent above the first line, an
    /// outline, a shadow) past the layer's box on one side, moves it in by whole pixels as far
    /// as the other side allows. Ink is never cut: what cannot move in does not fit.
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
        var x = padding.rounded(), y = (padding + top - logical.y).rounded()
        var problem = Self.lineProblem(extents, layer: layer, inner: inner)
        let drawn = Self.drawn(extents, layer: layer)
        if problem == nil {
            let across = Self.moveIn(drawn.x + x, drawn.maxX + x, within: Double(layer.width))
            let down = Self.moveIn(drawn.y + y, drawn.maxY + y, within: Double(layer.height))
            if let across, let down {
                x += across
                y += down
            } else {
                problem = "its ink (with accents, descenders\(layer.outline == nil ? "" : ", outline")\(layer.shadow == nil ? "" : ", shadow")) is \(Self.pixels(drawn.width))x\(Self.pixels(drawn.height)) px, more than the \(layer.width)x\(layer.height) px box"
            }
        }
        self.x = x
        self.y = y
        self.problem = problem
        // The lines' box and padding, out to whole pixels, and never past the layer's box.
        let lines = logical.offset(x, y, growing: padding)
        let left = max(0, lines.x.rounded(.down)), right = min(Double(layer.width), lines.maxX.rounded(.up))
        let upper = max(0, lines.y.rounded(.down)), lower = min(Double(layer.height), lines.maxY.rounded(.up))
        plate = Rectangle(x: left, y: upper, width: right - left, height: lower - upper)
    }

    /// Why the lines do not fit the box less the padding, by line count, wrapping and size.
    private static func lineProblem(_ extents: TextLayout.Extents, layer: TextLayer,
                                    inner: (width: Double, height: Double)) -> String? {
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
        return nil
    }

    /// Everything drawn for the text, from the layout's origin: the ink grown by the outline
    /// and the margin, and the shadow's ink moved and grown by its blur.
    private static func drawn(_ extents: TextLayout.Extents, layer: TextLayer) -> Rectangle {
        let ink = extents.ink.offset(0, 0, growing: (layer.outline?.width ?? 0) + inkMargin)
        guard let shadow = layer.shadow else { return ink }
        let cast = ink.offset(shadow.x, shadow.y, growing: Double(ShadowBlur(sigma: shadow.blur).reach))
        let left = min(ink.x, cast.x), upper = min(ink.y, cast.y)
        return Rectangle(x: left, y: upper, width: max(ink.maxX, cast.maxX) - left, height: max(ink.maxY, cast.maxY) - upper)
    }

    /// The whole pixels that move the span from `start` to `end` inside 0 … `length`: 0 when it
    /// is inside; nil when it is longer than `length`.
    private static func moveIn(_ start: Double, _ end: Double, within length: Double) -> Double? {
        if start >= 0 && end <= length { return 0 }
        if end - start > length { return nil }
        if start < 0 {
            let shift = (-start).rounded(.up)
            return end + shift <= length ? shift : nil
        }
        let shift = (end - length).rounded(.up)
        return start - shift >= 0 ? -shift : nil
    }

    /// A length for messages: whole pixels, or one decimal.
    static func pixels(_ value: Double) -> String { UnitText.pixels(value) }
}
