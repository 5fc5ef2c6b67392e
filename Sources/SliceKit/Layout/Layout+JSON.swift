// Layout files: strict JSON like presets, every key known, every number checked before it is
// used, every error one line naming the file and the place in it (`promo.json: layers[1].box:
// …`). Paths in the file (fonts, images) are relative to its folder; in a layout read from a URL,
// relative to that URL (`RemoteURL+Resolving.swift`), so it never names a local file.

import Foundation

/// Why a layout file was refused.
public struct LayoutError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Whether the file itself is missing or unreadable (66), or what it says is wrong (64).
    public let isMissing: Bool
    /// The line: the file, the place in it, what is wrong and what would be accepted.
    public let text: ErrorText

    package init(_ text: ErrorText, missing: Bool = false) {
        self.text = text
        isMissing = missing
    }

    public var description: String { text.description }
}

/// Makes a layout or brand file given as a URL local: fetches it (bounded, cached, as every
/// remote input) and gives the local file holding its bytes. A layout read without one refuses
/// a URL where it needs the file's contents.
package typealias LayoutFetch = @Sendable (RemoteURL) throws(LayoutError) -> String

extension Layout {
    /// The most layers a layout holds, over all its variants: each is drawn once per card.
    public static let maximumLayers = 64

    /// The most bytes a layer's text holds.
    public static let maximumTextBytes = 4096

    /// Keys a layout file's top level accepts, besides aspect variants (`"9:16"`).
    static let topKeys = ["description", "fonts", "safe-zone", "layers", "styles", "brand", "contrast", "smallest-size"]

    /// Keys a layer accepts.
    static let layerKeys = ["name", "on", "box", "text", "image", "size", "min-size", "max-size", "fonts", "family", "weight", "wrap",
                            "max-lines", "align", "valign", "line-height", "color", "plate", "outline", "shadow", "ellipsis", "language",
                            "start", "end", "fade-in", "fade-out", "in", "out", "style", "scrim"]

    /// Reads the layout file at `path` (a regular file, within the settings size limit).
    /// - Throws: `LayoutError`: missing (66) or invalid (64), one line naming the file.
    public static func load(path: String) throws(LayoutError) -> Layout {
        try load(path: path, fetch: nil)
    }

    /// Reads the layout file at `path`, or the layout at an http(s) URL through `fetch`: its
    /// paths are then resolved against the URL, and a local file is never read for it.
    /// - Throws: `LayoutError`: missing (66) or invalid (64), one line naming the file or URL
    ///   (credentials hidden).
    package static func load(path: String, fetch: LayoutFetch?) throws(LayoutError) -> Layout {
        if let url = RemoteURL(path) {
            guard let fetch else { throw LayoutError("\(InputText.quoted(url.description)): a layout given as a URL is read only by a run that fetches") }
            let local = try fetch(url)
            let data: Data
            do {
                data = try SettingsFile.read(path: local)
            } catch {
                throw LayoutError("\(InputText.quoted(url.description)): \(error.reason)", missing: !isTooLarge(error))
            }
            return try Layout(json: data, file: url.description, base: url, fetch: fetch)
        }
        let data: Data
        do {
            data = try SettingsFile.read(path: path)
        } catch {
            throw LayoutError("\(InputText.quoted(path)): \(error.reason)", missing: !isTooLarge(error))
        }
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        return try Layout(json: data, file: path, folder: URL(fileURLWithPath: absolute).deletingLastPathComponent().path, fetch: fetch)
    }

    private static func isTooLarge(_ failure: SettingsFile.Failure) -> Bool {
        if case .tooLarge = failure { return true }
        return false
    }

    /// Reads a layout from `data`.
    /// - Parameters:
    ///   - file: how messages name the file.
    ///   - folder: the absolute folder relative paths in it are resolved against.
    /// - Throws: `LayoutError` naming `file`, the place and what is accepted.
    public init(json data: Data, file: String, folder: String) throws(LayoutError) {
        try self.init(json: data, file: file, folder: folder, fetch: nil)
    }

