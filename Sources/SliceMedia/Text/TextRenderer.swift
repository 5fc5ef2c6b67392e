// Text layers to pictures: checks the layer, finds the size that fits its box, refuses what it
// cannot draw exactly (a character no font has, text too big for the box), and paints plate,
// shadow, outline and fill into a premultiplied picture of the box's size.

import SliceKit

/// Draws text layers.
package enum TextRenderer {
    /// Draws `layer` into a transparent picture of exactly its box.
    ///
    /// The same layer, fonts' bytes and library versions give the same bytes on every machine,
    /// whatever fonts it has installed and however fontconfig is set up there; any number of
    /// threads may call this at once (they take turns inside Pango).
    /// - Returns: the picture (16-bit, premultiplied) and what was chosen: the size, the lines.
    /// - Throws: `TextError`: a bad value (`.invalidSetting`), a font file missing
    ///   (`.fontMissing`) or not a usable font (`.fontInvalid`), a character no font has
    ///   (`.unknownCharacter`), text too big for the box at the smallest size without ellipsis
    ///   (`.doesNotFit`), or the libraries missing (`.unavailable`).
    package static func render(_ layer: TextLayer) throws(TextError) -> RenderedText {
        try render(layer, defaults: DefaultFonts.files)
    }

    /// `render`, with `defaults` standing for the default set (tests give one with a file missing).
    static func render(_ layer: TextLayer, defaults: [DefaultFonts.File]) throws(TextError) -> RenderedText {
        try layer.check()
        let drawing = try TextEngine.withFonts(layer.fonts, digests: layer.fontDigests, defaults: defaults, layer: layer.name) { fonts throws(TextError) in
            try TextDrawing(layer, fonts: fonts)
        }
        let picture = RGBA16Image.transparent(width: layer.width, height: layer.height)
        if let plate = layer.plate, let mask = drawing.plate { picture.paint(plate.color, coverage: mask.wide()) }
        if let shadow = layer.shadow, let mask = drawing.shadow {
            picture.paint(shadow.color, coverage: ShadowBlur(sigma: shadow.blur).apply(to: mask.wide(), width: mask.width, height: mask.height))
        }
        if let outline = layer.outline, let mask = drawing.outline { picture.paint(outline.color, coverage: mask.wide()) }
        picture.paint(layer.color, coverage: drawing.fill.wide())
        return RenderedText(picture: picture, size: drawing.size, lines: drawing.lines, ellipsized: drawing.ellipsized, glyphs: drawing.glyphs)
    }

    /// The sizes `auto` tries, smallest first: `min`, then half-pixel steps, then `max`.
    static func candidates(_ size: TextLayer.Size) -> [Double] {
        switch size {
        case .pixels(let pixels):
            return [pixels]
        case .auto(let min, let max):
            let steps = Int(((max - min) * 2).rounded(.down))
            var sizes = (0...steps).map { min + Double($0) / 2 }
            if sizes.last! < max { sizes.append(max) }
            return sizes
        }
    }
}
