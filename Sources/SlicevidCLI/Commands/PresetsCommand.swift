// `slicevid presets`: list the presets every source offers, or print one fully resolved as JSON.

import Slicevid

/// Lists and shows presets.
struct PresetsCommand: ParsableCommand {
    static let spec = CommandSpec(
        name: "presets",
        abstract: "List presets, or print one (fully resolved) as JSON to copy and edit.",
        usage: "slicevid presets [show NAME|FILE]",
        options: [],
        discussion: """
        LOOKUP: --preset VALUE (and presets show VALUE) is resolved in this order; the first match wins:
          1. a path: VALUE contains '/' or ends in .json, and names a preset file
          2. VALUE.json in each folder of $SLICEVID_PRESETS (colon-separated), left to right
          3. VALUE.json in the installed presets, <binary dir>/../share/slicevid/presets
          4. the presets built into the binary: \(Preset.builtIn.map(\.name).joined(separator: ", "))
        'slicevid presets' lists every name once, as that order resolves it, with where it comes from.

        A preset file is a strict JSON object (RFC 8259: UTF-8 without a byte-order mark, no comments, no
        trailing commas, each key once): an optional "description" (one line) and any of the make flags
        without dashes as keys ("size": "1080x1920", "slices": 40 or "24px", "travel": [1, 4],
        "easing": "ease-out-bounce", "stagger": 0.01, "motion-blur": 4, ...). Fields left out take the
        defaults (the spring preset); flags given to make override the preset. An unknown key, a wrong
        type or a value out of range is an error naming the file and field (exit code 64).
        """,
        positionals: [.choices(["show"]), .preset])

    let arguments: ParsedArguments

    init(_ arguments: ParsedArguments) throws(SlicevidError) {
        self.arguments = arguments
    }

    func validate() throws(SlicevidError) {
        let words = arguments.positionals
        guard words.isEmpty || (words.first == "show" && words.count == 2) else {
            throw SlicevidError(.usage, "usage: \(Self.spec.usage)")
        }
    }

    func run() -> ExitCode {
        let words = arguments.positionals
        switch words.first {
        case nil:
            return Self.list()
        case "show" where words.count == 2:
            do {
                // JSON escapes every control character in its strings, so it prints as it is.
                Console.shared.verbatim(try Slicevid.preset(words[1], in: Slicevid.presetCatalog()).json)
                return .success
            } catch {
                Console.shared.error("slicevid: error: \(error.message)\n")
                return ExitCode(error.category)
            }
        default:
            preconditionFailure("validate() lets only the two forms through")
        }
    }

    /// One line per preset name, ending with where it comes from: its file, or "built in".
    /// A file that does not
    /// load is reported on stderr and makes the exit code 64, after the list.
    private static func list() -> ExitCode {
        let (entries, problems) = Slicevid.presetCatalog().all()
        let width = entries.map(\.preset.name.count).max() ?? 0
        for entry in entries {
            let origin = "  (\(entry.path ?? "built in"))"
            Console.shared.output(entry.preset.name.padding(toLength: width + 2, withPad: " ", startingAt: 0)
                                  + entry.preset.summary + origin + "\n")
        }
        for problem in problems { Console.shared.error("slicevid: error: \(problem.message)\n") }
        return problems.isEmpty ? .success : .usage
    }
}
