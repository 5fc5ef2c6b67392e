// `slicevid make a b c` and `slicevid batch` as a user runs them: the built binary in a
// subprocess, with tiny stills made by StillWriter and outputs checked with MediaReader.

import Foundation
import SliceKit
import SliceMedia
import Testing

@Suite(.serialized, .timeLimit(.minutes(10))) struct BatchCLITests {
    // MARK: Sequences

    @Test func fourImagesMakeOneReel() throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        let stills = try (0..<4).map { try folder.still("s\($0).png", index: $0) }
        let run = try BatchCLI.run(["make"] + stills + ["-o", "reel.mp4"] + BatchCLI.tinyFlags, in: folder.path)
        #expect(run.status == 0, "\(run.stderr)")
        // Three transitions of 6 frames, the two shared images shown once.
        #expect(try MediaReader.info(path: folder.path + "/reel.mp4").frameCount == 16)

        let mixed = try BatchCLI.run(["make", stills[0], stills[1], "--from", stills[2], "--to", stills[3], "-o", "mixed.mp4"], in: folder.path)
        #expect(mixed.status == 64)
        #expect(mixed.stderr.split(separator: "\n").count == 1 && mixed.stderr.contains("--from"))
        let single = try BatchCLI.run(["make", stills[0], "-o", "single.mp4"], in: folder.path)
        #expect(single.status == 64)
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/mixed.mp4"))
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/single.mp4"))
    }

    // MARK: Failures, reports, re-runs

    @Test func aBrokenJobFailsAloneWithExitOne() throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        let manifest = try folder.campaign(jobs: [
            ["id": "first", "images": ["s0.png", "s1.png"], "outputs": ["out/first.mp4"]],
            ["id": "corrupt", "images": ["s0.png", "corrupt.png"], "outputs": ["out/corrupt.mp4"]],
            ["id": "unwritable", "images": ["s1.png", "s2.png"], "outputs": ["corrupt.png/x.mp4"]],
            ["id": "reel", "images": ["s0.png", "s1.png", "s2.png"], "outputs": ["out/reel.mp4"]],
        ])
        let run = try BatchCLI.run(["batch", manifest, "--report", "report.json"], in: folder.path)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains("failed: job 'corrupt': ") && run.stderr.contains("corrupt.png"))
        #expect(run.stderr.contains("failed: job 'unwritable': ") && run.stderr.contains("corrupt.png is not a folder"))

        let report = try folder.report()
        #expect(report.statuses == ["first": "rendered", "corrupt": "failed", "unwritable": "failed", "reel": "rendered"])
        #expect(report.status == "some-failed")
        #expect(report.jobs["corrupt"]?["error"] as? String != nil)
        let output = try #require((report.jobs["reel"]?["outputs"] as? [[String: Any]])?.first)
        #expect(output["seconds"] as? Double == 1.1)
        #expect((output["bytes"] as? Int ?? 0) > 0)
        #expect(try MediaReader.info(path: folder.path + "/out/first.mp4").frameCount == 6)
        #expect(try MediaReader.info(path: folder.path + "/out/reel.mp4").frameCount == 11)
        #expect(folder.leftovers().isEmpty)

        let allBroken = try folder.campaign(name: "broken.json", jobs: [
            ["id": "corrupt", "images": ["s0.png", "corrupt.png"], "outputs": ["out/c.mp4"]],
            ["id": "absent", "images": ["s0.png", "absent.png"], "outputs": ["out/a.mp4"]],
        ])
        #expect(try BatchCLI.run(["batch", allBroken], in: folder.path).status == 2)
    }

    @Test func aReRunSkipsEverythingAndATouchedStillReRendersOnlyItsJob() throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        let manifest = try folder.campaign(jobs: (0..<4).map { index in
            ["id": "job\(index)", "images": ["s\(index % 3).png", "s\((index + 1) % 3).png"], "outputs": ["out/job\(index).mp4"]]
        } + [["id": "own", "images": ["s0.png", "own.png"], "outputs": ["out/own.mp4"]]])
        try folder.still("own.png", index: 5)
        #expect(try BatchCLI.run(["batch", manifest], in: folder.path).status == 0)
        let inode = try folder.inode("out/job0.mp4")

        let again = try BatchCLI.run(["batch", manifest, "--report", "report.json"], in: folder.path)
        #expect(again.status == 0)
        #expect(Set(try folder.report().statuses.values) == ["skipped"])
        #expect(try folder.inode("out/job0.mp4") == inode)

        try folder.still("own.png", index: 6)
        #expect(try BatchCLI.run(["batch", manifest, "--report", "report.json"], in: folder.path).status == 0)
        let statuses = try folder.report().statuses
        #expect(statuses["own"] == "rendered")
        #expect(statuses.filter { $0.value == "skipped" }.count == 4)

        #expect(try BatchCLI.run(["batch", manifest, "--force", "--report", "report.json"], in: folder.path).status == 0)
        #expect(Set(try folder.report().statuses.values) == ["rendered"])
    }

    // MARK: Cron safety

    @Test func anOverlappingRunExitsSeventyFiveAtOnce() throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        // 12 jobs of about 0.1 s: the first run holds the lock for a second or so.
        let manifest = try folder.campaign(jobs: BatchCLI.slowJobs(12), defaults: BatchCLI.slowDefaults)
        let first = try BatchCLI.launch(["batch", manifest, "-j", "1"], in: folder.path)
        // The holder's pid, space-padded to a fixed width (the lock file is never truncated).
        try BatchCLI.waitUntil {
            (try? String(contentsOfFile: folder.path + "/.campaign.json.lock", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) == "\(first.processIdentifier)"
        }
        // Frozen while holding the lock, so the second run meets it for certain: the lock is
        // cleared on release, so the pid still in it, the run frozen, means it is held.
        kill(first.processIdentifier, SIGSTOP)
        try #require(first.isRunning && (try? String(contentsOfFile: folder.path + "/.campaign.json.lock", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines) == "\(first.processIdentifier)", "the first run ended before the second started")
        let second = try BatchCLI.run(["batch", manifest], in: folder.path)
        kill(first.processIdentifier, SIGCONT)
        first.waitUntilExit()
        #expect(second.status == 75)
        #expect(second.stderr.contains("pid \(first.processIdentifier)"))
        #expect(second.stderr.split(separator: "\n").count == 1)
        #expect(first.terminationStatus == 0)
        #expect(folder.files("out").filter { $0.hasSuffix(".mp4") }.count == 12)
    }

    @Test func sigtermMidBatchKeepsFinishedJobsAndWritesTheReport() throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        // 40 jobs of about 0.1 s: some are still pending when the signal comes.
        let manifest = try folder.campaign(jobs: BatchCLI.slowJobs(40), defaults: BatchCLI.slowDefaults)
        let run = try BatchCLI.launch(["batch", manifest, "-j", "1", "--report", "report.json"], in: folder.path)
        try BatchCLI.waitUntil { FileManager.default.fileExists(atPath: folder.path + "/out/slow0.mp4") }
        kill(run.processIdentifier, SIGSTOP)
        try #require(run.isRunning, "the batch ended before it could be interrupted")
        kill(run.processIdentifier, SIGTERM)
        kill(run.processIdentifier, SIGCONT)
        run.waitUntilExit()
        #expect(run.terminationStatus == 143)

        let report = try folder.report()
        #expect(report.status == "interrupted")
        #expect(report.statuses["slow0"] == "rendered")
        #expect(report.statuses.values.contains("pending"))
        #expect(!report.statuses.values.contains("failed"))
        // Nothing half-written: every video present is complete and vouched for by its sidecar.
        #expect(folder.leftovers().isEmpty)
        let videos = folder.files("out").filter { $0.hasSuffix(".mp4") }
        #expect(videos.count == report.statuses.values.filter { $0 == "rendered" }.count)
        for video in videos {
            #expect(try MediaReader.info(path: folder.path + "/out/" + video).frameCount == 11)
            #expect(folder.files("out").contains("." + video + ".slicevid.json"))
        }
    }

    // MARK: Shards and bad input

    @Test func shardsZeroToNMinusOnePartitionTheJobs() throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        let ids = (0..<9).map { "promo-\($0)" }
        let manifest = try folder.campaign(jobs: ids.map { ["id": $0, "images": ["s0.png", "s1.png"], "outputs": ["out/\($0).mp4"]] })
        var seen: [String] = []
        for k in 0..<3 {
            let run = try BatchCLI.run(["batch", manifest, "--shard", "\(k)/3", "--report", "report.json"], in: folder.path)
            #expect(run.status == 0, "\(run.stderr)")
            seen += try folder.report().statuses.keys
        }
        #expect(seen.sorted() == ids.sorted())
        #expect(folder.files("out").filter { $0.hasSuffix(".mp4") }.count == 9)

        // auto/N takes K from the scheduler's variable: the same jobs as 1/3.
        #expect(try BatchCLI.run(["batch", manifest, "--shard", "1/3", "--report", "report.json"], in: folder.path).status == 0)
        let explicit = try folder.report().statuses.keys.sorted()
        let auto = try BatchCLI.run(["batch", manifest, "--shard", "auto/3", "--report", "report.json"], in: folder.path,
                               environment: ["SLURM_ARRAY_TASK_ID": "1"])
        #expect(auto.status == 0)
        #expect(try folder.report().statuses.keys.sorted() == explicit)
        for spec in ["3/2", "0/0", "a/b", "-1/2", "auto/3"] {
            let bad = try BatchCLI.run(["batch", manifest, "--shard", spec], in: folder.path)
            #expect(bad.status == 64, "\(spec)")
            #expect(bad.stderr.split(separator: "\n").count == 1)
        }
    }

    @Test func badManifestsExitSixtyFourBeforeAnythingRenders() throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        let good: [String: Any] = ["id": "good", "images": ["s0.png", "s1.png"], "outputs": ["out/good.mp4"]]
        let cases: [(manifest: String, error: String)] = [
            (try folder.campaign(name: "dup.json", jobs: [good, ["id": "b", "images": ["s0.png", "s1.png"], "outputs": ["out/good.mp4"]]]),
             "job 'b': outputs: "),
            (try folder.campaign(name: "one.json", jobs: [good, ["id": "lonely", "images": ["s0.png"], "outputs": ["out/l.mp4"]]]),
             "job 'lonely': images: "),
            (try folder.campaign(name: "unknown.json", jobs: [good.merging(["colour": "red"]) { $1 }]), "job 'good': colour: unknown field"),
            (try folder.campaign(name: "twice.json", jobs: [good, good.merging(["outputs": "out/other.mp4"]) { $1 }]), "job 'good': id: "),
            (try folder.write("malformed.json", "{\"jobs\": [}"), "line 1, column 11: unexpected '}'"),
        ]
        for (manifest, error) in cases {
            let run = try BatchCLI.run(["batch", manifest], in: folder.path)
            #expect(run.status == 64, "\(error)")
            #expect(run.stderr.hasPrefix("slicevid: error: \(manifest): \(error)"), "got: \(run.stderr)")
            #expect(run.stderr.split(separator: "\n").count == 1)
        }
        #expect(folder.files("out").isEmpty)
    }

    @Test func checkFindsEveryProblemWithoutRendering() throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        let manifest = try folder.campaign(jobs: [
            ["id": "fine", "images": ["s0.png", "s1.png"], "outputs": ["out/fine.mp4", "out/fine-%03d.png"]],
            ["id": "corrupt", "images": ["s0.png", "corrupt.png"], "outputs": ["out/c.mp4"]],
            ["id": "nowhere", "images": ["s0.png", "s1.png"], "outputs": ["corrupt.png/n.mp4"]],
            ["id": "new-folder", "images": ["s0.png", "s1.png"], "outputs": ["new/deeper/n.mp4"]],
        ])
        let run = try BatchCLI.run(["batch", "--check", manifest], in: folder.path)
        #expect(run.status == 1)
        #expect(run.stderr.contains("job 'corrupt': ") && run.stderr.contains("corrupt.png"))
        #expect(run.stderr.contains("job 'nowhere': ") && run.stderr.contains("corrupt.png is not a folder"))
        #expect(!run.stderr.contains("job 'fine'"))
        // A missing folder is no problem: a run creates it, and --check says so.
        #expect(run.stderr.contains("campaign.json: would create folder \(folder.path)/new\n"), "\(run.stderr)")
        #expect(run.stderr.contains("campaign.json: would create folder \(folder.path)/new/deeper\n"))
        #expect(folder.files("out").isEmpty && !FileManager.default.fileExists(atPath: folder.path + "/new"))
    }

    @Test func logsAreTimestampedLinesOrJSONLines() throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        let manifest = try folder.campaign(jobs: [["id": "a", "images": ["s0.png", "s1.png"], "outputs": ["out/a.mp4"]]])
        let plain = try BatchCLI.run(["batch", manifest], in: folder.path)
        let lines = plain.stderr.split(separator: "\n")
        #expect(!lines.isEmpty)
        #expect(lines.allSatisfy { $0.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z slicevid: .+/) != nil })

        let json = try BatchCLI.run(["batch", manifest, "--force", "--log-format", "json"], in: folder.path)
        let events = try json.stderr.split(separator: "\n").map { line in
            try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        #expect(events.map { $0["event"] as? String } == ["batch-started", "job-rendering", "job-finished", "batch-finished"])
        #expect(events.allSatisfy { $0["time"] is String })
        #expect(events[2]["status"] as? String == "rendered")
    }
}

