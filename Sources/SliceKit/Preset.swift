// Presets: a named, described TransitionSpec. The built-in ones are compiled in so the tool
// works even where no presets folder can be found; files use the same keys as the flags.

import Foundation

/// A named look: every field of a `TransitionSpec`, plus a one-line description.
public struct Preset: Sendable, Equatable {
    public var name: String
    public var summary: String
    public var spec: TransitionSpec

    public init(name: String, summary: String, spec: TransitionSpec) {
        self.name = name
        self.summary = summary
        self.spec = spec
    }

    /// The seed transition, exactly: 1920x1080, 30 fps, 1 s hold, 1 s UIKit spring (ζ 0.8),
    /// 75 vertical strips travelling 1–4 frame heights.
    public static let spring = Preset(name: "spring",
                                      summary: "The original iOS transition: 75 strips, 1 s hold, 1 s spring (damping 0.8)",
                                      spec: TransitionSpec())

    /// Presets compiled into the binary.
    public static let builtIn: [Preset] = [.spring]
}

/// A preset that could not be found or read; `description` is the one line a user sees.
public struct PresetError: Error, Equatable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

extension Preset {
    /// Reads a preset file: a JSON object with an optional `"description"` and any of the
    /// `SpecField` keys (`"size": "1080x1920"`, `"slices": 40`, `"travel": [1, 4]`, …).
    /// Fields not given keep `base`'s values.
    /// - Throws: `PresetError` naming the file, the key and what is accepted.
    public init(json data: Data, name: String, source: String, base: TransitionSpec = TransitionSpec()) throws(PresetError) {
        guard let object = try? JSONSerialization.jsonObject(with: data), let fields = object as? [String: Any] else {
            throw PresetError("\(source): not a JSON object of preset fields")
        }
        var spec = base
        var summary = ""
        let keys = ["description"] + SpecField.allCases.map(\.rawValue)
        for key in fields.keys.sorted() {
            let value = fields[key]!
            if key == "description" {
                guard let text = value as? String else { throw PresetError("\(source): description: expected a string") }
                summary = text
                continue
            }
            guard let field = SpecField(rawValue: key) else {
                throw PresetError("\(source): \(key): unknown field; accepted: \(keys.joined(separator: ", "))")
            }
            guard let text = field.text(fromJSON: value) else {
                throw PresetError("\(source): \(key): wrong type; expected \(field.accepted)")
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
        self.init(name: name, summary: summary, spec: spec)
    }

    /// The fully resolved preset as JSON, in the form `init(json:)` reads back.
    public var json: String {
        var lines = ["  \"description\": \(Preset.quoted(summary))"]
        for field in SpecField.allCases {
            let text = spec.text(of: field)
            let numeric = [.hold, .duration, .endHold, .slices, .seed].contains(field)
            lines.append("  \"\(field.rawValue)\": \(numeric ? text : Preset.quoted(text))")
        }
        return "{\n" + lines.joined(separator: ",\n") + "\n}\n"
    }

    private static func quoted(_ text: String) -> String {
        let data = try? JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes])
        return data.flatMap { String(data: $0, encoding: .utf8) }.map { String($0.dropFirst().dropLast()) } ?? "\"\""
    }
}
