// `slicevid completions bash|zsh|fish`: a completion script for the shell, generated from the
// command table, so every command and flag `--help` lists is completed and nothing else.

import Slicevid

/// A shell slicevid writes completions for.
enum Shell: String, CaseIterable {
    case bash, zsh, fish

    /// The completion script for `commands`.
    func script(for commands: [Command]) -> String {
        switch self {
        case .bash: BashCompletion(commands: commands).script
        case .zsh: ZshCompletion(commands: commands).script
        case .fish: FishCompletion(commands: commands).script
        }
    }
}

/// Prints a shell completion script.
struct CompletionsCommand: ParsableCommand {
    static let spec = CommandSpec(
        name: "completions",
        abstract: "Print a completion script for bash, zsh or fish.",
        usage: "slicevid completions \(Shell.allCases.map(\.rawValue).joined(separator: "|"))",
        options: [],
        discussion: """
        The script completes commands, every flag, the values of flags that take a fixed set of words
        (--direction, --fit, --easing, --codec, --encoder-preset, --log-format, ...), files for paths, and
        preset names for --preset, asked of 'slicevid presets' as you type (so $SLICEVID_PRESETS counts).
        make install and the Debian package install the scripts where each shell looks; to try one now:
          source <(slicevid completions bash)
          slicevid completions zsh > ~/.zfunc/_slicevid      (a folder on $fpath)
          slicevid completions fish > ~/.config/fish/completions/slicevid.fish
        """,
        positionals: [.choices(Shell.allCases.map(\.rawValue))])

    let arguments: ParsedArguments
    let shell: Shell

    init(_ arguments: ParsedArguments) throws(SlicevidError) {
        self.arguments = arguments
        let words = arguments.positionals
        guard words.count == 1, let shell = Shell(rawValue: words[0]) else {
            let got = words.isEmpty ? "no shell" : InputText.quoted(words.joined(separator: " "))
            throw SlicevidError(.usage, "completions needs one shell, \(Shell.allCases.map(\.rawValue).joined(separator: ", ")); got \(got)")
        }
        self.shell = shell
    }

    func run() -> ExitCode {
        Console.shared.verbatim(shell.script(for: SlicevidTool.commands))
        return .success
    }
}
