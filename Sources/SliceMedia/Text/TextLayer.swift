// One text layer as the text engine takes it: what it says, in which fonts, how it is set and
// decorated, in a box of whole pixels. Layout files, variables and frame sizes are resolved
// above this; everything here is in the output's pixels.

import SliceKit

/// A text to draw into a box: the input of `TextRenderer.render`.
package struct TextLayer: Sendable, Equatable {
    /// How big the text is set.
    package enum Size: Sendable, Equatable {
        /// The em size in pixels.
        case pixels(Double)
        /// The largest size, in steps of half a pixel from `min`, at which the text fits the
        /// box (within `maxLines`), at most `max`.
        case auto(min: Double, max: Double)
    }

    /// Where lines sit across the box. `start` and `end` follow each paragraph's direction:
    /// `start` is the left for English and the right for Hebrew or Arabic.
    package enum Alignment: Sendable, Equatable {
        case start, centre, end
    }

    /// Where the block of lines sits between the box's top and bottom.
    package enum VerticalAlignment: Sendable, Equatable {
        case top, centre, bottom
    }

    /// A rectangle behind the text: the lines' box grown by `padding` on every side, corners
    /// rounded to `radius`. The text keeps `padding` clear of the layer's box edges, so the
    /// plate always fits.
    package struct Plate: Sendable, Equatable {
        package var color: RGBAColor
        package var padding: Double
        package var radius: Double

        package init(color: RGBAColor, padding: Double = 0, radius: Double = 0) {
            self.color = color
            self.padding = padding
            self.radius = radius
        }
    }

    /// A line `width` pixels wide around every glyph, under the text's fill.
    package struct Outline: Sendable, Equatable {
        package var width: Double
        package var color: RGBAColor

        package init(width: Double, color: RGBAColor) {
            self.width = width
            self.color = color
        }
    }

    /// The text (and its outline) again under itself, moved by (`x`, `y`) pixels and blurred
    /// by a Gaussian of standard deviation `blur` pixels (0: sharp).
    package struct Shadow: Sendable, Equatable {
        package var x: Double
        package var y: Double
        package var blur: Double
        package var color: RGBAColor

        package init(x: Double, y: Double, blur: Double = 0, color: RGBAColor) {
            self.x = x
            self.y = y
            self.blur = blur
            self.color = color
        }
    }

    /// What messages call the layer ("layer 2", "price").
    package var name: String
    /// UTF-8 text; "\n" starts a new line.
    package var text: String
    /// Font files (OpenType or TrueType: .otf, .ttf, .ttc, .woff), in fallback order; the
    /// default set (`DefaultFonts`) follows them. Empty: the default set alone.
    package var fonts: [String]
    /// SHA-256 (hex) of font files as the run's plan read them, by path: a file whose bytes
    /// have changed since is refused rather than drawn with. Empty: whatever the files hold.
    package var fontDigests: [String: String] = [:]
    /// The family to set the text in, among `fonts`' faces (a collection holds several); nil:
    /// the first file's.
    package var family: String?
    /// 100 (thin) … 400 (regular) … 700 (bold) … 1000: the closest face of the family, or
    /// that weight of a variable font.
    package var weight: Int
    package var size: Size
    /// The box, in pixels: the rendered picture is exactly this size.
    package var width: Int
    package var height: Int
    /// Whether long lines wrap at word boundaries; without, only "\n" starts a line and a
    /// longer line does not fit.
    package var wrap: Bool
    /// At most this many lines; nil: as many as the box holds.
    package var maxLines: Int?
    package var alignment: Alignment
    package var verticalAlignment: VerticalAlignment
    /// Baseline-to-baseline distance as a multiple of the size; nil: the fonts' own.
    package var lineHeight: Double?
    package var color: RGBAColor
    package var plate: Plate?
    package var outline: Outline?
    package var shadow: Shadow?
    /// Whether text that does not fit at the smallest size is cut with "…" (else it is an error).
    package var ellipsis: Bool
    /// BCP 47 language of the text ("de", "ar", "ja"), for language-specific letter forms;
    /// "und": none.
    package var language: String

    /// A layer with the usual settings: default fonts, regular weight, wrapping, centred,
    /// white, no plate, outline or shadow, no ellipsis.
    package init(name: String, text: String, width: Int, height: Int, size: Size,
                 fonts: [String] = [], family: String? = nil, weight: Int = 400, wrap: Bool = true,
                 maxLines: Int? = nil, alignment: Alignment = .centre, verticalAlignment: VerticalAlignment = .centre,
                 lineHeight: Double? = nil, color: RGBAColor = RGBAColor(red: 255, green: 255, blue: 255),
                 plate: Plate? = nil, outline: Outline? = nil, shadow: Shadow? = nil, ellipsis: Bool = false,
                 language: String = "und") {
        self.name = name
        self.text = text
        self.fonts = fonts
        self.family = family
        self.weight = weight
        self.size = size
        self.width = width
        self.height = height
        self.wrap = wrap
        self.maxLines = maxLines
        self.alignment = alignment
        self.verticalAlignment = verticalAlignment
        self.lineHeight = lineHeight
        self.color = color
        self.plate = plate
        self.outline = outline
        self.shadow = shadow
        self.ellipsis = ellipsis
        self.language = language
    }
}
