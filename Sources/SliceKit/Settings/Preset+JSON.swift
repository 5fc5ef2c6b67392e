// Preset files: a JSON object with an optional "description", an optional "layout" (a file
// relative to the preset) and any of the SpecField keys,
// read strictly (unknown keys and wrong types are errors, not silently ignored) and printed
// in a canonical form that reads back to the same preset.

import Foundation

extension Preset {
    /// How a field's value is written in a preset file.
    enum JSONKind {
        case number, string, numberOrString, pair

        /// For errors: what the file should hold.
        var expected: String {
            switch self {
            case .number: "a number"
            case .string: "a string"
            case .numberOrString: "a number or a string"
            case .pair: "a pair [MIN, MAX]"
            }
        }
    }

    /// The JSON type of each field. `fps` is a number or a fraction string ("30000/1001"),
    /// `slices` a count or a width string ("24px").
    static func jsonKind(of field: SpecField) -> JSONKind {
        switch field {
        case .hold, .duration, .endHold, .stagger, .seed, .motionBlur, .motionAmount: .number
        case .fps, .slices: .numberOrString
        case .travel: .pair
        case .size, .direction, .easing, .background, .fit, .focus, .motion, .motionEasing: .string
        }
    }

    /// Reads a preset file. Fields not given keep `base`'s values (the seed's by default).
    /// - Parameters:
    ///   - data: the file's contents.
    ///   - name: the preset's name (a file's name without `.json`).
    ///   - source: how errors name the file, e.g. the path the user gave.
    ///   - base: the values of fields the file leaves out.
    /// - Throws: `PresetError`, one line naming `source`, the field and what is accepted:
    ///   malformed JSON, an unknown key, a wrong type, or a value out of range.
    package init(json data: Data, name: String, source: String, base: TransitionSpec = TransitionSpec()) throws(PresetError) {
        let object: Any
        do {
            object = try JSONText.parse(data)
        } catch {
            throw PresetError("\(source): \(error)")
        }
        guard let fields = object as? [String: Any] else {
            throw PresetError("\(source): expected a JSON object of preset fields, e.g. {\"easing\": \"ease-out-bounce\"}, got \(Preset.typeName(object))")
        }
        var spec = base
        var audio = AudioSettings()
        var layout: String?
        var summary = ""
        for key in fields.keys.sorted() {
            let value = fields[key]!
            if key == "description" {
                guard let text = value as? String else {
                    throw PresetError("\(source): description: wrong type: expected a string, got \(Preset.typeName(value))")
                }
                guard !text.unicodeScalars.contains(where: InputText.needsEscape) else {
                    throw PresetError("\(source): description: must be one line of text without control characters (it is one line of the preset list)")
                }
                summary = text
                continue
            }
            if key == "layout" {
                guard let path = value as? String, !path.isEmpty, !path.unicodeScalars.contains(where: InputText.needsEscape) else {
                    throw PresetError("\(source): layout: expected a layout file's path (relative to the preset)")
                }
                layout = path
                continue
            }
            if let option = AudioOption(rawValue: key) {
                try Preset.set(option, from: value, in: &audio, source: source)
                continue
            }
            guard let field = SpecField(rawValue: key) else {
                let keys = ["description"] + SpecField.allCases.map(\.rawValue) + Preset.audioKeys + ["layout"]
                throw PresetError("\(source): \(InputText.excerpt(key)): unknown field; accepted: \(keys.joined(separator: ", "))")
            }
            let kind = Preset.jsonKind(of: field)
            guard let text = Preset.text(of: value, kind: kind) else {
                throw PresetError("\(source): \(key): wrong type: expected \(kind.expected) (\(field.accepted)), got \(Preset.typeName(value))")
            }
            do {
                try spec.set(field, to: text)
            } catch {
                throw PresetError("\(source): \(key): \(error.message)")
            }
        }
        do {
            try spec.validate()
        } catch {
            throw PresetError("\(source): \(error.field): \(error.message)")
        }
        self.init(name: name, summary: summary, spec: spec, audio: audio)
        self.layout = layout
    }

