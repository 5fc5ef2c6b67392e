// `slicevid man`: the manual page, roff for man(1), generated from the command table.

import Slicevid

/// Prints the man page.
struct ManCommand: ParsableCommand {
    static let spec = CommandSpec(
        name: "man",
        abstract: "Print the manual page (roff) for man(1).",
        usage: "slicevid man > slicevid.1",
        options: [],
        discussion: """
        The page lists every command and flag, from the same declarations as --help. make install and the
        Debian package install it; to read it without installing: slicevid man | man -l -
        """)

    let arguments: ParsedArguments

    init(_ arguments: ParsedArguments) throws(SlicevidError) {
        self.arguments = arguments
    }

    func validate() throws(SlicevidError) {
        guard arguments.positionals.isEmpty else {
            throw SlicevidError(.usage, "man takes no arguments; usage: \(Self.spec.usage)")
        }
    }

    func run() -> ExitCode {
        Console.shared.verbatim(ManPage(commands: SlicevidTool.commands).roff)
        return .success
    }
}
