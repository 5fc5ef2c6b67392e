// `slicevid man`: the manual page, roff for man(1), generated from the command table.

/// Prints the man page.
enum ManCommand {
    static let spec = CommandSpec(
        name: "man",
        abstract: "Print the manual page (roff) for man(1).",
        usage: "slicevid man > slicevid.1",
        options: [],
        discussion: """
        The page lists every command and flag, from the same declarations as --help. make install and the
        Debian package install it; to read it without installing: slicevid man | man -l -
        """)

    static func run(_ arguments: ParsedArguments) -> ExitCode {
        guard arguments.positionals.isEmpty else {
            Console.shared.error("slicevid: error: man takes no arguments; usage: \(spec.usage)\n")
            return .usage
        }
        Console.shared.verbatim(ManPage(commands: SlicevidTool.commands).roff)
        return .success
    }
}
