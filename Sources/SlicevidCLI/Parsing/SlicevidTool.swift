// The top-level command table: every command, the options of `slicevid` itself, the overview,
// and the dispatch from a command line to the command that runs it.

import Foundation
import Slicevid

/// The top-level command table. `--help`, `help COMMAND`, the shell completions and the man
/// page are all generated from it and from each command's `spec`.
package enum SlicevidTool {
    package static let version = Slicevid.version
    static let abstract = "slicevid renders slice-transition videos from still images."

    /// Every command, in the order help lists them.
    static let commands: [Command] = [
        Command(MakeCommand.self),
        Command(BatchCommand.self),
        Command(PresetsCommand.self),
        Command(ProbeCommand.self),
        Command(ReportCommand.self),
        Command(HelpCommand.self),
        Command(CompletionsCommand.self),
        Command(ManCommand.self),
    ]

    /// The options of `slicevid` itself, before any command.
    static let options = [
        OptionSpec("help", short: "h", help: "Show this overview (slicevid help COMMAND for a command's options)."),
        OptionSpec("version", help: "Print the version (slicevid \(version)) and exit."),
    ]

    /// The command named `name`, if there is one.
    static func command(_ name: String) -> Command? { commands.first { $0.name == name } }

    /// The overview `slicevid --help` and `slicevid help` print, wrapped to the terminal.
    static var usage: String {
        let width = HelpText.width()
        let column = (commands.map(\.name.count).max() ?? 0) + 5
        let table = commands.flatMap { HelpText.entry("  " + $0.name, $0.spec.abstract, column: column, width: width) }
        let flags = options.map { option in "  " + (option.short.map { "-\($0), " } ?? "    ") + "--" + option.name }
        let flagColumn = (flags.map(\.count).max() ?? 0) + 2
        let optionLines = zip(flags, options).flatMap { HelpText.entry($0, $1.help, column: flagColumn, width: width) }
        return (["OVERVIEW: \(abstract)", "", "USAGE: slicevid <command> [options]", "", "COMMANDS:"] + table
            + ["", "OPTIONS:"] + optionLines
            + [""] + HelpText.wrapped("See 'slicevid help <command>' or 'slicevid <command> --help' for a command's options.", width: width) + [""])
            .joined(separator: "\n") + "\n"
    }

    package static func main(_ arguments: [String]) -> ExitCode {
        guard let name = arguments.first else {
            Console.shared.verbatim(usage, toStandardError: true)
            return .usage
        }
        switch name {
        case "--help", "-h":
            Console.shared.verbatim(usage)
            return .success
        case "--version":
            Console.shared.output("slicevid \(version)\n")
            return .success
        default:
            guard let command = command(name) else {
                let suggestion = Suggestion.phrase(for: name, among: commands.map(\.name) + options.flatMap(\.spellings))
                let line = "unknown command \(InputText.quoted(name))\(suggestion); commands: \(commands.map(\.name).joined(separator: ", "))"
                if LogFormat.sniff(arguments) == .json {
                    LogWriter(console: .shared, format: .json, quiet: false).error(SlicevidError(.usage, ErrorText(line)))
                } else {
                    Console.shared.error("slicevid: error: \(line)\n")
                }
                return .usage
            }
            return command(Array(arguments.dropFirst()))
        }
    }
}
