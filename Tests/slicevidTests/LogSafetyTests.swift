// Control characters from input never reach a log raw, so one event stays one line: a job id,
// a path or a value holding a newline, a carriage return or an escape sequence is printed with
// visible escapes (\n, \r, \u{1B}) by every command, in plain, progress and JSON logs alike.

import Foundation
import SliceKit
import SliceMedia
import Testing

@Suite("logs are safe", .serialized)
struct LogSafetyTests {
    /// A job id that, printed raw, would end its line, forge a "rendered" event of its own,
    /// clear the screen and colour what follows (ESC and the one-byte C1 CSI), then return.
    static let forgedID = "a\n2025-06-01T02:00:01.251Z slicevid: [9/9] forged: rendered in 0.01 s\u{1B}[2J\u{9B}31m\r\u{2028}"

    /// Characters that must never appear raw in what slicevid prints (newlines only end lines).
    static func hasRawControl(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0 != "\n" && InputText.needsEscape($0) }
    }

    /// Runs slicevid in `folder` with `environment` added; stdout and stderr as text.
    static func run(_ arguments: [String], in folder: String, environment: [String: String] = [:]) throws -> CLIResult {
        guard !environment.isEmpty else { return try CLI.run(arguments, in: folder) }
        // CLI.run passes the test's environment on; a wrapper adds to it.
        return try CLI.run(["env"] + environment.map { "\($0.key)=\($0.value)" } + [try CLI.binary()] + arguments,
                           in: folder, executable: "/usr/bin/env")
    }

    static func manifest(in folder: String, ids: [String], outputs: [String]? = nil) throws -> String {
        let still = DemoCards.destination(width: 64, height: 36)
        try StillWriter.write(still, to: folder + "/s0.png", format: .png)
        try StillWriter.write(DemoCards.source(width: 64, height: 36), to: folder + "/s1.png", format: .png)
        let jobs: [[String: Any]] = ids.enumerated().map { index, id in
            ["id": id, "images": ["s0.png", index == 1 ? "missing.png" : "s1.png"], "outputs": [outputs?[index] ?? "out\(index).mp4"]]
        }
        let defaults: [String: Any] = ["size": "64x36", "fps": 10, "hold": 0.2, "duration": 0.3, "slices": 8, "encoder-preset": "ultrafast"]
        let data = try JSONSerialization.data(withJSONObject: ["defaults": defaults, "jobs": jobs])
        try data.write(to: URL(fileURLWithPath: folder + "/campaign.json"))
        return "campaign.json"
    }

    @Test("a forged job id cannot start a line in a plain batch log, and its escapes show")
    func plainBatchLog() throws {
        try withScratchFolder { folder in
            // The second job fails (its still is missing), so the id is also in the summary.
            let manifest = try Self.manifest(in: folder, ids: [Self.forgedID, Self.forgedID + "2"])
            let run = try Self.run(["batch", manifest, "--log-format", "plain", "--parallel", "1"], in: folder)
            #expect(run.status == 1, "\(run)")
            #expect(!Self.hasRawControl(run.stderr), "\(run)")
            let lines = run.stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            // batch, rendering and rendered, failed (its still is missing before it renders),
            // the summary and its failure: every line is one event.
            #expect(lines.count == 6, "\(run)")
            #expect(lines.allSatisfy { $0.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z slicevid: .+/) != nil }, "\(run)")
            #expect(!lines.contains { $0.contains("slicevid: [9/9] forged") && !$0.contains("\\n2025") })
            let shown = #"a\n2025-06-01T02:00:01.251Z slicevid: [9/9] forged: rendered in 0.01 s\u{1B}[2J\u{9B}31m\r\u{2028}"#
            #expect(lines[1].contains("slicevid: [1/2] \(shown): rendering (new output "), "\(lines[1])")
            // The summary quotes the id as errors quote values: escaped, cut to 80 characters.
            #expect(lines.last?.contains("failed: job \(InputText.quoted(Self.forgedID + "2")): ") == true, "\(run)")
            #expect(lines.last?.contains(#"failed: job 'a\n2025-06-01T02:00:01.251Z slicevid: [9/9] forged: rendered in 0.01 s\u{1B}[2J"#) == true, "\(run)")
        }
    }

    @Test("JSON and progress logs keep the id intact but nothing raw")
    func jsonAndProgressLogs() throws {
        try withScratchFolder { folder in
            let manifest = try Self.manifest(in: folder, ids: [Self.forgedID + "\u{7F}"])
            let json = try Self.run(["batch", manifest, "--log-format", "json"], in: folder)
            #expect(json.status == 0, "\(json)")
            #expect(!Self.hasRawControl(json.stderr), "\(json)")
            let events = try json.stderr.split(separator: "\n").map { line in
                try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
            }
            #expect(events.count == 4)
            #expect(events.filter { $0["job"] != nil }.allSatisfy { $0["job"] as? String == Self.forgedID + "\u{7F}" })

            let progress = try Self.run(["batch", manifest, "--force", "--log-format", "progress"], in: folder)
            #expect(progress.status == 0, "\(progress)")
            #expect(!Self.hasRawControl(progress.stderr), "\(progress)")
            #expect(progress.stderr.split(separator: "\n").allSatisfy { $0.hasPrefix("slicevid: ") }, "\(progress)")
        }
    }

    @Test("batch --check and manifest errors escape ids")
    func checkAndErrors() throws {
        try withScratchFolder { folder in
            let manifest = try Self.manifest(in: folder, ids: ["fine", Self.forgedID])
            let check = try Self.run(["batch", "--check", manifest], in: folder)
            #expect(check.status == 1, "\(check)")
            #expect(!Self.hasRawControl(check.stderr) && check.stderr.split(separator: "\n").count == 2, "\(check)")
            // A manifest error names the job by its id, quoted and escaped.
            let broken = try Self.manifest(in: folder, ids: [Self.forgedID], outputs: ["x.avi"])
            let run = try Self.run(["batch", broken], in: folder)
            #expect(run.status == 64 && run.stderrIsOneLine && !Self.hasRawControl(run.stderr), "\(run)")
            #expect(run.stderr.contains(#"job 'a\n2025-06-01T02:00:01.251Z"#), "\(run)")
        }
    }

    @Test("make's progress, wrote, dry-run and error lines and probe escape paths")
    func makeAndProbe() throws {
        try withScratchFolder { folder in
            let name = "clip\n\u{1B}[31mred\r.mp4"
            let made = try Self.run(["make"] + tinyClip + ["-o", name], in: folder)
            #expect(made.status == 0, "\(made)")
            #expect(!Self.hasRawControl(made.stderr), "\(made)")
            let lines = made.stderr.split(separator: "\n")
            // rendering, finishing encoders, wrote, finished: each one timestamped line.
            #expect(lines.count == 4 && lines.allSatisfy { $0.wholeMatch(of: MakeLogTests.plainLine) != nil }, "\(made)")
            #expect(lines[2].contains(#"slicevid: wrote clip\n\u{1B}[31mred\r.mp4 ("#), "\(made)")
            #expect(FileManager.default.fileExists(atPath: folder + "/" + name))

            let probe = try Self.run(["probe", name], in: folder)
            #expect(probe.status == 0 && !Self.hasRawControl(probe.stdout), "\(probe)")
            #expect(probe.stdout.hasPrefix(#"clip\n\u{1B}[31mred\r.mp4: container="#) && probe.stdout.split(separator: "\n").count == 1)

            let dry = try Self.run(["make"] + tinyClip + ["-o", "other\n.mp4", "-o", "b\u{9B}.gif", "--dry-run"], in: folder)
            #expect(dry.status == 0 && !Self.hasRawControl(dry.stdout + dry.stderr), "\(dry)")
            let planned = dry.stdout.split(separator: "\n")
            #expect(planned.count == 2 && planned[0].hasPrefix(#"other\n.mp4: container="#) && planned[1].hasPrefix(#"b\u{9B}.gif: container="#), "\(dry)")

            let missing = try Self.run(["make"] + tinyClip + ["--from", "gone\n\u{1B}]0;title\u{7}.png", "--to", "x.png", "-o", "z.mp4"], in: folder)
            #expect(missing.status == 66 && missing.stderrIsOneLine && !Self.hasRawControl(missing.stderr), "\(missing)")
            let command = try Self.run(["make\n\u{1B}[2J"], in: folder)
            #expect(command.status == 64 && command.stderrIsOneLine && !Self.hasRawControl(command.stderr), "\(command)")
            let flag = try Self.run(["make", "--fps\n\u{1B}[2J"], in: folder)
            #expect(flag.status == 64 && flag.stderrIsOneLine && !Self.hasRawControl(flag.stderr), "\(flag)")
        }
    }

    @Test("presets lists file names escaped, and refuses control characters in a description")
    func presetsListing() throws {
        try withScratchFolder { folder in
            try writeFile(folder + "/evil\n\u{1B}]0;x\u{7}.json", Data(#"{"description": "fine"}"#.utf8))
            let list = try Self.run(["presets"], in: folder, environment: ["SLICEVID_PRESETS": folder])
            #expect(list.status == 0, "\(list)")
            #expect(!Self.hasRawControl(list.stdout + list.stderr), "\(list)")
            #expect(list.stdout.contains(#"evil\n\u{1B}]0;x\u{7}  fine  ("#), "\(list)")

            try writeFile(folder + "/loud.json", Data(#"{"description": "red \u001b[31m"}"#.utf8))
            let broken = try Self.run(["presets"], in: folder, environment: ["SLICEVID_PRESETS": folder])
            #expect(broken.status == 64 && broken.stderrIsOneLine && !Self.hasRawControl(broken.stderr), "\(broken)")
            #expect(broken.stderr.contains("loud.json: description: must be one line of text without control characters"), "\(broken)")
        }
    }
}
