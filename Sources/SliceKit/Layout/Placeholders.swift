// `{name}` placeholders, filled by one rule wherever they appear: a layout's text and image
// paths (with `--var name=…`, a manifest's `vars`, a feed's columns) and a manifest job's fields
// (`JobPlaceholders`). The grammar is `PlaceholderTemplate`'s: `{{` and `}}` write literal
// braces, `{name_{locale}}` fills the inner placeholder first, and a placeholder with no value
// or a stray brace is an error naming it, never a gap or a brace in a campaign's text.

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
        /// A placeholder asking for a format (`{price|currency:EUR}`), which this version has not.
        case format(placeholder: String, format: String)
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
            guard let value = values[reference.name] else { throw .missing(reference.name) }
            return value
        }, refusing: { $0 })
    }

    /// A value written with a format: the one place formats (`{price|currency:EUR}`,
    /// `{until|date:long}`) are to be added. This version has none, so any is refused.
    /// - Parameters:
    ///   - value: the placeholder's value, as text.
    ///   - format: what followed `|`, its own placeholders filled.
    ///   - placeholder: the placeholder as written, for the message.
    /// - Throws: `.format`.
    package static func format(_ value: String, as format: String, placeholder: String) throws(Failure) -> String {
        throw .format(placeholder: placeholder, format: format)
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
            "\(InputText.excerpt(placeholder)) asks for the format \(InputText.quoted(format)); this version of slicevid has no formats, so a placeholder is {name} alone"
        case .path(let placeholder, let value, let problem):
            "\(InputText.excerpt(placeholder)) is \(InputText.quoted(value)): \(problem)"
        }
    }
}
