// A template's text parsed once into literal text and placeholders: the one grammar every
// `{name}` in slicevid follows, in a job's fields and paths and in a layout's text and image
// paths (docs/batch.md, "Placeholders"). Filling it is one walk that every caller shares; a
// caller says only where each name's value comes from.
//
//     template     := ( text | "{{" | "}}" | placeholder )*
//     placeholder  := "{" name ( "|" format )? "}"
//     name, format := ( characters | placeholder )+       nested placeholders are filled first
//
// `{{` and `}}` are literal braces outside a placeholder; inside one, `{` opens a nested
// placeholder and `}` closes. Any other brace is an error, so a brace never reaches a file name
// or a clip by accident. A value is data: it is placed as it is and never read as a template.
// A format (`{price|currency:EUR}`) asks for `{locale}` as a placeholder of its own would, so
// the locale is found, counted as used and refused by the same rule as any name.

/// A template, parsed.
package struct PlaceholderTemplate: Sendable, Equatable {
    /// Literal text, or a placeholder.
    package enum Part: Sendable, Equatable {
        case text(String)
        case placeholder(Placeholder)
    }

    /// One `{…}`.
    package struct Placeholder: Sendable, Equatable {
        /// The name's text and nested placeholders, in order.
        package var name: [Part]
        /// What follows `|`, when the placeholder asks for a format (`{price|currency:EUR}`).
        package var format: [Part]?
        /// The placeholder as written, for messages: `{name_{locale}}`.
        package var written: String
    }

    /// A placeholder met while filling, its nested placeholders filled.
    package struct Reference: Sendable, Equatable {
        /// The name whose value is asked for: `name_en` for `{name_{locale}}` with `locale` en.
        package var name: String
        /// The format asked for, if any.
        package var format: String?
        /// The placeholder as written.
        package var written: String
        /// Whether its value becomes part of another placeholder's name rather than of the text.
        package var isNested: Bool
        /// Whether it is the locale a format asks for (`name` is `locale`, `written` the
        /// placeholder with the format).
        package var isLocale = false
    }

    /// Where the filled text goes: a value placed in a path is held to `PathValue`'s rule.
    package enum Placement: Sendable {
        case text
        case path
    }

    /// The most placeholders one may nest in another.
    package static let maximumDepth = 8

    package let parts: [Part]

    /// Parses `text`.
    /// - Throws: `Placeholders.Failure.malformed` naming the brace or placeholder that breaks
    ///   the grammar.
    package init(parsing text: String) throws(Placeholders.Failure) {
        var parser = PlaceholderParser(text)
        parts = try parser.template()
    }

    /// The placeholder the template is, when it is exactly one and nothing else.
    package var single: Placeholder? {
        guard parts.count == 1, case .placeholder(let placeholder) = parts[0] else { return nil }
        return placeholder
    }

    /// Whether the template holds any placeholder.
    package var hasPlaceholders: Bool {
        parts.contains { if case .placeholder = $0 { true } else { false } }
    }

    /// The text with every placeholder filled, inner ones first.
    /// - Parameters:
    ///   - placement: a path holds each value placed in it to `PathValue`'s rule.
    ///   - value: the value of a name (called for nested placeholders too, inner first, and for
    ///     `locale` when a format asks for it).
    ///   - refusing: the caller's error for a failure of the grammar's own rules.
    ///   - formatted: told each value a format wrote: the name whose value it is, and the text.
    /// - Throws: what `value` throws; `refusing(.notAName)` when nested values make no name,
    ///   `.format`, `.locale` or `.value` for a format, `.path` for a value a path may not take.
    package func fill<E: Error>(placing placement: Placement = .text, value: (Reference) throws(E) -> String,
                                refusing: (Placeholders.Failure) -> E,
                                formatted: (_ name: String, _ text: String) -> Void = { _, _ in }) throws(E) -> String {
        var result = ""
        for part in parts {
            switch part {
            case .text(let text): result += text
            case .placeholder(let placeholder):
                let placed = try Self.resolve(placeholder, isNested: false, formats: true, value: value, refusing: refusing, formatted: formatted)
                if placement == .path, let problem = PathValue.problem(placed) {
                    throw refusing(.path(placeholder: placeholder.written, value: placed, problem: problem))
                }
                result += placed
            }
        }
        return result
    }

    /// The names a fill asks for, in order, each once (nested ones and the names they make,
    /// and `locale` where a format asks for it); a name with no value in `values` is listed and
    /// fills as nothing. Formats are not applied: a value one would refuse hides no name after it.
    package func names(with values: [String: String]) -> [String] {
        var names: [String] = []
        let value = { (reference: Reference) throws(Placeholders.Failure) -> String in
            if !names.contains(reference.name) { names.append(reference.name) }
            return values[reference.name] ?? ""
        }
        for case .placeholder(let placeholder) in parts {
            _ = try? Self.resolve(placeholder, isNested: false, formats: false, value: value, refusing: { $0 }, formatted: { _, _ in })
        }
        return names
    }

    /// The names written out, nested placeholders' own but not the names they make.
    package var writtenNames: [String] {
        var names: [String] = []
        func walk(_ parts: [Part]) {
            for case .placeholder(let placeholder) in parts {
                walk(placeholder.name)
                walk(placeholder.format ?? [])
                if placeholder.name.count == 1, case .text(let name) = placeholder.name[0], !names.contains(name) { names.append(name) }
            }
        }
        walk(parts)
        return names
    }

    /// The value `placeholder` places; with `formats` false, its raw value even where it asks
    /// for a format (the locale is still asked for).
    private static func resolve<E: Error>(_ placeholder: Placeholder, isNested: Bool, formats: Bool, value: (Reference) throws(E) -> String,
                                          refusing: (Placeholders.Failure) -> E,
                                          formatted: (String, String) -> Void) throws(E) -> String {
        func text(of parts: [Part]) throws(E) -> String {
            var text = ""
            for part in parts {
                switch part {
                case .text(let piece): text += piece
                case .placeholder(let inner):
                    text += try resolve(inner, isNested: true, formats: formats, value: value, refusing: refusing, formatted: formatted)
                }
            }
            return text
        }
        let name = try text(of: placeholder.name)
        guard Placeholders.isName(name) else { throw refusing(.notAName(placeholder: placeholder.written, name: name)) }
        let format = try placeholder.format.map { parts throws(E) in try text(of: parts) }
        let raw = try value(Reference(name: name, format: format, written: placeholder.written, isNested: isNested))
        guard let format else { return raw }
        let locale = try value(Reference(name: Placeholders.localeName, format: nil, written: placeholder.written, isNested: true,
                                         isLocale: true))
        guard formats else { return raw }
        do {
            let written = try Placeholders.format(raw, as: format, locale: locale, name: name, placeholder: placeholder.written)
            formatted(name, written)
            return written
        } catch {
            throw refusing(error)
        }
    }
}
