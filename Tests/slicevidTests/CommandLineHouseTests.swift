// The command line as a user meets it at its edges: help that fits the terminal, a mistyped flag
// answered with the one meant, usage errors in the log format asked for, and standard output
// that cannot be written reported instead of a silent 0.

import Foundation
import Testing
@testable import SliceBatch
@testable import SliceCampaign
@testable import SlicePipeline
@testable import SlicevidCLI

@Suite("the command line's edges")
struct CommandLineHouseTests {
    @Test("help wraps to 80 columns when standard output is not a terminal, each option's text hanging under its column",
          arguments: SlicevidTool.commands.map(\.name))
    func helpFits(_ command: String) throws {
        try withScratchFolder { folder in
            let help = try CLI.run([command, "--help"], in: folder)
            #expect(help.status == 0)
            // Every line, a list of curve names too (broken after its commas).
            let long = help.stdout.split(separator: "\n").filter { $0.count > 80 }
            #expect(long.isEmpty, "\(long)")
            // A continuation line starts at the option text's column, never at the left edge.
            let options = help.stdout.components(separatedBy: "\n\n").first { $0.hasPrefix("OPTIONS:") }
            for line in (options ?? "").split(separator: "\n").dropFirst() where line.prefix(while: { $0 == " " }).count > 6 {
                #expect(line.hasPrefix(String(repeating: " ", count: 12)), "\(line)")
            }
        }
        // The overview too.
        try withScratchFolder { folder in
            let overview = try CLI.run(["--help"], in: folder)
            #expect(overview.status == 0 && !overview.stdout.isEmpty)
            #expect(overview.stdout.split(separator: "\n").allSatisfy { $0.count <= 80 }, "\(overview.stdout)")
        }
        // At another width the same text wraps there.
        let narrow = try #require(SlicevidTool.command("make")).spec.help(width: 60)
        #expect(narrow.split(separator: "\n").allSatisfy { $0.count <= 60 || $0.split(separator: " ").count == 1 })
        // The same words: a list broken after a comma joins again without the space.
        let wide = try #require(SlicevidTool.command("make")).spec.help(width: 200)
        #expect(narrow.filter { !$0.isWhitespace } == wide.filter { !$0.isWhitespace })
        #expect(narrow.unwrapped.count >= wide.unwrapped.count)
    }

    @Test("a mistyped flag or command is answered with the one meant", arguments: [
        (["make", "--slice", "3"], "unknown option '--slice'; did you mean '--slices'?"),
        (["make", "--dryrun"], "unknown option '--dryrun'; did you mean '--dry-run'?"),
        (["batch", "m.json", "--shrad", "0/2"], "unknown option '--shrad'; did you mean '--shard'?"),
        (["bacth", "m.json"], "unknown command 'bacth'; did you mean 'batch'?"),
        (["make", "--frobnicate"], "unknown option '--frobnicate'; see 'slicevid make --help'"),
    ])
    func suggestions(_ arguments: [String], _ expected: String) throws {
        try withScratchFolder { folder in
            let result = try CLI.run(arguments, in: folder)
            #expect(result.status == 64 && result.stderrIsOneLine, "\(result)")
            #expect(result.stderr.contains(expected), "\(result)")
        }
    }

