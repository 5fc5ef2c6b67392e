// `--help` is generated from the same declarations that parse, so every flag `make` accepts
// must be listed; and the top-level command table answers unknown commands with a usage error.

import Foundation
@testable import SlicevidCLI
import Testing

@Suite("slicevid --help")
struct ArgumentParserTests {
    @Test("make --help lists every flag and exits 0", arguments: [["make", "--help"], ["make", "-h"]])
    func makeHelp(_ arguments: [String]) throws {
        try withScratchFolder { folder in
            let result = try CLI.run(arguments, in: folder)
            #expect(result.status == 0, "\(result)")
            #expect(result.stderr.isEmpty)
            #expect(result.stdout.hasPrefix("OVERVIEW: "))
            #expect(result.stdout.contains("USAGE: slicevid make"))
            // Every flag the spec declares, as help labels it (-o, --output PATH…).
            let flags = MakeCommand.spec.options.map { option in
                option.spellings.joined(separator: ", ") + (option.valueName.map { " " + $0 } ?? "")
            }
            for flag in flags { #expect(result.stdout.contains(flag), "help should list \(flag)") }
            // The exit codes a cron wrapper needs are documented there too.
            for code in [ExitCode.usage, .inputInvalid, .inputMissing, .outputBlocked, .interrupted, .terminated] {
                #expect(result.stdout.unwrapped.contains("\(code.rawValue) \(code.words)"))
            }
            #expect(FolderSnapshot(folder).entries.isEmpty, "--help must not render anything")
        }
    }

    @Test("an unknown command is a usage error")
    func unknownCommand() throws {
        try withScratchFolder { folder in
            let result = try CLI.run(["render"], in: folder)
            #expect(result.status == 64)
            #expect(result.stderrIsOneLine && result.stderr.contains("render") && result.stderr.contains("make"), "\(result)")
        }
    }
}

@Suite("exit codes")
struct ExitCodeWordsTests {
    @Test("docs/exit-codes.md's table has a row for every exit code, and nothing else")
    func documentedTable() throws {
        let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../docs/exit-codes.md").standardizedFileURL.path
        let lines = try String(contentsOfFile: page, encoding: .utf8).components(separatedBy: "\n")
        let heading = try #require(lines.firstIndex(of: "## Exit codes"))
        let rows = lines[(heading + 4)...].prefix { $0.hasPrefix("| ") }
        let documented = rows.flatMap { row in
            row.dropFirst(2).prefix { $0 != "|" }.split(separator: ",").compactMap { Int32($0.trimmingCharacters(in: .whitespaces)) }
        }
        #expect(documented == ExitCode.allCases.map(\.rawValue))
    }
}
