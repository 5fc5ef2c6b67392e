// Every number, colour, name and text of a layer checked before any arithmetic or any call into
// Pango: what the engine accepts, said in the error when a value is outside it.

import SliceKit

extension TextLayer {
    /// The largest box side, in pixels (8K's width, twice over).
    package static let maxSide = 16384
    /// The most pixels a box may have: a 16-bit picture and four masks of that many fit in
    /// about 1 GB.
    package static let maxPixels = 64 << 20
    /// Sizes (and outline widths, blurs, paddings) in pixels are at most this.
    package static let maxSize = 4096.0
    /// The most Unicode scalars a text may have.
    package static let maxCharacters = 10_000
    /// The most font files a layer may name.
    package static let maxFonts = 32
    /// The widest outline, in pixels.
    package static let maxOutline = 256.0
    /// The largest shadow blur (σ), in pixels.
    package static let maxBlur = 512.0

    /// Checks the layer's values.
    /// - Throws: `TextError(.invalidSetting)` naming the layer, the field and what is accepted.
    func check() throws(TextError) {
        func refuse(_ message: String) -> TextError { TextError(.invalidSetting, layer: name, message: message) }
        guard (1...Self.maxSide).contains(width), (1...Self.maxSide).contains(height) else {
            throw refuse("box \(width)x\(height) px; each side must be 1 to \(Self.maxSide) px")
        }
        guard width * height <= Self.maxPixels else {
            throw refuse("box \(width)x\(height) px has more than \(Self.maxPixels) pixels")
        }
        try checkText(refuse)
        switch size {
        case .pixels(let pixels):
            guard pixels.isFinite, pixels >= 1, pixels <= Self.maxSize else {
                throw refuse("size \(pixels) px; sizes are 1 to \(Int(Self.maxSize)) px")
            }
        case .auto(let min, let max):
            guard min.isFinite, max.isFinite, min >= 1, max <= Self.maxSize, min <= max else {
                throw refuse("size auto from \(min) to \(max) px; the smallest and largest sizes are 1 to \(Int(Self.maxSize)) px, smallest first")
            }
        }
        guard (1...1000).contains(weight) else { throw refuse("weight \(weight); weights are 1 to 1000 (400 regular, 700 bold)") }
        if let maxLines, !(1...1000).contains(maxLines) { throw refuse("max-lines \(maxLines); 1 to 1000 lines") }
        if let lineHeight, !(lineHeight.isFinite && lineHeight >= 0.1 && lineHeight <= 10) {
            throw refuse("line height \(lineHeight); a multiple of the size from 0.1 to 10")
        }
        if let plate {
            guard plate.padding.isFinite, plate.padding >= 0, plate.radius.isFinite, plate.radius >= 0, plate.radius <= Self.maxSize else {
                throw refuse("plate padding \(plate.padding) px, radius \(plate.radius) px; both 0 or more (radius at most \(Int(Self.maxSize)))")
            }
            guard 2 * plate.padding < Double(min(width, height)) else {
                throw refuse("plate padding \(plate.padding) px leaves no room for text in the \(width)x\(height) px box")
            }
        }
        if let outline, !(outline.width.isFinite && outline.width > 0 && outline.width <= Self.maxOutline) {
            throw refuse("outline width \(outline.width) px; more than 0 and at most \(Int(Self.maxOutline)) px")
        }
        if let shadow {
            let limit = Double(Self.maxSide)
            guard shadow.x.isFinite, shadow.y.isFinite, abs(shadow.x) <= limit, abs(shadow.y) <= limit else {
                throw refuse("shadow offset \(shadow.x), \(shadow.y) px; each at most \(Self.maxSide) px either way")
            }
            guard shadow.blur.isFinite, shadow.blur >= 0, shadow.blur <= Self.maxBlur else {
                throw refuse("shadow blur \(shadow.blur) px; 0 (sharp) to \(Int(Self.maxBlur)) px")
            }
        }
        try checkNames(refuse)
    }

    /// The text: something to draw, not too long, and no control characters but line breaks.
    private func checkText(_ refuse: (String) -> TextError) throws(TextError) {
        guard text.unicodeScalars.contains(where: { !$0.properties.isWhitespace }) else {
            throw refuse("has no text to draw (\(InputText.quoted(text)))")
        }
        var count = 0
        for scalar in text.unicodeScalars {
            count += 1
            guard count <= Self.maxCharacters else { throw refuse("text has more than \(Self.maxCharacters) characters") }
            // Pango would draw other controls as hex boxes (or take \r and U+2029 for breaks
            // of their own); one way to break a line keeps the layout predictable.
            if scalar != "\n" && (scalar.properties.generalCategory == .control || scalar.value == 0x2028 || scalar.value == 0x2029) {
                throw refuse("text \(InputText.quoted(text)) holds the control character \(Self.code(scalar)) at character \(count); text layers take \\n for a line break and no other control characters")
            }
        }
    }

    /// Font paths, family and language: short, printable, and what Pango can be given.
    private func checkNames(_ refuse: (String) -> TextError) throws(TextError) {
        guard fonts.count <= Self.maxFonts else { throw refuse("names \(fonts.count) font files; at most \(Self.maxFonts)") }
        for path in fonts where path.isEmpty || path.unicodeScalars.contains(where: { $0.value == 0 }) {
            throw refuse("font path \(InputText.quoted(path)) is empty or holds a NUL")
        }
        if let family {
            guard !family.isEmpty, family.count <= 256, !family.contains(","),
                  !family.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                throw refuse("family \(InputText.quoted(family)); a font family name without commas or control characters")
            }
        }
        let tag = language.unicodeScalars
        guard (1...35).contains(tag.count), tag.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-") }) else {
            throw refuse("language \(InputText.quoted(language)); a BCP 47 tag such as de, he, ar, hi, th, ja or und")
        }
    }

    /// `U+00E4 LATIN SMALL LETTER A WITH DIAERESIS`: a character as messages name it.
    static func code(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        guard let name = scalar.properties.name ?? scalar.properties.nameAlias else { return code }
        return code + " " + name
    }
}
