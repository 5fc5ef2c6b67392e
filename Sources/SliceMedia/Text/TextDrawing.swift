// The part of a text layer's render that needs Pango and Cairo, made under TextEngine's lock:
// the strict checks, the size search, and the coverage masks of plate, shadow, outline and
// fill. Colour is applied afterwards, outside the lock.

import SliceKit
import Synchronization

/// A text layer's coverage, drawn at the size that fits.
struct TextDrawing: Sendable {
    let size: Double
    let lines: Int
    let ellipsized: Bool
    let fill: CoverageMask
    let outline: CoverageMask?
    let shadow: CoverageMask?
    let plate: CoverageMask?
    /// The glyph clusters, in pixels of the layer's box.
    let glyphs: [GlyphCluster]

    /// Called after a text's first layout, while Pango, HarfBuzz, Cairo and FreeType hold its
    /// fonts open and its sizes are still to be tried and drawn: where `FontFileTests` rewrites a
    /// font file as `cp` would. It is given the layer and cleared once it says it acted, so a
    /// text drawn by a test beside it never takes it.
    static let afterFirstLayout = Mutex<(@Sendable (TextLayer) -> Bool)?>(nil)

    /// Lays `layer` out in `fonts`, checks it, finds its size and draws its masks.
    init(_ layer: TextLayer, fonts: TextFonts) throws(TextError) {
        let families = try Self.families(layer, fonts: fonts)
        let sizes = TextRenderer.candidates(layer.size)
        // Every character of the whole text, drawn or cut by an ellipsis later, must be in a font.
        let whole = try TextLayout(layer, fonts: fonts, families: families, setting: .init(size: sizes[0], width: nil))
        try Self.requireKnown(whole, layer: layer, fonts: fonts)
        let hook = Self.afterFirstLayout.withLock { $0 }
        if let hook, hook(layer) { Self.afterFirstLayout.withLock { $0 = nil } }
        let width = Double(layer.width) - 2 * (layer.plate?.padding ?? 0)
        func laid(_ size: Double) throws(TextError) -> (TextLayout, TextPlacement) {
            let layout = try TextLayout(layer, fonts: fonts, families: families, setting: .init(size: size, width: width))
            return (layout, TextPlacement(layout, layer: layer))
        }
        // Bisection over the sizes for the largest that fits: text grows with its size, so
        // the answer is the same every time; ~log2(steps) layouts rather than one per step.
        var chosen: (layout: TextLayout, placement: TextPlacement, size: Double)?
        let largest = try laid(sizes[sizes.count - 1])
        if largest.1.problem == nil {
            chosen = (largest.0, largest.1, sizes[sizes.count - 1])
        } else if sizes.count > 1 {
            let smallest = try laid(sizes[0])
            if smallest.1.problem == nil {
                var fits = (index: 0, layout: smallest.0, placement: smallest.1), tooBig = sizes.count - 1
                while tooBig - fits.index > 1 {
                    let middle = (fits.index + tooBig) / 2
                    let (layout, placement) = try laid(sizes[middle])
                    if placement.problem == nil { fits = (middle, layout, placement) } else { tooBig = middle }
                }
                chosen = (fits.layout, fits.placement, sizes[fits.index])
            }
        }
        if chosen == nil {
            let (layout, placement) = try laid(sizes[0])
            guard layer.ellipsis else { throw Self.tooBig(layer, size: sizes[0], problem: placement.problem ?? "", ellipsis: false) }
            let cut = try Self.ellipsized(layer, fonts: fonts, families: families, size: sizes[0], width: width, full: layout)
            chosen = (cut.0, cut.1, sizes[0])
        }
        let (layout, placement, size) = chosen!
        // The ellipsis character is the fonts' too.
        try Self.requireKnown(layout, layer: layer, fonts: fonts)
        self.size = size
        lines = layout.extents.lines
        ellipsized = layout.extents.ellipsized
        glyphs = layout.clusters(dx: placement.x, dy: placement.y)
        var fill = CoverageMask(width: layer.width, height: layer.height)
        try layout.draw(into: &fill, x: placement.x, y: placement.y)
        self.fill = fill
        if let outline = layer.outline {
            var mask = CoverageMask(width: layer.width, height: layer.height)
            try layout.draw(into: &mask, x: placement.x, y: placement.y, outline: outline.width)
            self.outline = mask
        } else {
            outline = nil
        }
        if let shadow = layer.shadow {
            var mask = CoverageMask(width: layer.width, height: layer.height)
            try layout.draw(into: &mask, x: placement.x + shadow.x, y: placement.y + shadow.y)
            if let outline = layer.outline {
                try layout.draw(into: &mask, x: placement.x + shadow.x, y: placement.y + shadow.y, outline: outline.width)
            }
            self.shadow = mask
        } else {
            shadow = nil
        }
        if let plate = layer.plate {
            var mask = CoverageMask(width: layer.width, height: layer.height)
            try mask.fillRectangle(placement.plate, radius: plate.radius, layer: layer.name)
            self.plate = mask
        } else {
            plate = nil
        }
    }