    /// The audio settings a preset may hold: all but the file.
    static let audioKeys = AudioOption.allCases.filter { $0 != .audio }.map(\.rawValue)

    /// Sets an audio setting from a preset's JSON value.
    private static func set(_ option: AudioOption, from value: Any, in audio: inout AudioSettings, source: String) throws(PresetError) {
        guard option != .audio else {
            throw PresetError("\(source): audio: a preset holds the bed's settings, not its file; give the file with \(setting: AudioOption.audio.setting) (or a manifest's audio)")
        }
        let text: String
        if option == .audioLoop, let flag = value as? NSNumber, jsonNumber(flag) == nil {
            text = flag.boolValue ? "true" : "false"
        } else if option != .audioLoop, let number = jsonNumber(value) {
            text = number
        } else {
            throw PresetError("\(source): \(option.rawValue): wrong type: expected \(option == .audioLoop ? "true or false" : "a number") (\(option.accepted)), got \(typeName(value))")
        }
        do {
            try audio.set(option, to: text)
        } catch {
            throw PresetError("\(source): \(option.rawValue): \(error.message)")
        }
    }

    /// A JSON value as the text a flag would carry, or nil when its type is not `kind`.
    private static func text(of value: Any, kind: JSONKind) -> String? {
        if let number = jsonNumber(value) {
            return kind == .number || kind == .numberOrString ? number : nil
        }
        if let text = value as? String {
            return kind == .string || kind == .numberOrString || kind == .pair ? text : nil
        }
        if kind == .pair, let pair = value as? [Any], pair.count == 2,
           let low = jsonNumber(pair[0]), let high = jsonNumber(pair[1]) {
            return "\(low),\(high)"
        }
        return nil
    }

    /// A JSON number's text (`40`, `1.5`), or nil for anything else, booleans included.
    private static func jsonNumber(_ value: Any) -> String? { SpecField.jsonNumberText(value) }

    /// For errors: the type of a JSON value, in JSON's words.
    private static func typeName(_ value: Any) -> String {
        if value is String { return "a string" }
        if value is [Any] { return "an array" }
        if value is [String: Any] { return "an object" }
        if value is NSNull { return "null" }
        if let number = value as? NSNumber {
            return jsonNumber(number) == nil ? (number.boolValue ? "true" : "false") : "a number"
        }
        return "\(type(of: value))"
    }

    /// The fully resolved preset as JSON, every field in `SpecField` order, in the form
    /// `init(json:)` reads back to an identical preset.
    package var json: String {
        var lines = ["  \"description\": \(Preset.quoted(summary))"]
        for field in SpecField.allCases {
            let text = spec.text(of: field)
            let value: String
            switch Preset.jsonKind(of: field) {
            case .number: value = text
            case .string: value = Preset.quoted(text)
            case .numberOrString: value = Double(text) == nil ? Preset.quoted(text) : text
            case .pair: value = "[\(spec.travel.lowerBound.shortText), \(spec.travel.upperBound.shortText)]"
            }
            lines.append("  \"\(field.rawValue)\": \(value)")
        }
        let defaults = AudioSettings()
        for (option, value) in [(AudioOption.audioStart, audio.start == defaults.start ? nil : audio.start.shortText),
                                (.audioLoop, audio.loop ? "true" : nil),
                                (.audioFadeIn, audio.fadeIn == defaults.fadeIn ? nil : audio.fadeIn.shortText),
                                (.audioFadeOut, audio.fadeOut == defaults.fadeOut ? nil : audio.fadeOut.shortText),
                                (.loudness, audio.loudness?.shortText), (.volume, audio.volume?.shortText)] {
            if let value { lines.append("  \"\(option.rawValue)\": \(value)") }
        }
        if let layout { lines.append("  \"layout\": \(Preset.quoted(layout))") }
        return "{\n" + lines.joined(separator: ",\n") + "\n}\n"
    }

    private static func quoted(_ text: String) -> String {
        let data = try? JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes])
        return data.flatMap { String(data: $0, encoding: .utf8) }.map { JSONText.escapingInvisibles(String($0.dropFirst().dropLast())) } ?? "\"\""
    }
}
