// `{name}` placeholders in a layout's text and image paths, filled with the run's variables
// (`--var name=…`, a manifest's `vars`, a feed's columns). `{{` and `}}` write literal braces; a
// placeholder with no value is an error naming it, never an empty gap in a campaign's text.

/// Fills placeholders.
public enum Placeholders {
    /// Why a template cannot be filled.
    public enum Failure: Error, Sendable, Equatable {
        /// `{name}` with no value among the variables.
        case missing(String)
        /// A `{` or `}` that opens or closes nothing (write `{{` or `}}`), or a name that is
        /// not letters, digits, `_` and `-`.
        case malformed(String)
    }

    /// The names a template uses, in order, each once.
    public static func names(in template: String) throws(Failure) -> [String] {
        var names: [String] = []
        _ = try fill(template) { name in
            if !names.contains(name) { names.append(name) }
            return ""
        }
        return names
    }

    /// `template` with each `{name}` replaced by `values[name]`.
    /// - Throws: `.missing` for a name with no value, `.malformed` for a stray brace.
    public static func fill(_ template: String, values: [String: String]) throws(Failure) -> String {
        try fill(template) { name throws(Failure) in
            guard let value = values[name] else { throw .missing(name) }
            return value
        }
    }

    private static func fill(_ template: String, value: (String) throws(Failure) -> String) throws(Failure) -> String {
        var result = ""
        var index = template.startIndex
        while index < template.endIndex {
            let character = template[index]
            let next = template.index(after: index)
            if character == "{" || character == "}" {
                if next < template.endIndex, template[next] == character {
                    result.append(character)
                    index = template.index(after: next)
                    continue
                }
                guard character == "{", let close = template[next...].firstIndex(of: "}") else {
                    throw .malformed(String(character))
                }
                let name = String(template[next..<close])
                guard isName(name) else { throw .malformed("{\(name)}") }
                result += try value(name)
                index = template.index(after: close)
                continue
            }
            result.append(character)
            index = next
        }
        return result
    }

    /// A variable's name: letters, digits, `_` and `-`, at most 64, starting with a letter or `_`.
    public static func isName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, name.unicodeScalars.count <= 64,
              first.properties.isAlphabetic || first == "_" else { return false }
        return name.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-" }
    }
}