    /// Reads a layout from `data`, its relative paths resolved against `folder`, or against
    /// `base` for a layout fetched from that URL; a brand file given as a URL read through `fetch`.
    package init(json data: Data, file: String, folder: String = "/", base: RemoteURL? = nil, fetch: LayoutFetch?) throws(LayoutError) {
        var reader = LayoutReader(file: file, folder: folder, base: base, fetch: fetch)
        let object: Any
        do {
            object = try JSONText.parse(data)
        } catch {
            throw reader.error(nil, "\(error)")
        }
        guard let top = object as? [String: Any] else {
            throw reader.error(nil, "expected a JSON object with \"layers\" (or aspect variants such as \"9:16\"), got \(LayoutReader.typeName(object))")
        }
        reader = try reader.styled(top)
        var variants: [Variant] = []
        for key in top.keys.sorted() where !Layout.topKeys.contains(key) {
            guard let aspect = LayoutReader.aspect(key) else {
                throw reader.error(InputText.excerpt(key), "unknown field; accepted: \(Layout.topKeys.joined(separator: ", ")), or an aspect such as \"9:16\" holding its own layers")
            }
            variants.append(try reader.variant(top[key]!, aspect: aspect, at: key))
        }
        if let description = top["description"], !(description is String) { throw reader.error("description", "expected a string") }
        let fonts = (try top["fonts"].map { value throws(LayoutError) in try reader.paths(value, at: "fonts") } ?? []) + reader.styles.fonts
        let safeZones = try top["safe-zone"].map { value throws(LayoutError) in try reader.safeZone(value, at: "safe-zone") }?.zones ?? []
        let layers = try top["layers"].map { value throws(LayoutError) in try reader.layers(value, at: "layers") } ?? []
        guard !layers.isEmpty || !variants.isEmpty else {
            throw reader.error(nil, "holds no layers; give \"layers\": [...] (or an aspect's, such as \"9:16\": [...])")
        }
        let count = layers.count + variants.reduce(0) { $0 + $1.layers.count }
        guard count <= Layout.maximumLayers else {
            throw reader.error(nil, "holds \(count) layers; at most \(Layout.maximumLayers)")
        }
        self.init(file: file, fonts: fonts, layers: layers, variants: variants, safeZones: safeZones, readability: try reader.readability(top),
                  brand: reader.styles.brand)
    }
}

/// Reads the values of one layout file, with errors naming the file and the place.
struct LayoutReader {
    let file: String
    let folder: String
    /// The URL of a layout (or brand file) read from one: its paths are resolved against it.
    var base: RemoteURL? = nil
    /// Reads a brand file given as a URL.
    var fetch: LayoutFetch? = nil
    /// Styles, brand colours and logo the layers may name (`Layout+Styles.swift`).
    var styles = LayoutStyles()

    func error(_ place: String?, _ message: ErrorText) -> LayoutError {
        LayoutError("\(InputText.quoted(file)): \(place.map { "\($0): " } ?? "")\(message)")
    }

