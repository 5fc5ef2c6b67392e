// A command of the command table: its declaration (which parses, prints help and feeds the
// completions and the man page) and what runs it.

/// One `slicevid` command.
struct Command: Sendable {
    let spec: CommandSpec
    let run: @Sendable (ParsedArguments) -> ExitCode

    /// The command's name, as typed after `slicevid`.
    var name: String { spec.name }

    /// Parses `arguments` with the spec, answers `--help`, otherwise runs the command.
    /// - Returns: the command's exit code, or 64 for a command line the spec refuses.
    func callAsFunction(_ arguments: [String]) -> ExitCode {
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
