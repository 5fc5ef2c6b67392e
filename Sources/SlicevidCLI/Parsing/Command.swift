// Commands in swift-argument-parser's shape: each declares its options once (`spec`), reads
// what the command line gave it, checks it (`validate`), then runs. The command table holds
// them type-erased, so help, completions and the man page walk one list.

import Slicevid

/// One `slicevid` command.
protocol ParsableCommand: SendableMetatype {
    /// Options, usage and help text: parsing, `--help`, completions and the man page all come
    /// from it.
    static var spec: CommandSpec { get }
    /// The command with what the command line gave it, read into typed values.
    /// - Throws: `SlicevidError(.usage)` for a value that cannot be read, naming the flag.
    init(_ arguments: ParsedArguments) throws(SlicevidError)
    /// Checks what was given as a whole, before anything runs: the words a command needs,
    /// flags that only go together.
    func validate() throws(SlicevidError)
    /// Runs the command; its exit code.
    func run() -> ExitCode
}

extension ParsableCommand {
    func validate() throws(SlicevidError) {}
}

/// A command of the command table, type-erased.
struct Command: Sendable {
    let spec: CommandSpec
    private let execute: @Sendable (ParsedArguments) throws(SlicevidError) -> ExitCode

    init<C: ParsableCommand>(_ type: C.Type) {
        spec = C.spec
        execute = { arguments throws(SlicevidError) in
            let command = try C(arguments)
            try command.validate()
            return command.run()
        }
    }

    /// The command's name, as typed after `slicevid`.
    var name: String { spec.name }

    /// Parses `arguments` with the spec, answers `--help`, otherwise reads, validates and runs
    /// the command.
    /// - Returns: the command's exit code; 64 for a command line the spec refuses, or the code
    ///   of the error reading or validating it raised.
    func callAsFunction(_ arguments: [String]) -> ExitCode {
        // Refusals of the command line itself come in the log format it asks for, even when
        // the rest of it cannot be read.
        let log = LogWriter(console: .shared, format: LogFormat.sniff(arguments), quiet: false)
        let parsed: ParsedArguments
        do {
            parsed = try spec.parse(arguments)
        } catch {
            log.error(SlicevidError(.usage, ErrorText(error.description)))
            return .usage
        }
        if parsed.has(SharedOptions.help) {
            Console.shared.verbatim(spec.help())
            return .success
        }
        do {
            return try execute(parsed)
        } catch {
            log.error(error)
            return ExitCode(error.category)
        }
    }
}
