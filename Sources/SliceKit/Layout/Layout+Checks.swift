// Every value of a layout checked, whether it was read from a file or built in code: a
// library's caller hands `MakeRequest.layout` a `Layout` it made itself, and a NaN box or a
// size of 10⁹ must be refused (64) as a layout file's would be, with the same words, before any
// arithmetic. The ranges are the ones the file reader takes (`Layout.Ranges`).

import Foundation

extension Layout {
    /// What a layout's numbers may be: one list for the file reader and these checks.
    public enum Ranges {
        static let still = 0...999
        static let seconds = 0.0...3600
        static let size = 1.0...1000
        static let weight = 1.0...1000
        static let maxLines = 1.0...100
        static let lineHeight = 0.5...4
        static let plate = 0.0...500
        static let outline = 0.5...50
        static let shadowOffset = -500.0...500
        static let shadowBlur = 0.0...100
        static let fonts = 1...32
        static let nameLength = 1...80
        static let familyLength = 1...100
        static let pathBytes = 1...4096
        static let languageLength = 1...35
    }

    /// Checks every value, as a layout file's are checked when it is read.
    /// - Throws: `LayoutError` naming the layout (`file`), the place (`layers[0].box`) and what
    ///   is accepted, in the words a layout file's error uses.
    public func check() throws(LayoutError) {
        let reader = LayoutReader(file: file, folder: "/")
        guard !layers.isEmpty || !variants.isEmpty else {
            throw reader.error(nil, "holds no layers; give \"layers\": [...] (or an aspect's, such as \"9:16\": [...])")
        }
        let count = layers.count + variants.reduce(0) { $0 + $1.layers.count }
        guard count <= Layout.maximumLayers else { throw reader.error(nil, "holds \(count) layers; at most \(Layout.maximumLayers)") }
        try reader.checkPaths(fonts, at: "fonts", empty: true)
        try reader.check(readability)
        if let brand { _ = try reader.path(brand, at: "brand", placeholders: false) }
        for (index, layer) in layers.enumerated() { try reader.check(layer, at: "layers[\(index)]") }
        for variant in variants {
            for (index, layer) in variant.layers.enumerated() { try reader.check(layer, at: "\(variant.aspect)[\(index)]") }
        }
    }

    /// The first character of `text` a text layer cannot take: a control character other than
    /// `\n`, or a line or paragraph separator (Pango would break lines of its own there).
    package static func forbiddenCharacter(in text: String) -> Unicode.Scalar? {
        text.unicodeScalars.first { $0 != "\n" && ($0.properties.generalCategory == .control || $0.value == 0x2028 || $0.value == 0x2029) }
    }

    /// `U+2028 LINE SEPARATOR`: a character as messages name it.
    package static func characterName(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        guard let name = scalar.properties.name ?? scalar.properties.nameAlias else { return code }
        return code + " " + name
    }
}

extension LayoutReader {
    /// One layer's values, at `place` (`layers[2]`).
    func check(_ layer: Layout.Layer, at place: String) throws(LayoutError) {
        guard Layout.Ranges.familyLength.contains(layer.name.count), !layer.name.unicodeScalars.contains(where: InputText.needsEscape) else {
            throw error("\(place).name", "expected a name of 1 to 100 characters on one line")
        }
        switch layer.placement {
        case .card(.still(let index)):
            guard Layout.Ranges.still.contains(index) else { throw error("\(place).on", "expected from, to, all, over or a still's index 0…999") }
        case .card:
            break
        case .over(let timing):
            try checkNumber(timing.start, at: "\(place).start", in: Layout.Ranges.seconds)
            try checkNumber(timing.fadeIn, at: "\(place).fade-in", in: Layout.Ranges.seconds)
            try checkNumber(timing.fadeOut, at: "\(place).fade-out", in: Layout.Ranges.seconds)
            if let end = timing.end {
                try checkNumber(end, at: "\(place).end", in: Layout.Ranges.seconds)
                guard end > timing.start else { throw error("\(place).end", "\(end.shortText) is not after start (\(timing.start.shortText))") }
            }
            if let entrance = timing.entrance { try check(entrance, at: "\(place).in") }
            if let exit = timing.exit { try check(exit, at: "\(place).out") }
        }
        try checkReveal(layer.placement, content: layer.content, at: place)
        _ = try checkBox([layer.box.x, layer.box.y, layer.box.width, layer.box.height], at: "\(place).box")
        switch layer.content {
        case .image(let path):
            _ = try self.path(path, at: "\(place).image", placeholders: true)
        case .text(let text):
            try check(text, layer: layer.name, at: place)
        }
    }