// MARK: - Helpers

/// Runs the `slicevid` built next to this test binary.
enum BatchCLI {
    /// The test bundle and the executable are built into the same folder.
    static var binary: String { get throws { try CLI.binary() } }

    /// `make` flags for a tiny clip: 64x36, 10 fps, 0.2 s hold, 0.3 s transition.
    static let tinyFlags = ["--size", "64x36", "--fps", "10", "--hold", "0.2", "--duration", "0.3", "--slices", "8",
                            "--encoder-preset", "ultrafast"]

    /// Settings for jobs that take a noticeable moment each, for the lock and signal tests.
    static var slowDefaults: [String: Any] {
        ["size": "640x360", "fps": 10, "hold": 0.2, "duration": 0.3, "end-hold": 0.5, "encoder-preset": "ultrafast"]
    }

    static func slowJobs(_ count: Int) -> [[String: Any]] {
        (0..<count).map { ["id": "slow\($0)", "images": ["s0.png", "s1.png"], "outputs": ["out/slow\($0).mp4"]] }
    }

    /// What `--shard auto` reads: a test run under a scheduler must not see its own.
    static let schedulerVariables = ["JOB_COMPLETION_INDEX", "SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT", "SLURM_ARRAY_TASK_MIN",
                                     "SLURM_ARRAY_TASK_MAX", "AWS_BATCH_JOB_ARRAY_INDEX", "AWS_BATCH_JOB_ARRAY_SIZE",
                                     "CLOUD_RUN_TASK_INDEX", "CLOUD_RUN_TASK_COUNT"]