    /// `9:16` → the aspect; nil for anything else.
    static func aspect(_ key: String) -> Layout.Aspect? {
        let parts = key.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.count <= 4 && $0.allSatisfy({ $0.isASCII && $0.isNumber }) }),
              let width = Int(parts[0]), let height = Int(parts[1]) else { return nil }
        return Layout.Aspect(width: width, height: height)
    }

    /// An aspect's variant: its layers, or `{"layers": [...], "safe-zone": "reels"}`.
    func variant(_ value: Any, aspect: Layout.Aspect, at place: String) throws(LayoutError) -> Layout.Variant {
        guard let object = value as? [String: Any] else { return Layout.Variant(aspect: aspect, layers: try layers(value, at: place)) }
        if let unknown = object.keys.sorted().first(where: { !["layers", "safe-zone"].contains($0) }) {
            throw error("\(place).\(InputText.excerpt(unknown))", "unknown field; accepted: layers, safe-zone")
        }
        guard let entries = object["layers"] else { throw error(place, "expected \"layers\": [...] (and an optional \"safe-zone\")") }
        let zone = try object["safe-zone"].map { value throws(LayoutError) in try safeZone(value, at: "\(place).safe-zone") } ?? .fromLayout
        return Layout.Variant(aspect: aspect, layers: try layers(entries, at: "\(place).layers"), safeZone: zone)
    }

    /// A `safe-zone` value: a platform's name, a list of them, or `none`.
    func safeZone(_ value: Any, at place: String) throws(LayoutError) -> SafeZone.Choice {
        guard let choice = SafeZone.Choice(json: value) else {
            throw error(place, "expected \(SafeZone.acceptedInFiles)")
        }
        return choice
    }

    func layers(_ value: Any, at place: String) throws(LayoutError) -> [Layout.Layer] {
        guard let entries = value as? [Any] else { throw error(place, "expected an array of layer objects") }
        guard entries.count <= Layout.maximumLayers else { throw error(place, "holds \(entries.count) layers; at most \(Layout.maximumLayers)") }
        var layers: [Layout.Layer] = []
        for (index, entry) in entries.enumerated() {
            layers.append(try layer(entry, at: "\(place)[\(index)]", number: index + 1))
        }
        return layers
    }

    func layer(_ value: Any, at place: String, number: Int) throws(LayoutError) -> Layout.Layer {
        guard let written = value as? [String: Any] else { throw error(place, "expected a layer object") }
        if let unknown = written.keys.sorted().first(where: { !Layout.layerKeys.contains($0) }) {
            throw error("\(place).\(InputText.excerpt(unknown))", "unknown field; accepted: \(Layout.layerKeys.joined(separator: ", "))")
        }
        let object = try applyingStyle(written, at: place)
        if let unknown = object.keys.sorted().first(where: { !Layout.layerKeys.contains($0) }) {
            throw error("\(place).\(InputText.excerpt(unknown))", "unknown field; accepted: \(Layout.layerKeys.joined(separator: ", "))")
        }
        // How messages name it: `layer 'price'`, or by its place: `layer 2`, `9:16 layer 1`.
        // `layer 2`, or `9:16 layer 2` for a variant's (written as an array or as `{"layers": …}`).
        let variant = place.hasPrefix("layers[") ? "" : String(place.prefix { $0 != "[" && $0 != "." })
        var name = (variant.isEmpty ? "" : variant + " ") + "layer \(number)"
        if let given = object["name"] {
            guard let text = given as? String, !text.isEmpty, text.count <= 80, !text.unicodeScalars.contains(where: InputText.needsEscape),
                  !text.contains(where: \.isNewline) else {
                throw error("\(place).name", "expected a name of 1 to 80 characters on one line")
            }
            name = "layer \(InputText.quoted(text))"
        }
        let placement = try self.placement(object, at: place)
        let box = try self.box(object["box"], at: "\(place).box")
        let content: Layout.Content
        switch (object["text"], object["image"]) {
        case (let text?, nil):
            content = .text(try self.text(text, object, layer: name, at: place))
        case (nil, let image?):
            for key in ["size", "min-size", "max-size", "fonts", "family", "weight", "wrap", "max-lines", "align", "valign", "line-height", "color",
                        "plate", "outline", "shadow", "ellipsis", "language", "scrim"] where object[key] != nil {
                throw error("\(place).\(key)", "is for text layers; an image layer takes name, on, box, image and its timing")
            }
            if let logo = try brandImage(image, at: "\(place).image") {
                content = .image(logo)
            } else {
                content = .image(try path(image, at: "\(place).image", placeholders: true))
            }
        case (nil, nil):
            throw error(place, "needs \"text\" or \"image\"")
        case (_?, _?):
            throw error(place, "has both \"text\" and \"image\"; a layer shows one")
        }
        try checkReveal(placement, content: content, at: place)
        return Layout.Layer(name: name, placement: placement, box: box, content: content)
    }

    /// A typewriter, word or line entrance reveals text: an image layer has none.
    func checkReveal(_ placement: Layout.Placement, content: Layout.Content, at place: String) throws(LayoutError) {
        guard case .over(let timing) = placement, let entrance = timing.entrance, case .reveal(let unit, _, _) = entrance.effect,
              case .image = content else { return }
        throw error("\(place).in.effect", "\(unit.effectName) reveals text, and this is an image layer; for an image give one of fade, slide-…, scale, pop, wipe-… or strips")
    }

    func placement(_ object: [String: Any], at place: String) throws(LayoutError) -> Layout.Placement {
        let on = object["on"] ?? "over"
        let card: Layout.Card?
        if let word = on as? String {
            switch word {
            case "from": card = .from
            case "to": card = .to
            case "all": card = .all
            case "over": card = nil
            default: throw error("\(place).on", "\(InputText.quoted(word)) is not valid; expected from, to, all, over or a still's index from 0")
            }
        } else if let index = integer(on), Layout.Ranges.still.contains(index) {
            card = .still(index)
        } else {
            throw error("\(place).on", "expected from, to, all, over or a still's index 0…999")
        }
        let timingKeys = ["start", "end", "fade-in", "fade-out", "in", "out"]
        if let card {
            if let key = timingKeys.first(where: { object[$0] != nil }) {
                throw error("\(place).\(key)", "is for layers drawn over the frames (\"on\": \"over\"); a card's layer shows as long as its still")
            }
            return .card(card)
        }
        return .over(try timing(object, at: place))
    }

    func box(_ value: Any?, at place: String) throws(LayoutError) -> Layout.Box {
        guard let value else { throw error(place, "missing; give [x, y, width, height] as fractions 0…1 of the frame") }
        guard let array = value as? [Any], array.count == 4 else {
            throw error(place, "expected [x, y, width, height] as fractions 0…1 of the frame")
        }
        var numbers: [Double] = []
        for (index, item) in array.enumerated() {
            guard let number = self.number(item) else { throw error(place, "item \(index + 1) is not a number 0…1 (fractions of the frame)") }
            numbers.append(number)
        }
        return try checkBox(numbers, at: place)
    }

    /// `[x, y, width, height]`: fractions of the frame, the box inside it.
    func checkBox(_ numbers: [Double], at place: String) throws(LayoutError) -> Layout.Box {
        for (index, number) in numbers.enumerated() where !(number.isFinite && (0...1).contains(number)) {
            throw error(place, "item \(index + 1) is not a number 0…1 (fractions of the frame)")
        }
        guard numbers[2] > 0, numbers[3] > 0 else { throw error(place, "width and height must be above 0") }
        guard numbers[0] + numbers[2] <= 1 + 1e-9, numbers[1] + numbers[3] <= 1 + 1e-9 else {
            throw error(place, "reaches past the frame (x + width and y + height must be at most 1)")
        }
        return Layout.Box(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
    }

    func text(_ value: Any, _ object: [String: Any], layer: String, at place: String) throws(LayoutError) -> Layout.Text {
        guard let template = value as? String, !template.isEmpty else { throw error("\(place).text", "expected a non-empty string") }
        try checkTemplate(template, layer: layer, at: "\(place).text")
        var text = Layout.Text(template: template)
        text.size = try size(object, at: place)
        if let fonts = object["fonts"] { text.fonts = try paths(fonts, at: "\(place).fonts") }
        if let family = object["family"] {
            guard let name = family as? String, !name.isEmpty, name.count <= 100, !name.unicodeScalars.contains(where: InputText.needsEscape) else {
                throw error("\(place).family", "expected a font family's name")
            }
            text.family = name
        }
        text.weight = try number(object["weight"], at: "\(place).weight", in: Layout.Ranges.weight, integral: true).map { Int($0) } ?? 400
        text.wrap = try boolean(object["wrap"], at: "\(place).wrap") ?? true
        text.maxLines = try number(object["max-lines"], at: "\(place).max-lines", in: Layout.Ranges.maxLines, integral: true).map { Int($0) }
        text.align = try choice(object["align"], at: "\(place).align", aliases: ["center": .centre, "left": .start, "right": .end]) ?? .centre
        text.verticalAlign = try choice(object["valign"], at: "\(place).valign", aliases: ["center": .centre, "middle": .centre]) ?? .centre
        text.lineHeight = try number(object["line-height"], at: "\(place).line-height", in: Layout.Ranges.lineHeight)
        text.color = try color(object["color"], at: "\(place).color") ?? text.color
        if let plate = object["plate"] {
            if plate is String {
                text.plate = Layout.Text.Plate(color: try color(plate, at: "\(place).plate")!)
            } else {
                let fields = try self.object(plate, at: "\(place).plate", keys: ["color", "padding", "radius"])
                guard let color = try color(fields["color"], at: "\(place).plate.color") else { throw error("\(place).plate.color", "missing") }
                text.plate = Layout.Text.Plate(color: color, padding: try number(fields["padding"], at: "\(place).plate.padding", in: Layout.Ranges.plate) ?? 0,
                                               radius: try number(fields["radius"], at: "\(place).plate.radius", in: Layout.Ranges.plate) ?? 0)
            }
        }
        if let outline = object["outline"] {
            let fields = try self.object(outline, at: "\(place).outline", keys: ["width", "color"])
            guard let width = try number(fields["width"], at: "\(place).outline.width", in: Layout.Ranges.outline),
                  let color = try color(fields["color"], at: "\(place).outline.color") else {
                throw error("\(place).outline", "expected {\"width\": pixels 0.5…50, \"color\": \"#RRGGBB\"}")
            }
            text.outline = Layout.Text.Outline(width: width, color: color)
        }
        if let shadow = object["shadow"] {
            let fields = try self.object(shadow, at: "\(place).shadow", keys: ["x", "y", "blur", "color"])
            guard let color = try color(fields["color"], at: "\(place).shadow.color") else { throw error("\(place).shadow.color", "missing") }
            text.shadow = Layout.Text.Shadow(x: try number(fields["x"], at: "\(place).shadow.x", in: Layout.Ranges.shadowOffset) ?? 0,
                                             y: try number(fields["y"], at: "\(place).shadow.y", in: Layout.Ranges.shadowOffset) ?? 0,
                                             blur: try number(fields["blur"], at: "\(place).shadow.blur", in: Layout.Ranges.shadowBlur) ?? 0, color: color)
        }
        text.ellipsis = try boolean(object["ellipsis"], at: "\(place).ellipsis") ?? false
        text.scrim = try object["scrim"].map { value throws(LayoutError) in try scrim(value, at: "\(place).scrim") }
        if let language = object["language"] {
            guard let tag = language as? String, Self.isLanguageTag(tag) else {
                throw error("\(place).language", "expected a BCP 47 language tag such as de, ar or ja")
            }
            text.language = tag
        }
        return text
    }

    func size(_ object: [String: Any], at place: String) throws(LayoutError) -> Layout.Text.Size {
        let minimum = try number(object["min-size"], at: "\(place).min-size", in: Layout.Ranges.size)
        let maximum = try number(object["max-size"], at: "\(place).max-size", in: Layout.Ranges.size)
        switch object["size"] {
        case nil, "auto" as String:
            let low = minimum ?? 12, high = maximum ?? 400
            guard low <= high else { throw error("\(place).min-size", "\(low.shortText) is above max-size \(high.shortText)") }
            return .auto(min: low, max: high)
        case let value?:
            guard minimum == nil, maximum == nil else {
                throw error("\(place).size", "min-size and max-size go with \"size\": \"auto\"")
            }
            guard let pixels = number(value), pixels.isFinite, Layout.Ranges.size.contains(pixels) else {
                throw error("\(place).size", "expected pixels at 1080p 1…1000, or \"auto\"")
            }
            return .pixels(pixels)
        }
    }

    /// Paths relative to the layout's folder (or URL), made absolute; `placeholders` lets `{name}` in.
    func paths(_ value: Any, at place: String) throws(LayoutError) -> [String] {
        guard let items = value as? [Any], !items.isEmpty, items.count <= 32 else {
            throw error(place, "expected an array of 1 to 32 font file paths")
        }
        var paths: [String] = []
        for (index, item) in items.enumerated() { paths.append(try path(item, at: "\(place)[\(index)]", placeholders: false)) }
        return paths
    }

    func path(_ value: Any, at place: String, placeholders: Bool) throws(LayoutError) -> String {
        guard let text = value as? String, !text.isEmpty, text.utf8.count <= 4096, !text.unicodeScalars.contains(where: InputText.needsEscape) else {
            throw error(place, "expected a file path without control characters")
        }
        if placeholders {
            do {
                _ = try Placeholders.names(in: text)
            } catch {
                throw self.error(place, placeholderProblem(error))
            }
        }
        // A URL is fetched by the run; in a remote layout every path is one, relative to its URL.
        if RemoteURL.isRemote(text) { return text }
        if let base {
            guard let resolved = base.resolving(text) else {
                throw error(place, "\(InputText.quoted(InputText.excerpt(text))) is not an http(s) URL or a path relative to the layout's URL; a layout read from a URL never names a local file")
            }
            return resolved
        }
        return URL(fileURLWithPath: text, relativeTo: URL(fileURLWithPath: folder, isDirectory: true)).standardizedFileURL.path
    }

    func placeholderProblem(_ failure: Placeholders.Failure) -> ErrorText {
        ErrorText(Placeholders.problem(failure))
    }

    func object(_ value: Any, at place: String, keys: [String]) throws(LayoutError) -> [String: Any] {
        guard let object = value as? [String: Any] else { throw error(place, "expected an object with \(keys.joined(separator: ", "))") }
        if let unknown = object.keys.sorted().first(where: { !keys.contains($0) }) {
            throw error("\(place).\(InputText.excerpt(unknown))", "unknown field; accepted: \(keys.joined(separator: ", "))")
        }
        return object
    }

    func color(_ value: Any?, at place: String) throws(LayoutError) -> RGBAColor? {
        guard let value else { return nil }
        if let name = value as? String, let color = try brandColor(name, at: place) { return color }
        guard let text = value as? String, text.count <= 9, text != "transparent", let color = RGBAColor(hex: text) else {
            throw error(place, "expected a colour #RRGGBB or #RRGGBBAA")
        }
        return color
    }

    func choice<T: RawRepresentable & CaseIterable>(_ value: Any?, at place: String, aliases: [String: T]) throws(LayoutError) -> T?
    where T.RawValue == String {
        guard let value else { return nil }
        guard let word = value as? String, let chosen = T(rawValue: word) ?? aliases[word] else {
            throw error(place, "expected one of \((T.allCases.map(\.rawValue) + aliases.keys.sorted()).joined(separator: ", "))")
        }
        return chosen
    }

    func boolean(_ value: Any?, at place: String) throws(LayoutError) -> Bool? {
        guard let value else { return nil }
        guard SpecField.isJSONBoolean(value), let flag = value as? Bool else { throw error(place, "expected true or false") }
        return flag
    }

    func seconds(_ value: Any?, at place: String) throws(LayoutError) -> Double? {
        try number(value, at: place, in: Layout.Ranges.seconds)
    }

    func number(_ value: Any?, at place: String, in range: ClosedRange<Double>, integral: Bool = false) throws(LayoutError) -> Double? {
        guard let value else { return nil }
        guard let number = number(value) else { throw numberError(at: place, in: range, integral: integral) }
        try checkNumber(number, at: place, in: range, integral: integral)
        return number
    }

    /// `number` in `range` (and whole, when `integral`).
    func checkNumber(_ number: Double, at place: String, in range: ClosedRange<Double>, integral: Bool = false) throws(LayoutError) {
        guard number.isFinite, range.contains(number), !integral || number == number.rounded() else {
            throw numberError(at: place, in: range, integral: integral)
        }
    }

    private func numberError(at place: String, in range: ClosedRange<Double>, integral: Bool) -> LayoutError {
        error(place, "expected \(integral ? "a whole number" : "a number") \(range.lowerBound.shortText)…\(range.upperBound.shortText)")
    }

    /// A JSON number (never a boolean) as a double.
    func number(_ value: Any) -> Double? {
        guard let text = SpecField.jsonNumberText(value) else { return nil }
        return Double(text)
    }

    func integer(_ value: Any) -> Int? {
        guard let number = number(value), number == number.rounded(), abs(number) < 1e9 else { return nil }
        return Int(number)
    }

    static func typeName(_ value: Any) -> String {
        if value is String { return "a string" }
        if value is [Any] { return "an array" }
        if value is [String: Any] { return "an object" }
        return "\(type(of: value))"
    }
}
