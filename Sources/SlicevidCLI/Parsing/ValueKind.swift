// What a command-line value is, declared beside each option and positional argument so the
// shell completions can offer the right words for it.

/// What an option's value or a positional argument is, for shell completions: free text, a
/// path, a preset (name or file), one word of a fixed list, or a command's name.
enum ValueKind: Equatable {
    case text
    case path
    case preset
    case choices([String])
    case command
}