    /// A text layer's words and look.
    func check(_ text: Layout.Text, layer: String, at place: String) throws(LayoutError) {
        try checkTemplate(text.template, layer: layer, at: "\(place).text")
        switch text.size {
        case .pixels(let pixels):
            guard pixels.isFinite, Layout.Ranges.size.contains(pixels) else { throw error("\(place).size", "expected pixels at 1080p 1…1000, or \"auto\"") }
        case .auto(let low, let high):
            try checkNumber(low, at: "\(place).min-size", in: Layout.Ranges.size)
            try checkNumber(high, at: "\(place).max-size", in: Layout.Ranges.size)
            guard low <= high else { throw error("\(place).min-size", "\(low.shortText) is above max-size \(high.shortText)") }
        }
        try checkPaths(text.fonts, at: "\(place).fonts", empty: true)
        if let family = text.family, !(Layout.Ranges.familyLength.contains(family.count) && !family.unicodeScalars.contains(where: InputText.needsEscape)) {
            throw error("\(place).family", "expected a font family's name")
        }
        try checkNumber(Double(text.weight), at: "\(place).weight", in: Layout.Ranges.weight, integral: true)
        if let maxLines = text.maxLines { try checkNumber(Double(maxLines), at: "\(place).max-lines", in: Layout.Ranges.maxLines, integral: true) }
        if let lineHeight = text.lineHeight { try checkNumber(lineHeight, at: "\(place).line-height", in: Layout.Ranges.lineHeight) }
        if let plate = text.plate {
            try checkNumber(plate.padding, at: "\(place).plate.padding", in: Layout.Ranges.plate)
            try checkNumber(plate.radius, at: "\(place).plate.radius", in: Layout.Ranges.plate)
        }
        if let outline = text.outline { try checkNumber(outline.width, at: "\(place).outline.width", in: Layout.Ranges.outline) }
        if let shadow = text.shadow {
            try checkNumber(shadow.x, at: "\(place).shadow.x", in: Layout.Ranges.shadowOffset)
            try checkNumber(shadow.y, at: "\(place).shadow.y", in: Layout.Ranges.shadowOffset)
            try checkNumber(shadow.blur, at: "\(place).shadow.blur", in: Layout.Ranges.shadowBlur)
        }
        if let scrim = text.scrim { try check(scrim, at: "\(place).scrim") }
        guard Self.isLanguageTag(text.language) else { throw error("\(place).language", "expected a BCP 47 language tag such as de, ar or ja") }
    }

    /// A text's template: not empty, not too long, no control character, placeholders well formed.
    func checkTemplate(_ template: String, layer: String, at place: String) throws(LayoutError) {
        guard !template.isEmpty else { throw error(place, "expected a non-empty string") }
        guard template.utf8.count <= Layout.maximumTextBytes else {
            throw error(place, "is \(template.utf8.count) bytes; at most \(Layout.maximumTextBytes)")
        }
        if let character = Layout.forbiddenCharacter(in: template) {
            throw error(place, "\(layer) holds the control character \(Layout.characterName(character)); text takes \\n for a line break and no other control characters")
        }
        do {
            _ = try Placeholders.names(in: template)
        } catch {
            throw self.error(place, placeholderProblem(error))
        }
    }

    /// Font paths: at most 32 (none when `empty` allows it), each one a path a file may have.
    func checkPaths(_ paths: [String], at place: String, empty: Bool) throws(LayoutError) {
        guard paths.count <= Layout.Ranges.fonts.upperBound, empty || !paths.isEmpty else {
            throw error(place, "expected an array of 1 to 32 font file paths")
        }
        for (index, path) in paths.enumerated() { _ = try self.path(path, at: "\(place)[\(index)]", placeholders: false) }
    }

    /// A BCP 47 tag as layers take it: 1 to 35 ASCII letters, digits and hyphens.
    static func isLanguageTag(_ tag: String) -> Bool {
        Layout.Ranges.languageLength.contains(tag.count) && tag.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
    }
}
