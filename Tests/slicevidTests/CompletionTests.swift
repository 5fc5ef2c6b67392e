// Shell completions and the man page against `--help`: every command and flag help lists is in
// the bash, zsh and fish scripts and in the man page, and nothing else is. The expectations are
// read from the binary's own help, so a flag added to a spec is checked without editing this file.
// bash is also driven for real: the script sourced, COMP_WORDS set, the function called.

import Foundation
import Testing

@Suite("completions and man page")
struct CompletionTests {
    /// Commands and top-level flags from `slicevid --help`; each command's flags from its `--help`.
    struct Declared {
        var commands: [String]
        var topFlags: Set<String>
        var flags: [String: Set<String>]
    }

    static func declared(in folder: String) throws -> Declared {
        let overview = try CLI.run(["--help"], in: folder)
        try #require(overview.status == 0, "\(overview)")
        // A command's line starts two spaces in; its summary, wrapped, hangs further in.
        let commands = section("COMMANDS:", of: overview.stdout).filter { $0.prefix(while: { $0 == " " }).count == 2 }
            .compactMap { $0.split(separator: " ").first.map(String.init) }
        var flags: [String: Set<String>] = [:]
        for command in commands {
            let help = try CLI.run([command, "--help"], in: folder)
            try #require(help.status == 0, "\(help)")
            flags[command] = optionSpellings(help.stdout)
        }
        return Declared(commands: commands, topFlags: optionSpellings(overview.stdout), flags: flags)
    }

    /// The indented lines under a help heading, up to the next blank line.
    static func section(_ heading: String, of text: String) -> [String] {
        let lines = text.components(separatedBy: "\n")
        guard let start = lines.firstIndex(of: heading) else { return [] }
        return Array(lines[(start + 1)...].prefix { !$0.isEmpty })
    }

    /// `-o`, `--output`, … from the OPTIONS lines of a help text.
    static func optionSpellings(_ help: String) -> Set<String> {
        var spellings: Set<String> = []
        // A label starts by column 6 (`  -o, --output`, `      --from`); help wrapped under a
        // label hangs further in.
        for line in section("OPTIONS:", of: help) where line.prefix(while: { $0 == " " }).count <= 6 {
            let label = line.trimmingCharacters(in: .whitespaces).split(separator: " ").prefix(2)
            for word in label where word.hasPrefix("-") { spellings.insert(String(word.trimmingCharacters(in: [","]))) }
        }
        return spellings
    }

    /// Every `-x` / `--name` in `text`.
    static func flags(in text: Substring) -> Set<String> {
        Set(text.matches(of: /(?:^|[^\w-])(--?[a-z0-9][a-z0-9-]*)/).map { String($0.output.1) })
    }

    @Test("help COMMAND prints what COMMAND --help prints, for every command")
    func helpCommand() throws {
        try withScratchFolder { folder in
            let declared = try Self.declared(in: folder)
            #expect(declared.commands.starts(with: ["make", "batch", "presets", "probe"]), "\(declared.commands)")
            for command in declared.commands {
                let help = try CLI.run(["help", command], in: folder)
                #expect(help.stdout == (try CLI.run([command, "--help"], in: folder)).stdout)
                #expect(help.stdout.contains("USAGE: slicevid \(command)"))
            }
            #expect(try CLI.run(["help"], in: folder).stdout == (try CLI.run(["--help"], in: folder)).stdout)
            let unknown = try CLI.run(["help", "render"], in: folder)
            #expect(unknown.status == 64 && unknown.stderrIsOneLine && unknown.stderr.contains("render"), "\(unknown)")
            // A name with control characters is echoed escaped, never raw into a terminal or log.
            for arguments in [["help", "x\u{1B}[2J\ny"], ["x\u{1B}[2J\ny"], ["completions", "x\u{1B}[2J\ny"]] {
                let odd = try CLI.run(arguments, in: folder)
                #expect(odd.status == 64 && odd.stderrIsOneLine && !odd.stderr.contains("\u{1B}"), "\(odd)")
            }
        }
    }

    @Test("bash completes exactly the commands and flags help lists")
    func bashFlags() throws {
        try withScratchFolder { folder in
            let declared = try Self.declared(in: folder)
            #expect(Set(try Bash.complete(["slicevid", ""], in: folder)) == Set(declared.commands).union(declared.topFlags))
            for command in declared.commands {
                let offered = try Bash.complete(["slicevid", command, "-"], in: folder)
                #expect(Set(offered) == declared.flags[command], "slicevid \(command) -<TAB>")
                #expect(offered.count == Set(offered).count, "slicevid \(command) -<TAB> offers a flag twice")
            }
        }
    }

