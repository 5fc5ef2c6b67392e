// Styles and brand files: a layer names a style (`"style": "headline"`) instead of repeating
// its colour, font, plate and shadow; a layout imports a brand file (`"brand": "brand.json"`)
// holding the campaign's fonts, colours (`"@ink"`), styles and logo (`"@logo"`), so one change
// restyles every layout that imports it. Styles are applied where the file is read: a layer's
// own keys win over its style's, and below this edge a layer is the same as one written out.

import Foundation

extension Layout {
    /// Keys a brand file accepts.
    static let brandKeys = ["description", "fonts", "colors", "styles", "logo"]

    /// Layer keys a style may not hold: what a layer is and where, not how it looks.
    static let unstyledKeys: Set<String> = ["name", "on", "box", "text", "image", "style", "start", "end", "fade-in", "fade-out"]

    /// The most styles (or brand colours) one file names.
    static let maximumStyles = 64
}

/// What a layout's styles and brand give its layers.
struct LayoutStyles {
    /// Each style's keys, as a layer would write them (paths already absolute).
    var styles: [String: [String: Any]] = [:]
    /// Brand colours by name, written `@name`.
    var colors: [String: RGBAColor] = [:]
    /// The brand's logo, absolute, written `@logo` as an image.
    var logo: String?
    /// The brand file's fonts, absolute, after the layout's own.
    var fonts: [String] = []
    /// The brand file's absolute path.
    var brand: String?
}

extension LayoutReader {
    /// The reader for a layout whose top level is `top`: its brand file read (bounded, like
    /// every input) and its styles and the brand's checked.
    /// - Throws: `LayoutError`: the brand file missing (66) or invalid (64), a style invalid
    ///   (naming `styles.headline.color`) or not an object.
    func styled(_ top: [String: Any]) throws(LayoutError) -> LayoutReader {
        var reader = self
        if let value = top["brand"] {
            reader.styles = try brand(value)
        }
        if let value = top["styles"] {
            let own = try styleObjects(value, at: "styles", folder: folder, reader: self)
            for (name, style) in own { reader.styles.styles[name] = style }
            try reader.checkStyles(own, at: "styles")
        }
        return reader
    }

    /// Reads each of `styles` as a layer's look would be read, so a bad value is named where
    /// it is written (`styles.headline.color`).
    private func checkStyles(_ styles: [String: [String: Any]], at place: String) throws(LayoutError) {
        for name in styles.keys.sorted() {
            var object = styles[name]!
            object["text"] = "x"
            object["box"] = [0, 0, 1, 1] as [Any]
            _ = try layer(object, at: "\(place).\(name)", number: 1)
        }
    }

    /// `layer`'s keys with its style's under them (the layer's own win).
    func applyingStyle(_ object: [String: Any], at place: String) throws(LayoutError) -> [String: Any] {
        guard let chosen = object["style"] else { return object }
        guard let name = chosen as? String, let style = styles.styles[name] else {
            let known = styles.styles.keys.sorted()
            throw error("\(place).style", known.isEmpty ? "no styles are defined; give \"styles\": {\"name\": {...}} or a \"brand\" file with styles"
                                                      : "expected one of \(known.joined(separator: ", "))")
        }
        var merged = style
        for (key, value) in object where key != "style" { merged[key] = value }
        return merged
    }

    /// `@ink`: a brand colour; nil when `text` does not start with `@`.
    func brandColor(_ text: String, at place: String) throws(LayoutError) -> RGBAColor? {
        guard text.hasPrefix("@") else { return nil }
        let name = String(text.dropFirst())
        guard let color = styles.colors[name] else {
            let known = styles.colors.keys.sorted().map { "@" + $0 }
            throw error(place, known.isEmpty ? "\(InputText.quoted(InputText.excerpt(text))) names a brand colour, but no brand file with \"colors\" is imported"
                                             : "\(InputText.quoted(InputText.excerpt(text))) is not a brand colour; expected one of \(known.joined(separator: ", "))")
        }
        return color
    }

    /// `@logo`: the brand's logo; nil for any other image path.
    func brandImage(_ value: Any, at place: String) throws(LayoutError) -> String? {
        guard let text = value as? String, text.hasPrefix("@") else { return nil }
        guard text == "@logo" else { throw error(place, "\(InputText.quoted(InputText.excerpt(text))) is not valid; a brand's picture is \"@logo\"") }
        guard let logo = styles.logo else { throw error(place, "\"@logo\" needs a brand file with a \"logo\"") }
        return logo
    }

