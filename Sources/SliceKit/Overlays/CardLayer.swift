// A layer placed `on` a card: a picture the text engine or a logo made (premultiplied 16-bit
// RGBA, the size of its box) and where its box lands on the frame-sized card.

/// A premultiplied picture and the frame position of its top-left corner, to be composed onto
/// a fitted still before it is cut into strips (`RGBA16Image.compose`).
///
/// The position may put part of the picture, or all of it, outside the frame: what falls
/// outside is clipped.
package struct CardLayer: @unchecked Sendable {
    // @unchecked: a layer is made once (by the text engine or the logo's decode) and only read
    // from then on; composing reads `picture` and never writes it, so the stills of several
    // cards may be composed from one layer on several decode threads at once.

    /// 16-bit R, G, B (and A) in sRGB, colour premultiplied by alpha; without an alpha plane
    /// the picture is opaque.
    package let picture: RGBA16Image
    /// The frame column of the picture's left edge (may be negative).
    package let x: Int
    /// The frame row of the picture's top edge (may be negative).
    package let y: Int

    package init(picture: RGBA16Image, x: Int, y: Int) {
        self.picture = picture
        self.x = x
        self.y = y
    }
}