    @Test("zsh's script declares exactly the commands and flags help lists")
    func zshFlags() throws {
        try withScratchFolder { folder in
            let declared = try Self.declared(in: folder)
            let script = try CLI.run(["completions", "zsh"], in: folder).stdout
            #expect(script.hasPrefix("#compdef slicevid\n"))
            /// The option specs of a function: its lines that open a quote, each read up to the
            /// description's `[`.
            func specs(of function: String) throws -> Set<String> {
                let start = try #require(script.range(of: "\n\(function)() {\n"), "no \(function) in the zsh script")
                let rest = script[start.upperBound...]
                let body = rest[..<(rest.range(of: "\n}\n")?.lowerBound ?? rest.endIndex)]
                return body.split(separator: "\n").filter { $0.trimmingCharacters(in: .whitespaces).hasPrefix("'") }
                    .reduce(into: Set<String>()) { $0.formUnion(Self.flags(in: $1.split(separator: "[").first ?? "")) }
            }
            let top = try specs(of: "_slicevid")
            #expect(top == declared.topFlags)
            for command in declared.commands {
                let found = try specs(of: "_slicevid_command_\(command)")
                #expect(found == declared.flags[command], "\(command)")
                #expect(script.contains("\n    '\(command):"), "\(command) is not among the zsh commands")
            }
        }
    }

    @Test("fish's script declares exactly the commands and flags help lists")
    func fishFlags() throws {
        try withScratchFolder { folder in
            let declared = try Self.declared(in: folder)
            let lines = try CLI.run(["completions", "fish"], in: folder).stdout.split(separator: "\n")
            /// `-s o -l output` of the `complete` lines with exactly this condition, read before `-d`.
            func flags(_ condition: String) -> Set<String> {
                let prefix = "complete -c slicevid -n \(condition) "
                return lines.filter { $0.hasPrefix(prefix) }.reduce(into: Set<String>()) { found, line in
                    let words = (line.components(separatedBy: " -d ").first ?? "").split(separator: " ")
                    for (flag, name) in zip(words, words.dropFirst()) where flag == "-s" || flag == "-l" {
                        found.insert((flag == "-s" ? "-" : "--") + name)
                    }
                }
            }
            #expect(flags("'__fish_use_subcommand'") == declared.topFlags)
            let commands = lines.filter { $0.hasPrefix("complete -c slicevid -n '__fish_use_subcommand' -a ") }
                .map { String($0.split(separator: " ")[6]) }
            #expect(commands == declared.commands)
            for command in declared.commands {
                #expect(flags("'__fish_seen_subcommand_from \(command)'") == declared.flags[command], "\(command)")
            }
        }
    }

    @Test("the man page documents exactly the commands and flags help lists")
    func manPage() throws {
        try withScratchFolder { folder in
            let declared = try Self.declared(in: folder)
            let page = try CLI.run(["man"], in: folder).stdout
            #expect(page.contains(".TH SLICEVID 1 "))
            /// The flags of the `.TP` items between `heading` and the next heading.
            func flags(under heading: String) throws -> Set<String> {
                let start = try #require(page.range(of: "\n\(heading)\n"), "no \(heading) in the man page")
                let lines = page[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false)
                let section = lines.prefix { !$0.hasPrefix(".SS") && !$0.hasPrefix(".SH") }
                let items = zip(section, section.dropFirst()).filter { $0.0 == ".TP" }.map { $0.1 }
                return items.reduce(into: Set<String>()) { found, label in
                    // roff escapes every dash: \fB\-o\fR, \fB\-\-dry\-run\fR.
                    for match in label.matches(of: /\\fB(\\-[a-z0-9\\-]+)\\fR/) {
                        found.insert(match.output.1.replacingOccurrences(of: "\\", with: ""))
                    }
                }
            }
            let top = try flags(under: ".SH OPTIONS")
            #expect(top == declared.topFlags)
            for command in declared.commands {
                let found = try flags(under: ".SS \"slicevid \(command)\"")
                #expect(found == declared.flags[command], "\(command)")
            }
        }
    }

