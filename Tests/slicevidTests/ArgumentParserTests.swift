// `--help` is generated from the same declarations that parse, so every flag `make` accepts
// must be listed; and the top-level command table answers unknown commands with a usage error.

import Foundation
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
            let flags = ["--from IMAGE", "--to IMAGE", "-o, --output PATH", "--preset NAME|FILE", "--size WxH", "--fps RATE",
                         "--hold SECONDS", "--duration SECONDS", "--end-hold SECONDS", "--slices N", "--direction AXIS",
                         "--travel MIN,MAX", "--easing CURVE", "--seed N", "--background #RRGGBB", "--fit MODE", "--crf N",
                         "--encoder-preset NAME", "-j, --jobs N", "-f, --force", "-q, --quiet", "-v, --verbose", "-h, --help"]
            for flag in flags { #expect(result.stdout.contains(flag), "help should list \(flag)") }
            // The exit codes a cron wrapper needs are documented there too.
            for code in ["64", "65", "66", "73", "130", "143"] { #expect(result.stdout.contains(code)) }
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
