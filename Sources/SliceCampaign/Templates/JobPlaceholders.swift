// A job's `{NAME}` placeholders: the values of its matrix combination and its feed row (and
// `{id}`), filled into every field of a job — ids, stills, outputs, settings, vars — by the one
// filler (`PlaceholderTemplate`), so every field follows one rule. Values placed in a path are
// held to `PathValue`'s rule; an output's options come from the manifest's text alone. The
// names each field used are kept: a job's fingerprint holds the feed values it uses, no others.

import Foundation
import SliceKit
import SliceMedia
import SlicePipeline

/// The values one job's placeholders take, by name, and the names its fields used.
package struct JobPlaceholders {
    /// Values by name: `String`s, or numbers (`NSNumber`) from a matrix or a JSON Lines row.
    package var values: [String: Any]
    /// The job's id, for `{id}`; nil while the id itself is being filled.
    package var id: String?
    /// Where each value came from, for errors: `products.csv:7:12`, `matrix.ratio`.
    package var origins: [String: String]
    /// The names the job's fields (but `vars`) used so far, in order, each once; nested
    /// placeholders' and the names they made among them.
    package private(set) var used: [String] = []
    /// The names the value of each of the job's vars used: a var counts only where a layout
    /// uses it.
    package private(set) var variableUses: [String: [String]] = [:]
    /// The text each format wrote, by the name whose value it wrote (`price`: `24,99 €`), in the
    /// job's fields (but `vars`); and in each var's value.
    package private(set) var shown: [String: [String]] = [:]
    package private(set) var variableShown: [String: [String: [String]]] = [:]

    package init(values: [String: Any] = [:], id: String? = nil, origins: [String: String] = [:]) {
        self.values = values
        self.id = id
        self.origins = origins
    }

    /// `object` (a job object) with the placeholders of every string filled, recursively; the
    /// id stays as given (it was filled first), a `description` as written (it is ignored). The
    /// defaults' `vars` the job does not set itself join its `vars`, filled for it.
    /// - Throws: `SlicevidError(.usage)` naming the field: an unknown `{word}`, a stray brace, a
    ///   value that would take a path out of its folder, a placeholder in an output's options.
    mutating func fill(job object: [String: Any], defaultVariables: [String: String] = [:],
                       reader: ManifestReader) throws(SlicevidError) -> [String: Any] {
        var filled: [String: Any] = [:]
        for (key, value) in object {
            switch key {
            case "id" where id != nil: filled[key] = id
            case "description": filled[key] = value
            case "vars": filled[key] = try fillVariables(value, field: "vars", reader: reader)
            default: filled[key] = try fill(value, field: InputText.excerpt(key), reader: reader)
            }
        }
        let own = (object["vars"] as? [String: Any]).map { Set($0.keys) } ?? []
        let inherited = defaultVariables.filter { !own.contains($0.key) }
        if !inherited.isEmpty {
            var variables = filled["vars"] as? [String: Any] ?? [:]
            let defaults = try fillVariables(inherited, field: "defaults.vars", reader: reader) as? [String: Any] ?? [:]
            for (name, value) in defaults { variables[name] = value }
            filled["vars"] = variables
        }
        return filled
    }

    /// A `vars` object filled, each variable's names kept apart.
    private mutating func fillVariables(_ value: Any, field: String, reader: ManifestReader) throws(SlicevidError) -> Any {
        guard let variables = value as? [String: Any] else { return try fill(value, field: field, reader: reader) }
        var filled: [String: Any] = [:]
        let (fieldsUsed, fieldsShown) = (used, shown)
        for (name, item) in variables {
            (used, shown) = ([], [:])
            filled[name] = try fill(item, field: "\(field).\(InputText.excerpt(name))", reader: reader)
            variableUses[name] = used
            variableShown[name] = shown
        }
        (used, shown) = (fieldsUsed, fieldsShown)
        return filled
    }

    /// `value` with the placeholders of every string in it filled, recursively.
    /// - Parameter field: where `value` is in the job (`outputs[1]`, `images[0].path`): errors
    ///   name it, and it says whether the strings are paths.
    mutating func fill(_ value: Any, field: String, reader: ManifestReader) throws(SlicevidError) -> Any {
        switch value {
        case let text as String:
            if Self.isOutput(field) { return try output(text, field: field, reader: reader) }
            return try substitute(text, field: field, reader: reader)
        case let array as [Any]:
            var filled: [Any] = []
            for (index, item) in array.enumerated() {
                filled.append(try fill(item, field: "\(field)[\(index)]", reader: reader))
            }
            return filled
        case let object as [String: Any]:
            var filled: [String: Any] = [:]
            for (key, item) in object {
                filled[key] = try fill(item, field: "\(field).\(InputText.excerpt(key))", reader: reader)
            }
            return filled
        default:
            return value
        }
    }

    /// Whether the string at `field` of a job is a path: a still, an output, a preset file, a
    /// music bed, a layout file.
    package static func isPath(_ field: String) -> Bool {
        if ["preset", "audio", "audio.file", "layout"].contains(field) || isOutput(field) { return true }
        return field.hasPrefix("images") && (field.hasSuffix("]") || field.hasSuffix(".path"))
    }

    /// Whether `field` is one of the job's outputs: `outputs`, or `outputs[N]`.
    static func isOutput(_ field: String) -> Bool {
        field == "outputs" || (field.hasPrefix("outputs[") && field.hasSuffix("]") && !field.dropFirst(8).dropLast().contains("["))
    }

    /// An output, split before it is filled: its path filled (a path, by the path rule), its
    /// options (`:crf=32`) taken as the manifest writes them, so no value can add one.
    mutating func output(_ text: String, field: String, reader: ManifestReader) throws(SlicevidError) -> OutputArgument {
        let (template, options) = OutputArgument.split(text)
        if let options, options.contains("{") || options.contains("}") {
            throw reader.error(field, "the options after the path (\(InputText.quoted(":" + options))) are the manifest's own and take no placeholders; set the job's field instead (\"crf\": \"{crf}\")")
        }
        let path = Self.written(try substitute(String(template), field: field, reader: reader))
        do {
            return try OutputArgument(path: path, options: options ?? "")
        } catch {
            throw reader.error(field, SlicevidError(.usage, error.text))
        }
    }

    /// `text` with its placeholders filled (`{{` and `}}` are braces); a number when `text` is
    /// exactly one placeholder whose value is a number.
    /// - Parameter field: where the text is, for errors and to tell a path (`isPath`).
    mutating func substitute(_ text: String, field: String, reader: ManifestReader) throws(SlicevidError) -> Any {
        guard text.contains("{") || text.contains("}") else { return text }
        let template: PlaceholderTemplate
        do {
            template = try PlaceholderTemplate(parsing: text)
        } catch {
            throw reader.error(field, Placeholders.problem(error))
        }
        let path = Self.isPath(field)
        var raw: Any?
        let filled: String
        var written: [(name: String, text: String)] = []
        do throws(Refusal) {
            filled = try template.fill(placing: path ? .path : .text, value: { reference throws(Refusal) -> String in
                do throws(SlicevidError) {
                    raw = try value(of: reference, field: field, reader: reader)
                } catch {
                    throw .job(error)
                }
                return Self.written(raw!)
            }, refusing: { .grammar($0) }, formatted: { written.append(($0, $1)) })
        } catch {
            switch error {
            case .job(let error): throw error
            case .grammar(.path(let placeholder, let value, let problem)):
                let name = used.last ?? ""
                let origin = name == "id" ? "the job's id" : origins[name].map { "from \($0)" } ?? "its value"
                throw reader.error(field, "\(InputText.excerpt(placeholder)) is \(InputText.quoted(value)) (\(origin)): \(problem)")
            case .grammar(.value(let placeholder, let name, let value, let locale, let problem)):
                // The feed's cell (`products.csv:7:3`) and the locale the value was to be written for.
                throw reader.error(field, Self.valueProblem(placeholder: placeholder, value: value, origin: origins[name], locale: locale, problem: problem))
            case .grammar(let failure): throw reader.error(field, Placeholders.problem(failure))
            }
        }
        for (name, text) in written where !(shown[name]?.contains(text) ?? false) { shown[name, default: []].append(text) }
        // A field that is one placeholder takes a number as a number: "crf": "{crf}".
        if let single = template.single, single.format == nil, !path, let raw, SpecField.jsonNumberText(raw) != nil {
            return raw
        }
        return filled
    }

    /// The value a placeholder names, its use noted.
    private mutating func value(of reference: PlaceholderTemplate.Reference, field: String,
                                reader: ManifestReader) throws(SlicevidError) -> Any {
        let name = reference.name
        if !used.contains(name) { used.append(name) }
        if name == "id" {
            guard let id else { throw reader.error(field, "the id cannot contain {id}") }
            return id
        }
        if let value = values[name] { return value }
        if reference.isLocale {
            throw reader.error(field, "\(InputText.excerpt(reference.written)) writes its value for a locale, and this job has no {\(name)}; "
                + "give it a matrix value or a feed column named \(name) (de-DE, en-IE), or write the format in the layout, where a var named \(name) serves too")
        }
        let names = values.keys.sorted().map { "{\($0)}" } + (id == nil ? [] : ["{id}"])
        let known = names.count <= 12 ? names.joined(separator: ", ") : names.prefix(12).joined(separator: ", ") + " and \(names.count - 12) more"
        let made = reference.written == "{\(name)}" ? "" : " (made by \(InputText.excerpt(reference.written)))"
        throw reader.error(field, "{\(InputText.excerpt(name))}\(made) is not a placeholder of this job (it has \(known.isEmpty ? "none" : known)); write {{ and }} for literal braces")
    }

    /// A value its format cannot write, named by where it came from: `{price|currency:EUR} is
    /// '24,99' (from products.csv:7:3, column price) for the locale de-DE, which is not a number; …`.
    package static func valueProblem(placeholder: String, value: String, origin: String?, locale: String, problem: String) -> String {
        "\(InputText.excerpt(placeholder)) is \(InputText.quoted(value))\(origin.map { " (from \($0))" } ?? "") for the locale \(locale), which \(problem)"
    }

    /// Why a fill stopped: a job's own refusal, or one of the grammar's.
    private enum Refusal: Error {
        case job(SlicevidError)
        case grammar(Placeholders.Failure)
    }

    /// A value as it reads in a string.
    package static func written(_ value: Any) -> String {
        value as? String ?? SpecField.jsonNumberText(value) ?? ""
    }

    /// Whether `text` can name a placeholder: the layouts' rule (`Placeholders.isName`), so a
    /// feed's column, a matrix's dimension and a layout's `{name}` are named alike.
    package static func isName(_ text: Substring) -> Bool {
        Placeholders.isName(String(text))
    }
}
