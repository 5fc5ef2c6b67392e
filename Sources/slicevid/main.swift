// slicevid's entry point: pick the command, run it, exit with its code.

import Foundation
import SliceKit

/// The top-level command table.
enum Slicevid {
    static let version = "0.2.0"

    static let usage = """
    OVERVIEW: slicevid renders slice-transition videos from still images.

    USAGE: slicevid <command> [options]

    COMMANDS:
      make      Render a transition video (try: slicevid make --preset spring)
      batch     Render every job of a JSON manifest; re-runs skip what is up to date
      presets   List presets, or show one as JSON
      probe     Describe media files (codec, size, pixel format, colour tags, frames)

    See 'slicevid <command> --help' for a command's options.

    """

    static func main(_ arguments: [String]) -> ExitCode {
        guard let command = arguments.first else {
            Console.shared.verbatim(usage, toStandardError: true)
            return .usage
        }
        let rest = Array(arguments.dropFirst())
        switch command {
        case "make":
            return dispatch(MakeCommand.spec, rest, MakeCommand.run)
        case "batch":
            return dispatch(BatchCommand.spec, rest, BatchCommand.run)
        case "presets":
            return dispatch(PresetsCommand.spec, rest, PresetsCommand.run)
        case "probe":
            return dispatch(ProbeCommand.spec, rest, ProbeCommand.run)
        case "--help", "-h", "help":
            Console.shared.verbatim(usage)
            return .success
        case "--version":
            Console.shared.output("slicevid \(version)\n")
            return .success
        default:
            Console.shared.error("slicevid: error: unknown command \(InputText.quoted(command)); commands: make, batch, presets, probe\n")
            return .usage
        }
    }

    /// Parses with `spec`, answers `--help`, runs the command.
    private static func dispatch(_ spec: CommandSpec, _ arguments: [String], _ run: (ParsedArguments) -> ExitCode) -> ExitCode {
        do {
            let parsed = try spec.parse(arguments)
            if parsed.has("help") {
                Console.shared.verbatim(spec.help)
                return .success
            }
            return run(parsed)
        } catch {
            Console.shared.error("slicevid: error: \(error.description)\n")
            return .usage
        }
    }
}

exit(Slicevid.main(Array(CommandLine.arguments.dropFirst())).rawValue)
