// `slicevid help [COMMAND]`: the overview, or one command's help, the same text `--help` prints.

import Slicevid

/// Prints help for the tool or one of its commands.
struct HelpCommand: ParsableCommand {
    static let spec = CommandSpec(
        name: "help",
        abstract: "Show the overview, or the options of one command.",
        usage: "slicevid help [COMMAND]",
        options: [],
        discussion: "slicevid help make prints what slicevid make --help prints; slicevid help alone prints the overview.",
        positionals: [.command])

    let arguments: ParsedArguments

    init(_ arguments: ParsedArguments) throws(SlicevidError) {
        self.arguments = arguments
    }

    func validate() throws(SlicevidError) {
        let words = arguments.positionals
        guard words.count <= 1, words.first.map({ SlicevidTool.command($0) != nil }) ?? true else {
            let names = SlicevidTool.commands.map(\.name).joined(separator: ", ")
            throw SlicevidError(.usage, "help takes one command name (\(names)); got \(InputText.quoted(words.joined(separator: " ")))")
        }
    }

    func run() -> ExitCode {
        let words = arguments.positionals
        guard let name = words.first else {
            Console.shared.verbatim(SlicevidTool.usage)
            return .success
        }
        Console.shared.verbatim(SlicevidTool.command(name)?.spec.help() ?? "")
        return .success
    }
}
