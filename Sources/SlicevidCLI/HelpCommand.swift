// `slicevid help [COMMAND]`: the overview, or one command's help, the same text `--help` prints.

import SliceKit

/// Prints help for the tool or one of its commands.
enum HelpCommand {
    static let spec = CommandSpec(
        name: "help",
        abstract: "Show the overview, or the options of one command.",
        usage: "slicevid help [COMMAND]",
        options: [],
        discussion: "slicevid help make prints what slicevid make --help prints; slicevid help alone prints the overview.",
        positionals: [.command])

    static func run(_ arguments: ParsedArguments) -> ExitCode {
        let words = arguments.positionals
        guard let name = words.first else {
            Console.shared.verbatim(SlicevidTool.usage)
            return .success
        }
        guard words.count == 1, let command = SlicevidTool.command(name) else {
            let names = SlicevidTool.commands.map(\.name).joined(separator: ", ")
            Console.shared.error("slicevid: error: help takes one command name (\(names)); got \(InputText.quoted(words.joined(separator: " ")))\n")
            return .usage
        }
        Console.shared.verbatim(command.spec.help)
        return .success
    }
}