    @Test("under --log-format json every command line refused is one JSON error line", arguments: [
        ["batch", "m.json", "--shard", "9/2", "--log-format", "json"],
        ["batch", "m.json", "--parallel", "0", "--log-format=json"],
        ["batch", "--log-format", "json"],
        ["make", "--frobnicate", "--log-format", "json"],
        ["make", "--fps", "0", "--log-format", "json"],
        ["bogus", "--log-format", "json"],
    ])
    func jsonUsageErrors(_ arguments: [String]) throws {
        try withScratchFolder { folder in
            try writeFile(folder + "/m.json", Data(#"{"jobs": [{"id": "a", "images": ["a.png", "b.png"], "outputs": ["a.mp4"]}]}"#.utf8))
            let result = try CLI.run(arguments, in: folder)
            #expect(result.status == 64 && result.stderrIsOneLine, "\(result)")
            let object = try JSONSerialization.jsonObject(with: Data(result.stderr.utf8)) as? [String: Any]
            #expect(object?["event"] as? String == "error" && object?["exit"] as? Int == 64, "\(result)")
        }
    }

    @Test("output that cannot be written is exit 74 with one line, not 0", arguments: [
        "slicevid presets show spring > /dev/full",
        "slicevid presets > /dev/full",
        "slicevid make --preset preview -q --dry-run --json -o x.mp4 > /dev/full",
        // Without -q too: no 'dry run: would render …' line beside the error.
        "slicevid make --preset preview --dry-run -o x.mp4 > /dev/full",
        "slicevid make -q --preset preview --poster-at 0 -o a.png && slicevid probe --json a.png > /dev/full",
        "slicevid make --preset preview -o - >&-",
        // The merged report never arrived: 74 and one line, never its summary ('written to
        // stdout') nor, for a campaign that is not whole, 1.
        Self.merge(whole: true) + " > /dev/full",
        Self.merge(whole: false) + " > /dev/full",
    ])
    func outputThatCannotBeWritten(_ line: String) throws {
        try withScratchFolder { folder in
            let result = try Self.shell(line, in: folder)
            #expect(result.status == 74 && result.stderrIsOneLine, "\(line): \(result)")
            #expect(result.stderr.contains("standard output"), "\(result)")
            #expect(leftovers(in: folder).isEmpty)
        }
    }

    /// A shell line: a one-job campaign (whose job fails unless `whole`), its report, then
    /// `report merge` of it to standard output.
    private static func merge(whole: Bool) -> String {
        let images = whole ? #"["a.png", "a.png"]"# : #"["a.png", "missing.png"]"#
        return "slicevid make -q --preset preview --poster-at 0 -o a.png && printf '%s' '{\"defaults\": {\"size\": \"32x18\", \"hold\": 0, "
            + "\"duration\": 0.2}, \"jobs\": [{\"id\": \"j\", \"images\": \(images), \"outputs\": [\"o.png\"]}]}' > m.json && "
            + "{ slicevid batch -q m.json --report r.json 2>/dev/null; slicevid report merge r.json -o -; }"
    }

    @Test("a reader that goes away early ends slicevid quietly with 141, as it does other tools")
    func readerGoneAway() throws {
        try withScratchFolder { folder in
            // Enough lines that the first 10 bytes are read long before the last is written.
            let line = "slicevid make -q --preset preview --poster-at 0 -o a.png && slicevid probe --json \(Array(repeating: "a.png", count: 400).joined(separator: " ")) | head -c 10"
            let result = try Self.shell(line + "; exit ${PIPESTATUS[0]}", in: folder)
            #expect(result.status == 141 && result.stderr.isEmpty, "\(result)")
        }
    }

    @Test("the default render threads are the cores, at most 64: a 96-core server's plain make is not refused")
    func defaultRenderThreads() throws {
        #expect(MakeRequest.defaultRenderThreads(cores: 96) == 64)
        #expect(MakeRequest.defaultRenderThreads(cores: 2) == 2 && MakeRequest.defaultRenderThreads(cores: 0) == 1)
        // A batch's per-job threads, shared out of 96 cores, stay within range too.
        try withScratchFolder { folder in
            try writeFile(folder + "/m.json", Data(#"{"jobs": [{"id": "a", "images": ["a.png", "b.png"], "outputs": ["a.mp4"]}]}"#.utf8))
            let manifest = try Manifest.load(path: folder + "/m.json") { _ throws(SlicevidError) in throw SlicevidError(.usage, "no presets") }
            let request = try BatchRequest(manifest: manifest, version: "test", threads: try ThreadBudget(cores: 96))
            #expect(request.renderThreads == 64 && request.parallel == 1)
            _ = try request.selectedJobs[0].request(renderThreads: request.renderThreads)
        }
    }

    /// Runs `line` with bash in `folder`, the built slicevid first on PATH.
    static func shell(_ line: String, in folder: String) throws -> CLIResult {
        let path = URL(fileURLWithPath: try CLI.binary()).deletingLastPathComponent().path + ":/usr/bin:/bin"
        return try CLI.run(["--norc", "--noprofile", "-c", line], in: folder, executable: "/bin/bash", environment: ["PATH": path])
    }
}
