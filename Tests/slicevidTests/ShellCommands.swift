// The programs a line of shell starts, read as bash reads it closely enough for the docs' `run`
// blocks: lists, pipelines, `$( )` (inside double quotes too), quotes, assignments, keywords.
// SuiteNeeds asks it which programs the docs' commands need a machine to have.

import Foundation

/// Reading the commands out of one line of shell.
enum ShellCommands {
    /// Keywords before a command, dropped to find it (`do make`, `{ printf …`, `! grep …`).
    static let keywords: Set<String> = ["!", "{", "}", "do", "done", "elif", "else", "fi", "if", "then", "time", "until", "while"]
    /// Commands bash runs itself, which no package brings.
    static let builtins: Set<String> = [".", ":", "[", "cd", "command", "echo", "eval", "exec", "exit", "export", "false", "printf",
                                        "pwd", "read", "return", "set", "shift", "source", "test", "trap", "true", "type", "unset", "wait"]

    /// The programs one shell line starts: the first word of each command of its lists,
    /// pipelines and `$( )` (in double quotes too), after any `NAME=value` assignments; quotes
    /// are respected, and a variable or a path (`$EDITOR`, `examples/x.sh`) is not a program
    /// to install.
    static func programs(in line: String) -> [String] {
        var commands: [[String]] = [[]], current = 0, word = "", quote: Character? = nil, previous: Character = " "
        // At each open `$(`: the quoting and the command to go back to at its `)`.
        var resumes: [(quote: Character?, command: Int)] = []
        func endWord() { if !word.isEmpty { commands[current].append(word); word = "" } }
        func begin() { endWord(); commands.append([]); current = commands.count - 1 }
        func open() { word.removeLast(); resumes.append((quote, current)); begin(); quote = nil }
        for character in line {
            defer { previous = character }
            if quote == "'" {
                if character == "'" { quote = nil } else { word.append(character) }
            } else if quote == "\"" {
                if character == "\"" { quote = nil } else { word.append(character) }
                if character == "(", previous == "$" { open() }
            } else {
                switch character {
                case "'", "\"": quote = character
                case "#" where word.isEmpty: endWord(); return Self.starts(of: commands)
                case " ", "\t": endWord()
                case "&" where previous == ">" || previous == "<": word.append(character)
                case "(" where previous == "$": word.append(character); open()
                case ")" where !resumes.isEmpty: endWord(); (quote, current) = resumes.removeLast()
                case "|", ";", "&", "(", ")", "`": begin()
                default: word.append(character)
                }
            }
        }
        endWord()
        return Self.starts(of: commands)
    }

    /// The program of each command: its first word once assignments and keywords are dropped.
    static func starts(of commands: [[String]]) -> [String] {
        commands.compactMap { words in
            let rest = words.drop { $0.contains("=") && !$0.hasPrefix("=") || keywords.contains($0) }
            guard let first = rest.first, !["for", "case", "select", "in"].contains(first) else { return nil }
            let program = first.hasPrefix("$") ? first : String(first.trimmingCharacters(in: CharacterSet(charactersIn: "{}")))
            guard !program.isEmpty, !program.hasPrefix("$"), !program.contains("/"), !builtins.contains(program),
                  program.first.map({ $0.isLetter }) == true else { return nil }
            return program
        }
    }
}