    /// Starts `slicevid arguments` in `folder`; stderr goes to `log` (a file there).
    static func launch(_ arguments: [String], in folder: String, environment: [String: String] = [:],
                       log: String = "stderr.log") throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try binary)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        process.environment = ProcessInfo.processInfo.environment.filter { !schedulerVariables.contains($0.key) }
            .merging(environment) { $1 }
        _ = FileManager.default.createFile(atPath: folder + "/" + log, contents: nil)
        process.standardError = FileHandle(forWritingAtPath: folder + "/" + log)
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Runs `slicevid arguments` in `folder` to the end.
    static func run(_ arguments: [String], in folder: String,
                    environment: [String: String] = [:]) throws -> (status: Int32, stderr: String) {
        let log = "stderr-\(UUID().uuidString).log"
        let process = try launch(arguments, in: folder, environment: environment, log: log)
        process.waitUntilExit()
        defer { try? FileManager.default.removeItem(atPath: folder + "/" + log) }
        return (process.terminationStatus, (try? String(contentsOfFile: folder + "/" + log, encoding: .utf8)) ?? "")
    }

    /// Runs `body` with SIGINT and SIGTERM unblocked in this thread, then puts its mask back:
    /// a child started meanwhile inherits that mask.
    static func withStopSignalsUnblocked<T>(_ body: () throws -> T) rethrows -> T {
        var stop = sigset_t(), previous = sigset_t()
        sigemptyset(&stop)
        sigaddset(&stop, SIGINT)
        sigaddset(&stop, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &stop, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        return try body()
    }

    /// Polls `condition` (a state: a file, a process's signal mask) every 10 ms. The bound,
    /// 10 minutes, only turns a hang into a failure.
    static func waitUntil(_ condition: () throws -> Bool) throws {
        for _ in 0..<60_000 {
            if try condition() { return }
            usleep(10_000)
        }
        Issue.record("timed out waiting")
    }
}

