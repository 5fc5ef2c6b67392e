// Records and reports slicevid reads back are input: a sidecar with a number no real one holds,
// shard reports claiming a billion jobs, a report page's input with sizes past any file, and an
// output at another job's poster path are each refused in one line with their exit code —
// never a crash (132/134), a hang or a runaway.

import Foundation
import Glibc
import Testing

@Suite(.serialized, .timeLimit(.minutes(10))) struct HostileRecordsTests {
    private func object(_ path: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    }

    private func write(_ object: [String: Any], to path: String) throws {
        try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys]).write(to: URL(fileURLWithPath: path))
    }

    @Test func aSequenceSidecarWithFramesNoRealOneHoldsIsRefusedInOneLineByEveryCommand() throws {
        // `"frames": -1` (or 2³¹, 1e12) crashed batch, --plan and --check; 2⁶³−1 hung; as an orphan, every run.
        let folder = try CampaignFolder()
        defer { folder.remove() }
        let job: [String: Any] = ["id": "seq", "images": ["s0.png", "s1.png"], "outputs": ["out/seq/%03d.png"]]
        let manifest = try folder.campaign(jobs: [job])
        try #require(try BatchCLI.run(["batch", manifest], in: folder.path).status == 0)
        let sidecar = folder.path + "/out/seq/.%03d.png.slicevid.json"
        let real = try object(sidecar)
        let frames = try #require(real["frames"] as? Int)
        let before = folder.files("out/seq").filter { !$0.hasPrefix(".") }
        for value in ["-1", "2147483648", "1e12", "9223372036854775807"] {
            let text = try String(contentsOfFile: sidecar, encoding: .utf8)
            try Data(text.replacingOccurrences(of: "\"frames\" : \(frames)", with: "\"frames\" : \(value)").utf8).write(to: URL(fileURLWithPath: sidecar))
            #expect(try String(contentsOfFile: sidecar, encoding: .utf8).contains("\"frames\" : \(value)"))
            let plan = try CLI.run(["batch", manifest, "--plan"], in: folder.path, timeout: 60)
            #expect(!plan.signalled && plan.status == 2 && plan.stderr.contains("job 'seq': refused: "), "\(value): \(plan)")
            #expect(plan.stderr.contains("its sidecar '\(sidecar)' licenses nothing: it is not a record slicevid writes (frames is '"), "\(plan)")
            let check = try CLI.run(["batch", manifest, "--check"], in: folder.path, timeout: 60)
            #expect(!check.signalled && [1, 2].contains(check.status) && check.stderr.contains("licenses nothing"), "\(value): \(check)")
            let run = try CLI.run(["batch", manifest, "--log-format", "plain"], in: folder.path, timeout: 60)
            #expect(!run.signalled && run.status == 2 && run.stderr.contains("licenses nothing"), "\(value): \(run)")
            #expect(folder.files("out/seq").filter { !$0.hasPrefix(".") } == before)
            try Data(text.utf8).write(to: URL(fileURLWithPath: sidecar))
        }
        // Left as an orphan of the manifest, it is listed as kept, every run, and never deleted.
        try write(real.merging(["frames": 9_223_372_036_854_775_807 as Int]) { $1 }, to: sidecar)
        _ = try folder.campaign(jobs: [["id": "other", "images": ["s0.png", "s1.png"], "outputs": ["out/seq/other.mp4"]]])
        for flags in [["--plan"], ["--check"], ["--prune"], []] {
            let run = try CLI.run(["batch", manifest] + flags, in: folder.path, timeout: 60)
            #expect(!run.signalled && run.status == 0, "\(flags): \(run)")
            #expect(run.stderr.contains("it is not a record slicevid writes (frames is '9223372036854775807'"), "\(flags): \(run)")
        }
        #expect(folder.files("out/seq").filter { !$0.hasPrefix(".") && $0 != "other.mp4" } == before)
    }

    @Test func shardReportsAndReportPagesWithNumbersNoRealReportHoldsAreRefusedInOneLine() throws {
        // Two real shard reports whose manifest_jobs said 1e9 made merge die after 40 s at 4.2 GB.
        let folder = try CampaignFolder()
        defer { folder.remove() }
        let manifest = try folder.campaign(jobs: (0..<3).map { ["id": "j\($0)", "images": ["s0.png", "s1.png"], "outputs": ["out/j\($0).jpg"]] })
        for index in 0..<2 {
            try #require(try BatchCLI.run(["batch", manifest, "--shard", "\(index)/2", "--report", "shard-\(index).json"], in: folder.path).status == 0)
        }
        let shards = try (0..<2).map { try object(folder.path + "/shard-\($0).json") }
        func hostile(_ change: (inout [String: Any]) -> Void) throws {
            for (index, shard) in shards.enumerated() {
                var edited = shard
                change(&edited)
                try write(edited, to: folder.path + "/shard-\(index).json")
            }
        }
        let merge = ["report", "merge", "shard-0.json", "shard-1.json", "-o", "-"]
        try hostile { $0["manifest_jobs"] = 1_000_000_000 }
        let started = ContinuousClock.now
        let billion = try CLI.run(merge, in: folder.path, timeout: 60)
        #expect(billion.status == 65 && billion.stderrIsOneLine, "\(billion)")
        #expect(billion.stderr.contains("'shard-0.json': manifest_jobs is '1000000000'; a report holds a whole number 0…100000"), "\(billion)")
        #expect(ContinuousClock.now - started < .seconds(30), "refused only after a long while")
        for (field, value) in [("seconds", 1e300 as Any), ("manifest_jobs", -1 as Any), ("shard", "0/99999999999999999999" as Any)] {
            try hostile { $0[field] = value }
            let refused = try CLI.run(merge, in: folder.path, timeout: 60)
            #expect(!refused.signalled && [64, 65].contains(refused.status) && refused.stderrIsOneLine, "\(field): \(refused)")
        }
        // A job's numbers, read by report html: an index, sizes and lengths past any real one.
        try hostile { _ in }
        for (key, value) in [("index", 1e18 as Any), ("seconds", -5 as Any)] {
            var report = shards[0]
            var jobs = try #require(report["jobs"] as? [[String: Any]])
            jobs[0][key] = value
            report["jobs"] = jobs
            try write(report, to: folder.path + "/edited.json")
            let page = try CLI.run(["report", "html", "edited.json", "-o", "-"], in: folder.path, timeout: 60)
            #expect(page.status == 65 && page.stderrIsOneLine && page.stderr.contains("jobs[0].\(key) is "), "\(key): \(page)")
        }
        var report = shards[0]
        var jobs = try #require(report["jobs"] as? [[String: Any]])
        var outputs = try #require(jobs[0]["outputs"] as? [[String: Any]])
        outputs[0]["bytes"] = 1e30
        jobs[0]["outputs"] = outputs
        report["jobs"] = jobs
        try write(report, to: folder.path + "/edited.json")
        let page = try CLI.run(["report", "html", "edited.json", "-o", "-"], in: folder.path, timeout: 60)
        #expect(page.status == 65 && page.stderrIsOneLine && page.stderr.contains("jobs[0].outputs[0].bytes is '"), "\(page)")
        #expect(page.stderr.contains("a report holds a whole number 0…9007199254740992"), "\(page)")
        // A report of more jobs than a manifest can have is no report.
        report = shards[0]
        report["jobs"] = Array(repeating: ["id": "x", "status": "skipped"], count: 100_001)
        try write(report, to: folder.path + "/edited.json")
        let many = try CLI.run(["report", "html", "edited.json", "-o", "-"], in: folder.path, timeout: 60)
        #expect(many.status == 65 && many.stderr.contains("jobs holds 100001 entries; a report holds at most 100000"), "\(many)")
    }

    @Test func anOutputAtAnotherJobsPosterPathIsRefusedBeforeAnythingRenders() throws {
        // Accepted before, and every re-run rendered it again with a false reason.
        let folder = try CampaignFolder()
        defer { folder.remove() }
        let manifest = try folder.campaign(jobs: [
            ["id": "A", "images": ["s0.png", "s1.png"], "outputs": ["out/A.mp4"]],
            ["id": "B", "images": ["s1.png", "s2.png"], "outputs": ["p.files/A.jpg"]],
        ])
        let run = try CLI.run(["batch", manifest, "--report", "p.html"], in: folder.path)
        #expect(run.status == 64 && run.stderrIsOneLine, "\(run)")
        #expect(run.stderr.contains("campaign.json: job 'B': outputs: \(folder.path)/p.files/A.jpg is the poster --report 'p.html' makes for job 'A'"), "\(run)")
        #expect(folder.files("out").isEmpty && !FileManager.default.fileExists(atPath: folder.path + "/p.files"))
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/p.html") && !FileManager.default.fileExists(atPath: folder.path + "/p.json"))
        // Another page name, or a job that shows its own picture (no poster), is fine.
        let other = try BatchCLI.run(["batch", manifest, "--report", "q.html"], in: folder.path)
        #expect(other.status == 0, "\(other)")
    }

    @Test func anOutputWhoseSidecarProvesNothingIsNotCalledNew() throws {
        // In a folder others may write, slicevid's own sidecar proves nothing: the job renders
        // again and may not replace the file. The log (and --plan --force) said "new output" of
        // a file that was there; they say why its sidecar does not count.
        let folder = try CampaignFolder()
        defer { folder.remove() }
        let manifest = try folder.campaign(jobs: [["id": "a", "images": ["s0.png", "s1.png"], "outputs": ["out/a.jpg"]]])
        #expect(try CLI.run(["batch", manifest], in: folder.path).status == 0)
        #expect(chmod(folder.path + "/out", 0o1777) == 0)
        let plan = try CLI.run(["batch", manifest, "--plan"], in: folder.path)
        let sidecarSays = "\(folder.path)/out/a.jpg: its sidecar licenses nothing: other users may write to its folder (mode 1777)"
        #expect(plan.status == 2 && plan.stderr.contains("job 'a': refused: ") && !plan.stderr.contains("new output"), "\(plan)")
        let forced = try CLI.run(["batch", manifest, "--plan", "--force"], in: folder.path)
        #expect(forced.stderr.contains("job 'a': will render: ") && !forced.stderr.contains("new output"), "\(forced)")
        let run = try CLI.run(["batch", manifest, "--log-format", "plain"], in: folder.path)
        #expect(run.status == 2 && run.stderr.contains("a: rendering (\(sidecarSays))") && !run.stderr.contains("new output"), "\(run)")
    }
}