    /// Reads the brand file `value` names (relative to the layout's folder).
    private func brand(_ value: Any) throws(LayoutError) -> LayoutStyles {
        var path = try self.path(value, at: "brand", placeholders: false)
        guard let written = value as? String else { throw error("brand", "expected a file path") }
        let named = RemoteURL.redact(written)
        let url = RemoteURL(path)
        if let url {
            // Fetched like the layout; its bytes (the cache's file) are what fingerprints follow.
            guard let fetch else { throw error("brand", "\(InputText.quoted(url.description)): a brand file given as a URL is read only by a run that fetches") }
            path = try fetch(url)
        }
        let data: Data
        do {
            data = try SettingsFile.read(path: path)
        } catch {
            throw LayoutError("\(InputText.quoted(file)): brand \(InputText.quoted(named)): \(error.reason)", missing: !Self.isTooLarge(error))
        }
        let brandFolder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let reader = url.map { LayoutReader(file: $0.description, folder: "/", base: $0, fetch: fetch) } ?? LayoutReader(file: named, folder: brandFolder, fetch: fetch)
        let object: Any
        do {
            object = try JSONText.parse(data)
        } catch {
            throw reader.error(nil, "\(error)")
        }
        let top = try reader.object(object, at: "brand", keys: Layout.brandKeys)
        if let description = top["description"], !(description is String) { throw reader.error("description", "expected a string") }
        var styles = LayoutStyles(brand: path)
        if let fonts = top["fonts"] { styles.fonts = try reader.paths(fonts, at: "fonts") }
        if let logo = top["logo"] { styles.logo = try reader.path(logo, at: "logo", placeholders: false) }
        if let colors = top["colors"] {
            guard let table = colors as? [String: Any], table.count <= Layout.maximumStyles else {
                throw reader.error("colors", "expected an object of at most \(Layout.maximumStyles) names and colours, such as {\"ink\": \"#1a1a1a\"}")
            }
            for (name, value) in table {
                guard Self.isStyleName(name) else { throw reader.error("colors", "\(InputText.quoted(InputText.excerpt(name))) is not a name: 1 to 40 letters, digits, - or _") }
                styles.colors[name] = try reader.color(value, at: "colors.\(name)")
            }
        }
        if let table = top["styles"] {
            // Their values (a brand colour `@ink` among them) are checked with the layout's.
            styles.styles = try styleObjects(table, at: "styles", folder: brandFolder, reader: reader)
            var checker = reader
            checker.styles = styles
            try checker.checkStyles(styles.styles, at: "styles")
        }
        return styles
    }

    /// `{"headline": {...}}`: each style's keys, its font paths made absolute against `folder`
    /// (or the URL of the file that holds them).
    private func styleObjects(_ value: Any, at place: String, folder: String, reader: LayoutReader) throws(LayoutError) -> [String: [String: Any]] {
        guard let table = value as? [String: Any], table.count <= Layout.maximumStyles else {
            throw reader.error(place, "expected an object of at most \(Layout.maximumStyles) named styles, such as {\"headline\": {\"color\": \"#ffffff\"}}")
        }
        var styles: [String: [String: Any]] = [:]
        for name in table.keys.sorted() {
            guard Self.isStyleName(name) else { throw reader.error(place, "\(InputText.quoted(InputText.excerpt(name))) is not a name: 1 to 40 letters, digits, - or _") }
            let accepted = Layout.layerKeys.filter { !Layout.unstyledKeys.contains($0) }
            var style = try reader.object(table[name]!, at: "\(place).\(name)", keys: accepted)
            if let fonts = style["fonts"] { style["fonts"] = try LayoutReader(file: reader.file, folder: folder, base: reader.base, fetch: reader.fetch).paths(fonts, at: "\(place).\(name).fonts") }
            styles[name] = style
        }
        return styles
    }

    private static func isTooLarge(_ failure: SettingsFile.Failure) -> Bool {
        if case .tooLarge = failure { return true }
        return false
    }

    /// A style's or a colour's name: 1 to 40 ASCII letters, digits, `-` or `_`.
    static func isStyleName(_ name: String) -> Bool {
        (1...40).contains(name.count) && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
    }
}
