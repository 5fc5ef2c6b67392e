// `{name}` placeholders, filled by one rule wherever they appear: a layout's text and image
// paths (with `--var name=…`, a manifest's `vars`, a feed's columns) and a manifest job's fields
// (`JobPlaceholders`). The grammar is `PlaceholderTemplate`'s: `{{` and `}}` write literal
// braces, `{name_{locale}}` fills the inner placeholder first, `{price|currency:EUR}` writes the
// value for the locale `{locale}` names (`ValueFormat`), and a placeholder with no value or a
// stray brace is an error naming it, never a gap or a brace in a campaign's text.

/// Fills placeholders.
public enum Placeholders {
    /// Why a template cannot be filled.
    public enum Failure: Error, Sendable, Equatable {
        /// `{name}` with no value among the variables.
        case missing(String)
        /// A `{` or `}` that opens or closes nothing (write `{{` or `}}`), or a name that is
        /// not letters, digits, `_` and `-`.
        case malformed(String)
        /// A nested placeholder whose values make no name: `{name_{locale}}` with a locale of
        /// `e n` names `name_e n`.
        case notAName(placeholder: String, name: String)
        /// A placeholder asking for a format slicevid has not (`{price|curency:EUR}`).
        case format(placeholder: String, format: String)
        /// A placeholder with a format where `{locale}` has no value: a format writes for a locale.
        case noLocale(placeholder: String)
        /// A format's locale that is none slicevid knows (`de-DX`).
        case locale(placeholder: String, locale: String, problem: String)
        /// A value its format cannot write (`24,99` for `currency:EUR`): which placeholder, the
        /// name whose value it is, the value, the locale, and why.
        case value(placeholder: String, name: String, value: String, locale: String, problem: String)
        /// A value placed in a path that the path rule refuses (`PathValue`).
        case path(placeholder: String, value: String, problem: String)
    }

    /// The names a template uses, in order, each once; for a nested placeholder, the names
    /// inside it (the name they make depends on their values).
    /// - Throws: `.malformed` for a stray brace.
    public static func names(in template: String) throws(Failure) -> [String] {
        try PlaceholderTemplate(parsing: template).writtenNames
    }

    /// `template` with each `{name}` replaced by `values[name]`, nested ones first.
    /// - Throws: `.missing` for a name with no value, `.malformed` for a stray brace.
    public static func fill(_ template: String, values: [String: String]) throws(Failure) -> String {
        try fill(template, values: values, placing: .text)
    }

    /// `template` filled, each value placed in a path held to the path rule (`PathValue`).
    /// - Throws: as `fill(_:values:)`, and `.path` for a value a path may not take.
    package static func fill(path template: String, values: [String: String]) throws(Failure) -> String {
        try fill(template, values: values, placing: .path)
    }

    private static func fill(_ template: String, values: [String: String], placing: PlaceholderTemplate.Placement) throws(Failure) -> String {
        guard template.contains("{") || template.contains("}") else { return template }
        return try PlaceholderTemplate(parsing: template).fill(placing: placing, value: { reference throws(Failure) -> String in
            guard let value = values[reference.name] else {
                throw reference.isLocale ? .noLocale(placeholder: reference.written) : .missing(reference.name)
            }
            return value
        }, refusing: { $0 })
    }

    /// The name whose value is the locale a format writes for: `{locale}`'s, wherever the
    /// format is (a matrix value, a feed column, a layout's variable).
    package static let localeName = "locale"

    /// A value written with a format: the one place formats are applied (`ValueFormat`).
    /// - Parameters:
    ///   - value: the placeholder's value, as text.
    ///   - format: what followed `|`, its own placeholders filled.
    ///   - locale: the value of `{locale}`.
    ///   - name: the name whose value it is, for the message.
    ///   - placeholder: the placeholder as written, for the message.
    /// - Throws: `.format` for a format slicevid has not, `.locale` for a locale it does not
    ///   know, `.value` for a value the format cannot write.
    package static func format(_ value: String, as format: String, locale: String, name: String,
                               placeholder: String) throws(Failure) -> String {
        guard let format = ValueFormat(parsing: format) else { throw .format(placeholder: placeholder, format: format) }
        let written: FormatLocale
        do {
            written = try FormatLocale(locale)
        } catch {
            throw .locale(placeholder: placeholder, locale: locale, problem: error.description)
        }
        do {
            return try format.write(value, locale: written)
        } catch {
            throw .value(placeholder: placeholder, name: name, value: value, locale: written.tag, problem: error.description)
        }
    }

    /// A variable's name: letters, digits, `_` and `-`, at most 64, starting with a letter or `_`.
    public static func isName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, name.unicodeScalars.count <= 64,
              first.properties.isAlphabetic || first == "_" else { return false }
        return name.unicodeScalars.allSatisfy(isNameCharacter)
    }

    /// A character a name may hold: a letter, a digit, `_` or `-`.
    package static func isNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "-"
    }

    /// How a failure reads in a message, after the field it is about.
    package static func problem(_ failure: Failure) -> String {
        switch failure {
        case .missing(let name):
            "{\(InputText.excerpt(name))} has no value"
        case .malformed(let what):
            "\(InputText.quoted(what)) is not a placeholder; write {name} (a letter or _, then letters, digits, _ or -), and {{ or }} for a literal brace"
        case .notAName(let placeholder, let name):
            "\(InputText.excerpt(placeholder)) makes the name \(InputText.quoted(name)), which is not a placeholder name (a letter or _, then letters, digits, _ or -)"
        case .format(let placeholder, let format):
            "\(InputText.excerpt(placeholder)) asks for the format \(InputText.quoted(format)); a format is \(ValueFormat.accepted)"
        case .noLocale(let placeholder):
            "\(InputText.excerpt(placeholder)) writes its value for a locale, and {\(localeName)} has no value here; give it one (de-DE, en-IE)"
        case .locale(let placeholder, let locale, let problem):
            "\(InputText.excerpt(placeholder)): the locale \(InputText.quoted(locale)) \(problem)"
        case .value(let placeholder, _, let value, let locale, let problem):
            "\(InputText.excerpt(placeholder)) is \(InputText.quoted(value)) for the locale \(locale), which \(problem)"
        case .path(let placeholder, let value, let problem):
            "\(InputText.excerpt(placeholder)) is \(InputText.quoted(value)): \(problem)"
        }
    }
}