    @Test("bash: make --pre completes to --preset, --preset s to the presets starting with s")
    func bashPresets() throws {
        try withScratchFolder { folder in
            // A team preset in $SLICEVID_PRESETS: completion asks the binary, so it is offered too.
            let team = folder + "/team"
            try FileManager.default.createDirectory(atPath: team, withIntermediateDirectories: true)
            try writeFile(team + "/sunset.json", Data(#"{"description": "Our sunset look", "duration": 0.8}"#.utf8))
            let environment = ["SLICEVID_PRESETS": team]
            #expect(try Bash.complete(["slicevid", "make", "--pre"], in: folder) == ["--preset"])
            let listed = try CLI.run(["presets"], in: folder, environment: environment).stdout
                .split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }
            let expected = listed.filter { $0.hasPrefix("s") }
            #expect(expected.contains("sunset") && expected.contains("spring") && expected.count >= 5, "\(listed)")
            #expect(try Bash.complete(["slicevid", "make", "--preset", "s"], in: folder, environment: environment) == expected)
            #expect(try Bash.complete(["slicevid", "make", "--preset", "=", "s"], in: folder, environment: environment) == expected)
            #expect(try Bash.complete(["slicevid", "presets", "show", "sp"], in: folder) == ["spring"])
            #expect(try Bash.complete(["slicevid", "presets", ""], in: folder) == ["show"])
        }
    }

    @Test("bash completes enumerated values and files for paths")
    func bashValues() throws {
        try withScratchFolder { folder in
            try writeFile(folder + "/sunset.png", Data())
            try writeFile(folder + "/house.json", Data())
            #expect(try Bash.complete(["slicevid", "make", "--fit", ""], in: folder) == ["cover", "contain"])
            #expect(try Bash.complete(["slicevid", "make", "--direction", "h"], in: folder) == ["horizontal"])
            #expect(try Bash.complete(["slicevid", "make", "--easing", "ease-out-b"], in: folder) == ["ease-out-back", "ease-out-bounce"])
            #expect(try Bash.complete(["slicevid", "make", "--codec", "h"], in: folder) == ["h264", "hevc"])
            #expect(try Bash.complete(["slicevid", "make", "--encoder-preset", "very"], in: folder) == ["veryfast", "veryslow"])
            #expect(try Bash.complete(["slicevid", "batch", "--log-format", "p"], in: folder) == ["progress", "plain"])
            #expect(try Bash.complete(["slicevid", "make", "--from", "su"], in: folder) == ["sunset.png"])
            #expect(try Bash.complete(["slicevid", "make", "--size", ""], in: folder) == [], "free text offers nothing")
            #expect(Set(try Bash.complete(["slicevid", "make", "-o", "x.mp4", ""], in: folder)) == ["sunset.png", "house.json"])
            #expect(try Bash.complete(["slicevid", "make", "--preset", "ho"], in: folder) == ["horizontal", "house.json"])
            #expect(try Bash.complete(["slicevid", "help", "m"], in: folder) == ["make", "man"])
            #expect(try Bash.complete(["slicevid", "completions", ""], in: folder) == ["bash", "zsh", "fish"])
        }
    }
}

/// bash with `slicevid completions bash` sourced, as a shell would call it on TAB.
enum Bash {
    /// COMPREPLY for the command line `words`, the last being the word under the cursor.
    static func complete(_ words: [String], in folder: String, environment: [String: String] = [:]) throws -> [String] {
        let binaryFolder = URL(fileURLWithPath: try CLI.binary()).deletingLastPathComponent().path
        let script = try CLI.run(["completions", "bash"], in: folder).stdout
        // Outside `folder`, so that file completions there see only the test's files.
        let scriptPath = FileManager.default.temporaryDirectory.appendingPathComponent("slicevid-completion-\(UUID().uuidString).bash").path
        try writeFile(scriptPath, Data(script.utf8))
        defer { try? FileManager.default.removeItem(atPath: scriptPath) }
        let driver = #"source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _slicevid; printf '%s\n' "${COMPREPLY[@]}""#
        var variables: [String: String?] = ["PATH": binaryFolder + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
                                            "SLICEVID_PRESETS": nil]
        for (name, value) in environment { variables[name] = value }
        let result = try CLI.run(["--norc", "--noprofile", "-c", driver, "bash", scriptPath] + words, in: folder,
                                 executable: "/bin/bash", environment: variables)
        guard result.status == 0, result.stderr.isEmpty else { throw HarnessError("bash completion of \(words): \(result)") }
        return result.stdout.split(separator: "\n").map(String.init)
    }
}
