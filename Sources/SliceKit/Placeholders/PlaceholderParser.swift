// The reading half of `PlaceholderTemplate`: a template's Unicode scalars walked once, braces
// matched, nested placeholders read by recursion no deeper than `maximumDepth`.

/// Reads a template into parts.
struct PlaceholderParser {
    private typealias Part = PlaceholderTemplate.Part
    private let scalars: [Unicode.Scalar]
    private var index = 0

    init(_ text: String) {
        scalars = Array(text.unicodeScalars)
    }

    /// The whole template.
    mutating func template() throws(Placeholders.Failure) -> [PlaceholderTemplate.Part] {
        var parts: [Part] = []
        var text = String.UnicodeScalarView()
        while index < scalars.count {
            let scalar = scalars[index]
            guard scalar == "{" || scalar == "}" else {
                text.append(scalar)
                index += 1
                continue
            }
            if index + 1 < scalars.count, scalars[index + 1] == scalar {
                text.append(scalar)
                index += 2
                continue
            }
            guard scalar == "{" else { throw .malformed("}") }
            if !text.isEmpty { parts.append(.text(String(text))) }
            text = String.UnicodeScalarView()
            parts.append(.placeholder(try placeholder(depth: 1)))
        }
        if !text.isEmpty { parts.append(.text(String(text))) }
        return parts
    }

    /// The placeholder whose `{` is at `index`, up to and past its `}`.
    private mutating func placeholder(depth: Int) throws(Placeholders.Failure) -> PlaceholderTemplate.Placeholder {
        let start = index
        guard depth <= PlaceholderTemplate.maximumDepth else {
            throw .malformed(written(from: start, to: scalars.count) + " (placeholders nested more than \(PlaceholderTemplate.maximumDepth) deep)")
        }
        index += 1
        var name: [Part] = []
        var format: [Part]?
        var text = String.UnicodeScalarView()
        func flush() {
            guard !text.isEmpty else { return }
            if format == nil { name.append(.text(String(text))) } else { format!.append(.text(String(text))) }
            text = String.UnicodeScalarView()
        }
        while index < scalars.count {
            let scalar = scalars[index]
            switch scalar {
            case "{":
                flush()
                let inner = Part.placeholder(try placeholder(depth: depth + 1))
                if format == nil { name.append(inner) } else { format!.append(inner) }
            case "}":
                flush()
                index += 1
                let written = written(from: start, to: index)
                try check(name: name, format: format, written: written)
                return PlaceholderTemplate.Placeholder(name: name, format: format, written: written)
            case "|" where format == nil:
                flush()
                format = []
                index += 1
            default:
                text.append(scalar)
                index += 1
            }
        }
        // Never closed: the rest of the text is what the message shows.
        throw .malformed(written(from: start, to: scalars.count))
    }

    /// A name is name characters and nested placeholders (what they make is checked when they
    /// are filled); a format, when asked for, is not empty, and one written out is one slicevid
    /// has (one with placeholders is checked when they are filled).
    private func check(name: [Part], format: [Part]?, written: String) throws(Placeholders.Failure) {
        guard !name.isEmpty, format.map({ !$0.isEmpty }) ?? true else { throw .malformed(written) }
        if let format, format.count == 1, case .text(let text) = format[0], ValueFormat(parsing: text) == nil {
            throw .format(placeholder: written, format: text)
        }
        if name.count == 1, case .text(let text) = name[0] {
            guard Placeholders.isName(text) else { throw .malformed(written) }
            return
        }
        for case .text(let text) in name where !text.unicodeScalars.allSatisfy(Placeholders.isNameCharacter) {
            throw .malformed(written)
        }
    }

    private func written(from start: Int, to end: Int) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars[start..<end])
        return String(view)
    }
}