    /// The families in fallback order: the layer's chosen one first.
    private static func families(_ layer: TextLayer, fonts: TextFonts) throws(TextError) -> [String] {
        guard let family = layer.family else { return fonts.families }
        guard let named = fonts.families.first(where: { $0.lowercased() == family.lowercased() }) else {
            throw TextError(.invalidSetting, layer: layer.name,
                            message: "family \(InputText.quoted(family)) is not in its fonts; they hold \(fonts.families.map(InputText.quoted).joined(separator: ", "))")
        }
        return [named] + fonts.families.filter { $0 != named }
    }

    /// Throws for the first character of `layout`'s text that no font has.
    private static func requireKnown(_ layout: TextLayout, layer: TextLayer, fonts: TextFonts) throws(TextError) {
        let unknown = layout.unknownCharacters()
        guard let first = unknown.first, let scalar = Unicode.Scalar(first.scalar) else { return }
        let position = layer.text.utf8.index(layer.text.utf8.startIndex, offsetBy: min(first.offset, layer.text.utf8.count))
        let index = layer.text.unicodeScalars[..<position].count + 1
        let others = unknown.dropFirst().compactMap { Unicode.Scalar($0.scalar) }.prefix(3).map { "U+" + String($0.value, radix: 16, uppercase: true) }
        let more = others.isEmpty ? "" : " (and \(unknown.count - 1) more: \(others.joined(separator: ", "))\(unknown.count > 4 ? ", …" : ""))"
        throw TextError(.unknownCharacter, layer: layer.name,
                        message: "none of its fonts can draw \(TextLayer.code(scalar)) \(InputText.quoted(String(scalar))), character \(index) of \(InputText.quoted(layer.text))\(more); fonts tried: \(fonts.tried(files: layer.fonts)); add a font that has it")
    }

    /// The layout at `size` cut with "…" to the box (and to `maxLines`), placed.
    private static func ellipsized(_ layer: TextLayer, fonts: TextFonts, families: [String], size: Double, width: Double,
                                   full: TextLayout) throws(TextError) -> (TextLayout, TextPlacement) {
        var height = Double(layer.height) - 2 * (layer.plate?.padding ?? 0)
        if let maxLines = layer.maxLines, let bottom = full.bottom(ofLine: maxLines - 1) { height = min(height, bottom) }
        let layout = try TextLayout(layer, fonts: fonts, families: families,
                                    setting: .init(size: size, width: width, ellipsis: true, ellipsisHeight: height))
        let placement = TextPlacement(layout, layer: layer)
        if let problem = placement.problem { throw tooBig(layer, size: size, problem: problem, ellipsis: true) }
        return (layout, placement)
    }

    private static func tooBig(_ layer: TextLayer, size: Double, problem: String, ellipsis: Bool) -> TextError {
        let at = switch layer.size {
        case .pixels: "at \(TextPlacement.pixels(size)) px"
        case .auto: "even at its smallest size, \(TextPlacement.pixels(size)) px"
        }
        let advice = ellipsis ? "make the box bigger or the size smaller"
                              : "make the box bigger, the text shorter or the size smaller, or turn on the ellipsis"
        return TextError(.doesNotFit, layer: layer.name,
                         message: "\(InputText.quoted(layer.text)) does not fit its \(layer.width)x\(layer.height) px box \(at)\(ellipsis ? " with an ellipsis" : ""): \(problem); \(advice)")
    }
}
