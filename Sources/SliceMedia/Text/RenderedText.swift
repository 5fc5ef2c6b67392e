// What TextRenderer.render gives back: the layer's picture and the choices made for it.

import SliceKit

/// A drawn text layer.
package struct RenderedText {
    /// Exactly the layer's box, 16-bit R, G, B and A planes, colour premultiplied by alpha
    /// (sRGB, as the layer's colours are): what the compositor puts over a card or frame.
    package let picture: RGBA16Image
    /// The em size the text was set at, in pixels (the one `auto` chose).
    package let size: Double
    /// How many lines it took.
    package let lines: Int
    /// Whether it was cut with "…" to fit.
    package let ellipsized: Bool
    /// Its glyph clusters, in pixels of the box: what typewriter, word and line reveals show
    /// one at a time.
    package var glyphs: [GlyphCluster] = []

    /// The picture in 8 bits, still premultiplied: each sample rounded to the nearest 8-bit
    /// value, which keeps every colour at or below its alpha.
    package var eightBit: RGBAImage { picture.reduced() }
}
