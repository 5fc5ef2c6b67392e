// slicevid's entry point: pick the command, run it, exit with its code.

import Foundation
import SliceKit
import SliceMedia

/// The top-level command table. `--help`, `help COMMAND`, the shell completions and the man
/// page are all generated from it and from each command's `spec`.
enum Slicevid {
    static let version = "0.2.0"
    static let abstract = "slicevid renders slice-transition videos from still images."

    /// Every command, in the order help lists them.
    static let commands: [Command] = [
        Command(spec: MakeCommand.spec, run: MakeCommand.run),
        Command(spec: BatchCommand.spec, run: BatchCommand.run),
        Command(spec: PresetsCommand.spec, run: PresetsCommand.run),
        Command(spec: ProbeCommand.spec, run: ProbeCommand.run),
        Command(spec: HelpCommand.spec, run: HelpCommand.run),
        Command(spec: CompletionsCommand.spec, run: CompletionsCommand.run),
        Command(spec: ManCommand.spec, run: ManCommand.run),
    ]

    /// The options of `slicevid` itself, before any command.
    static let options = [
        OptionSpec("help", short: "h", help: "Show this overview (slicevid help COMMAND for a command's options)."),
        OptionSpec("version", help: "Print the version (slicevid \(version)) and exit."),
    ]

    /// The command named `name`, if there is one.
    static func command(_ name: String) -> Command? { commands.first { $0.name == name } }

    /// The overview `slicevid --help` and `slicevid help` print.
    static var usage: String {
        let width = (commands.map(\.name.count).max() ?? 0) + 3
        let table = commands.map { "  " + $0.name.padding(toLength: width, withPad: " ", startingAt: 0) + $0.spec.abstract }
        let flags = options.map { option in "  " + (option.short.map { "-\($0), " } ?? "    ") + "--" + option.name }
        let flagWidth = (flags.map(\.count).max() ?? 0) + 2
        let optionLines = zip(flags, options).map { $0.padding(toLength: flagWidth, withPad: " ", startingAt: 0) + $1.help }
        return (["OVERVIEW: \(abstract)", "", "USAGE: slicevid <command> [options]", "", "COMMANDS:"] + table
            + ["", "OPTIONS:"] + optionLines
            + ["", "See 'slicevid help <command>' or 'slicevid <command> --help' for a command's options.", ""])
            .joined(separator: "\n") + "\n"
    }

    static func main(_ arguments: [String]) -> ExitCode {
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
                Console.shared.error("slicevid: error: unknown command \(InputText.quoted(name)); commands: \(commands.map(\.name).joined(separator: ", "))\n")
                return .usage
            }
            return command(Array(arguments.dropFirst()))
        }
    }
}

StandardStreams.reopenClosedOnDevNull()
StandardErrorGate.prepare()
exit(Slicevid.main(Array(CommandLine.arguments.dropFirst())).rawValue)