/// A scratch campaign folder with stills s0–s2.png, a corrupt.png, an out/ folder and manifests.
struct CampaignFolder {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "slicevid-cli-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path + "/out", withIntermediateDirectories: true)
        for index in 0..<3 { try still("s\(index).png", index: index) }
        try write("corrupt.png", "\u{89}PNG\r\n\u{1A}\ntruncated")
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }

    /// A 64x36 PNG of one colour, distinct for each `index` (these tests check runs, not pixels).
    @discardableResult
    func still(_ name: String, index: Int) throws -> String {
        let color = RGBAColor(red: UInt8(index * 70 % 256), green: UInt8(200 - index * 25 % 200), blue: UInt8(index * 37 % 256))
        try StillWriter.write(RGBAImage(width: 64, height: 36, color: color), to: path + "/" + name, format: .png)
        return path + "/" + name
    }

    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path + "/" + name))
        return path + "/" + name
    }

    /// Writes a manifest with tiny-clip defaults (or `defaults`) and `jobs`.
    func campaign(name: String = "campaign.json", jobs: [[String: Any]], defaults: [String: Any]? = nil) throws -> String {
        let tiny: [String: Any] = ["size": "64x36", "fps": 10, "hold": 0.2, "duration": 0.3, "slices": 8, "encoder-preset": "ultrafast"]
        let data = try JSONSerialization.data(withJSONObject: ["defaults": defaults ?? tiny, "jobs": jobs], options: [.prettyPrinted])
        return try write(name, String(decoding: data, as: UTF8.self))
    }

    /// Files in a subfolder, hidden ones included.
    func files(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path + "/" + folder)) ?? []).sorted()
    }

    /// Temporary files a render would leave if it were not atomic.
    func leftovers() -> [String] {
        files("out").filter { $0.hasSuffix(".partial") || $0.contains(".slicevid-") }
    }

    func inode(_ file: String) throws -> Int? {
        try FileManager.default.attributesOfItem(atPath: path + "/" + file)[.systemFileNumber] as? Int
    }

    /// The `report.json` of the last run.
    func report() throws -> (status: String?, statuses: [String: String], jobs: [String: [String: Any]]) {
        let data = try Data(contentsOf: URL(fileURLWithPath: path + "/report.json"))
        let object = try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
        let jobs = try #require(object["jobs"] as? [[String: Any]])
        var byId: [String: [String: Any]] = [:]
        for job in jobs { byId[job["id"] as? String ?? ""] = job }
        return (object["status"] as? String, byId.mapValues { $0["status"] as? String ?? "" }, byId)
    }
}
