// `slicevid report merge`: four shards' reports make the one-machine run's job list, and a
// campaign that is not whole (a shard missing, a job doubled, a shard stopped, a job failed),
// reports of another campaign, and a -o that is not ours are each told apart by exit code; shards
// whose only failures are worth a retry (a server that fails for now) merge into a 75, as one run.

import Foundation
import Glibc
import SliceMedia
import StillFixtures
import Testing

@Suite(.serialized, .timeLimit(.minutes(10))) struct ReportMergeTests {
    /// Twelve tiny jobs over the three stills.
    private static var jobs: [[String: Any]] {
        (0..<12).map { index in
            ["id": "promo-\(index)", "images": ["s\(index % 3).png", "s\((index + 1) % 3).png"], "outputs": ["out/promo-\(index).mp4"]]
        }
    }

    private func object(_ path: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    }

    private func writeObject(_ object: [String: Any], to path: String) throws {
        try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys]).write(to: URL(fileURLWithPath: path))
    }

    /// A campaign run as four shards in `folder`, each with its report shard-K.json.
    private func shardedCampaign(_ folder: CampaignFolder) throws -> String {
        let manifest = try folder.campaign(jobs: Self.jobs)
        for index in 0..<4 {
            let run = try BatchCLI.run(["batch", manifest, "--shard", "\(index)/4", "--report", "shard-\(index).json"], in: folder.path)
            try #require(run.status == 0, "\(run.stderr)")
        }
        return manifest
    }

    @Test func fourShardsMergeIntoTheOneMachineRunsJobList() throws {
        let whole = try CampaignFolder(), sharded = try CampaignFolder()
        defer { whole.remove(); sharded.remove() }
        _ = try shardedCampaign(sharded)
        // The same manifest, byte for byte, in a folder of its own.
        let manifest = whole.path + "/campaign.json"
        try FileManager.default.copyItem(atPath: sharded.path + "/campaign.json", toPath: manifest)
        #expect(try BatchCLI.run(["batch", manifest, "--report", "report.json"], in: whole.path).status == 0)

        let merge = try CLI.run(["report", "merge", "shard-0.json", "shard-1.json", "shard-2.json", "shard-3.json", "-o", "whole.json"], in: sharded.path)
        #expect(merge.status == 0, "\(merge)")
        #expect(merge.stderr.contains("whole") && merge.stderr.contains("12 rendered") && merge.stderr.split(separator: "\n").count == 1, "\(merge)")
        let merged = try object(sharded.path + "/whole.json"), one = try object(whole.path + "/report.json")
        let mergedJobs = try #require(merged["jobs"] as? [[String: Any]]), oneJobs = try #require(one["jobs"] as? [[String: Any]])
        // The same jobs in the same (manifest) order, with the same fingerprints, and each once.
        #expect(mergedJobs.map { $0["id"] as? String } == oneJobs.map { $0["id"] as? String })
        #expect(mergedJobs.map { $0["index"] as? Int } == Array(0..<12))
        #expect(mergedJobs.map { $0["fingerprint"] as? String } == oneJobs.map { $0["fingerprint"] as? String })
        #expect(merged["status"] as? String == "ok" && (merged["problems"] as? [Any])?.isEmpty == true)
        #expect((merged["counts"] as? [String: Int])?["rendered"] == 12)
        #expect((merged["shards"] as? [[String: Any]])?.map { $0["shard"] as? String } == ["0/4", "1/4", "2/4", "3/4"])
        for key in ["manifest_sha256", "manifest_jobs", "manifest_ids_sha256", "schema"] {
            #expect((merged[key] as? NSObject) == (one[key] as? NSObject), "\(key)")
        }
        // And the files are the one-machine run's, byte for byte.
        for index in 0..<12 {
            let name = "/out/promo-\(index).mp4"
            #expect(try SHA256.hex(ofFileAt: sharded.path + name) == SHA256.hex(ofFileAt: whole.path + name), "\(name)")
        }
        // A merged report is a report: the next merge replaces it.
        #expect(try CLI.run(["report", "merge", "shard-0.json", "shard-1.json", "shard-2.json", "shard-3.json", "-o", "whole.json", "-q"], in: sharded.path).status == 0)
    }

    @Test func shardsReportOrphansAndTheMergeListsEachOnceWithEveryJobsWhy() throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        let manifest = try shardedCampaign(folder)
        // Two jobs leave the manifest: each shard, looking at the manifest's folders, sees their outputs.
        _ = try folder.campaign(jobs: Array(Self.jobs.prefix(10)))
        for index in 0..<2 {
            let run = try BatchCLI.run(["batch", manifest, "--shard", "\(index)/2", "--report", "half-\(index).json"], in: folder.path)
            try #require(run.status == 0, "\(run.stderr)")
        }
        let merge = try CLI.run(["report", "merge", "half-0.json", "half-1.json", "-o", "merged.json"], in: folder.path)
        #expect(merge.status == 0, "\(merge)")
        let merged = try object(folder.path + "/merged.json")
        let orphans = try #require(merged["orphans"] as? [[String: Any]])
        #expect(orphans.map { $0["path"] as? String } == ["promo-10", "promo-11"].map { "\(folder.path)/out/\($0).mp4" })
        #expect((merged["counts"] as? [String: Int])?["orphaned"] == 2 && (merged["counts"] as? [String: Int])?["pruned"] == 0)
        // Each job's object as its shard wrote it: schema 3's why and reasons come through.
        let jobs = try #require(merged["jobs"] as? [[String: Any]])
        #expect(jobs.count == 10 && jobs.allSatisfy { $0["why"] as? String == "up to date" && $0["reasons"] is [Any] })
    }

    @Test func aMissingShardAndADoubledOneAreNamed() throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        _ = try shardedCampaign(folder)
        let missing = try CLI.run(["report", "merge", "shard-0.json", "shard-1.json", "shard-3.json", "-o", "whole.json"], in: folder.path)
        #expect(missing.status == 1, "\(missing)")
        #expect(missing.stderr.contains("shard 2/4: no report"), "\(missing)")
        let merged = try object(folder.path + "/whole.json")
        #expect(merged["status"] as? String == "incomplete" && merged["missing_shards"] as? [String] == ["2/4"])

        _ = try FileManager.default.copyItem(atPath: folder.path + "/shard-1.json", toPath: folder.path + "/shard-1-again.json")
        let doubled = try CLI.run(["report", "merge", "shard-0.json", "shard-1.json", "shard-1-again.json", "shard-2.json", "shard-3.json", "-o", "whole.json"], in: folder.path)
        #expect(doubled.status == 1, "\(doubled)")
        #expect(doubled.stderr.contains("shard 1/4 is reported twice") && doubled.stderr.contains("shard-1-again.json"), "\(doubled)")
        #expect((try object(folder.path + "/whole.json")["jobs"] as? [Any])?.count == 12)
    }

    @Test func aStoppedShardAndAFailedJobMakeTheCampaignNotWhole() throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        _ = try shardedCampaign(folder)
        // A shard that a signal stopped: its report says which jobs did not finish.
        var stopped = try object(folder.path + "/shard-2.json")
        var jobs = try #require(stopped["jobs"] as? [[String: Any]])
        try #require(!jobs.isEmpty)
        jobs[0]["status"] = "interrupted"
        stopped["jobs"] = jobs
        stopped["status"] = "interrupted"
        stopped["signal"] = "SIGTERM"
        try writeObject(stopped, to: folder.path + "/shard-2.json")
        var failing = try object(folder.path + "/shard-3.json")
        var failed = try #require(failing["jobs"] as? [[String: Any]])
        failed[0]["status"] = "failed"
        failed[0]["error"] = "/x/s9.png: is truncated or corrupt"
        failing["jobs"] = failed
        try writeObject(failing, to: folder.path + "/shard-3.json")

        let merge = try CLI.run(["report", "merge", "shard-0.json", "shard-1.json", "shard-2.json", "shard-3.json", "-o", "whole.json"], in: folder.path)
        #expect(merge.status == 1, "\(merge)")
        #expect(merge.stderr.contains("shard 2/4 ('shard-2.json') was stopped by SIGTERM") && merge.stderr.contains("\(jobs[0]["id"]!)"), "\(merge)")
        #expect(merge.stderr.contains("failed: job '\(failed[0]["id"]!)': /x/s9.png: is truncated or corrupt"), "\(merge)")
    }

    @Test func shardsThatFailedOnlyForNowMergeIntoARetryAsOneRunWould() throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.path + "/served", withIntermediateDirectories: true)
        let server = try AssetServer(root: folder.path + "/served")
        defer { server.stop() }
        // Six local jobs, and one whose second still the server answers 503 for, every attempt.
        let jobs = Array(Self.jobs.prefix(6)) + [["id": "later", "images": ["s0.png", server.base + "/status/503"], "outputs": ["out/later.mp4"]]]
        let manifest = try folder.campaign(jobs: jobs)
        var exits: [Int32] = []
        for index in 0..<2 {
            let run = try BatchCLI.run(["batch", manifest, "--shard", "\(index)/2", "--report", "shard-\(index).json", "--cache", folder.path + "/cache"],
                                       in: folder.path)
            exits.append(run.status)
        }
        // The shard with "later" exits 75 for it, the other renders its jobs.
        #expect(exits.sorted() == [0, 75], "\(exits)")
        let failing = try #require(exits.firstIndex(of: 75))
        let shardReport = try object(folder.path + "/shard-\(failing).json")
        let shardJobs = try #require(shardReport["jobs"] as? [[String: Any]])
        for job in shardJobs { #expect(job["retryable"] as? Bool == (job["id"] as? String == "later"), "\(job)") }

        let merge = try CLI.run(["report", "merge", "shard-0.json", "shard-1.json", "-o", "whole.json"], in: folder.path)
        #expect(merge.status == 75, "\(merge)")
        #expect(merge.stderr.contains("failed: job 'later': \(server.base)/status/503: HTTP 503") && merge.stderr.contains("each worth a retry later"), "\(merge)")
        let merged = try object(folder.path + "/whole.json")
        #expect(merged["status"] as? String == "some-failed")
        #expect((merged["jobs"] as? [[String: Any]])?.first { $0["id"] as? String == "later" }?["retryable"] as? Bool == true)
        // Its page says the failure is temporary, on that tile alone.
        let page = try CLI.run(["report", "html", "whole.json", "-o", "-"], in: folder.path)
        #expect(page.status == 0 && page.stdout.components(separatedBy: "temporary: worth a retry").count == 2, "\(page)")

        // The field decides: the same failure marked permanent, or from a report without the
        // field, is a campaign a person must fix (1).
        func withLater(_ value: Any?, status: String = "failed") throws {
            var report = shardReport
            report["jobs"] = shardJobs.map { job in
                guard job["id"] as? String == "later" else { return job }
                var edited = job
                edited["retryable"] = value
                edited["status"] = status
                return edited
            }
            try writeObject(report, to: folder.path + "/shard-\(failing).json")
        }
        for permanent in [false, nil] as [Bool?] {
            try withLater(permanent)
            let again = try CLI.run(["report", "merge", "shard-0.json", "shard-1.json", "-o", "whole.json"], in: folder.path)
            #expect(again.status == 1 && !again.stderr.contains("each worth a retry later"), "\(String(describing: permanent)): \(again)")
        }
        // A report is input: the mark is true or false, and only on a failed job.
        let place = "jobs[\(try #require(shardJobs.firstIndex { $0["id"] as? String == "later" }))].retryable"
        for (value, status, words) in [("yes", "failed", "is 'yes'; a report holds true or false"), (1, "failed", "is 1; a report holds true or false"),
                                       (NSNull(), "failed", "is null"), (true, "rendered", "is true for a job whose status is 'rendered'")] as [(Any, String, String)] {
            try withLater(value, status: status)
            let refused = try CLI.run(["report", "merge", "shard-0.json", "shard-1.json", "-o", "whole.json"], in: folder.path)
            #expect(refused.status == 65 && refused.stderrIsOneLine && refused.stderr.contains("shard-\(failing).json': \(place) \(words)"), "\(refused)")
        }
        // A stopped shard beside a retryable failure: the campaign is incomplete, not a retry (1).
        try withLater(true)
        var other = try object(folder.path + "/shard-\(1 - failing).json")
        var otherJobs = try #require(other["jobs"] as? [[String: Any]])
        try #require(!otherJobs.isEmpty)
        otherJobs[0]["status"] = "interrupted"
        (other["jobs"], other["status"], other["signal"]) = (otherJobs, "interrupted", "SIGINT")
        try writeObject(other, to: folder.path + "/shard-\(1 - failing).json")
        let stopped = try CLI.run(["report", "merge", "shard-0.json", "shard-1.json", "-o", "whole.json"], in: folder.path)
        #expect(stopped.status == 1 && stopped.stderr.contains("was stopped by SIGINT"), "\(stopped)")
    }

    @Test func eachJobsObjectPassesThroughUnchanged() throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        let manifest = try folder.campaign(jobs: Array(Self.jobs.prefix(2)))
        #expect(try BatchCLI.run(["batch", manifest, "--report", "report.json"], in: folder.path).status == 0)
        // Fields a later report may carry (reasons, a feed's row, orphans): merge knows none of them.
        var report = try object(folder.path + "/report.json")
        var jobs = try #require(report["jobs"] as? [[String: Any]])
        let extra: [String: Any] = ["reason": ["words": "still 1 changed", "changes": [1, 2.5, true, NSNull(), "é\u{1B}"]], "row": "products.csv:7"]
        for (key, value) in extra { jobs[1][key] = value }
        report["jobs"] = jobs
        try writeObject(report, to: folder.path + "/report.json")

        let merge = try CLI.run(["report", "merge", "report.json", "-o", "-"], in: folder.path)
        #expect(merge.status == 0, "\(merge)")
        let merged = try #require(JSONSerialization.jsonObject(with: merge.stdoutData) as? [String: Any])
        let out = try #require(merged["jobs"] as? [[String: Any]])
        #expect(out.count == 2)
        // Compared as canonical JSON: Foundation on Linux finds two parsed `false`s unequal in
        // NSDictionary.isEqual, and the bytes tell true from 1 besides.
        func canonical(_ object: [String: Any]) throws -> String {
            String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
        }
        #expect(try canonical(out[1]) == canonical(jobs[1]), "\(out[1])")
        // true stays true (not 1), 2.5 stays 2.5, the escape stays an escape inside the string.
        #expect(merge.stdout.contains("true") && merge.stdout.contains("2.5") && merge.stdout.contains("\\u001b") && !merge.stdout.contains("\u{1B}"))
    }

    @Test func reportsOfAnotherCampaignVersionOrSchemaAreUsageErrors() throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        _ = try shardedCampaign(folder)
        let other = try folder.campaign(name: "other.json", jobs: Array(Self.jobs.prefix(3)))
        #expect(try BatchCLI.run(["batch", other, "--shard", "1/4", "--report", "other-1.json"], in: folder.path).status == 0)
        let mixed = try CLI.run(["report", "merge", "shard-0.json", "other-1.json", "-o", "whole.json"], in: folder.path)
        #expect(mixed.status == 64 && mixed.stderrIsOneLine && mixed.stderr.contains("different manifests") && mixed.stderr.contains("other-1.json"), "\(mixed)")

        var newer = try object(folder.path + "/shard-1.json")
        newer["slicevid"] = "9.9.9"
        try writeObject(newer, to: folder.path + "/shard-1.json")
        let versions = try CLI.run(["report", "merge", "shard-0.json", "shard-1.json", "-o", "whole.json"], in: folder.path)
        #expect(versions.status == 64 && versions.stderr.contains("different slicevid versions") && versions.stderr.contains("9.9.9"), "\(versions)")

        var old = try object(folder.path + "/shard-2.json")
        old["schema"] = nil
        try writeObject(old, to: folder.path + "/shard-2.json")
        let schema = try CLI.run(["report", "merge", "shard-2.json", "-o", "whole.json"], in: folder.path)
        #expect(schema.status == 64 && schema.stderrIsOneLine && schema.stderr.contains("schema"), "\(schema)")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/whole.json"))

        #expect(try CLI.run(["report", "merge", "shard-0.json", "shard-3.json", "-o", "merged.json"], in: folder.path).status == 1)
        let again = try CLI.run(["report", "merge", "shard-0.json", "merged.json", "-o", "whole.json"], in: folder.path)
        #expect(again.status == 64 && again.stderr.contains("merged report"), "\(again)")

        _ = try folder.write("notes.json", "{\"mine\": true}")
        let notReport = try CLI.run(["report", "merge", "shard-0.json", "notes.json", "-o", "whole.json"], in: folder.path)
        #expect(notReport.status == 65 && notReport.stderrIsOneLine && notReport.stderr.contains("notes.json"), "\(notReport)")
        let absent = try CLI.run(["report", "merge", "shard-0.json", "shard-9.json", "-o", "whole.json"], in: folder.path)
        #expect(absent.status == 66 && absent.stderr.contains("shard-9.json"), "\(absent)")
        // A job edited into a shard it does not hash to.
        var moved = try object(folder.path + "/shard-3.json")
        var jobs = try #require(moved["jobs"] as? [[String: Any]])
        // The documented mapping: the first 8 bytes of the id's SHA-256, times 4, high 64 bits.
        let shardOf = { (id: String) in Int(UInt64(SHA256.hex(of: id).prefix(16), radix: 16)!.multipliedFullWidth(by: 4).high) }
        let stranger = try #require((0..<100).map { "moved-\($0)" }.first { shardOf($0) != 3 })
        jobs[0]["id"] = stranger
        moved["jobs"] = jobs
        try writeObject(moved, to: folder.path + "/shard-3.json")
        let edited = try CLI.run(["report", "merge", "shard-3.json", "-o", "whole.json"], in: folder.path)
        #expect(edited.status == 65 && edited.stderr.contains(stranger) && edited.stderr.contains("not in shard 3/4"), "\(edited)")
    }

    @Test func theMergedReportNeverReplacesWhatIsNotAReport() throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        let manifest = try folder.campaign(jobs: Array(Self.jobs.prefix(2)))
        #expect(try BatchCLI.run(["batch", manifest, "--report", "report.json"], in: folder.path).status == 0)
        let notes = try folder.write("notes.txt", "precious")
        let refused = try CLI.run(["report", "merge", "report.json", "-o", "notes.txt"], in: folder.path)
        #expect(refused.status == 73 && refused.stderrIsOneLine && refused.stderr.contains("-o 'notes.txt'") && refused.stderr.contains("not a slicevid report"), "\(refused)")
        #expect(try String(contentsOfFile: notes, encoding: .utf8) == "precious")
        // Not even with --force: a FIFO (or a device) is never renamed over.
        #expect(mkfifo(folder.path + "/pipe", 0o644) == 0)
        let fifo = try CLI.run(["report", "merge", "report.json", "-o", "pipe", "--force"], in: folder.path)
        #expect(fifo.status == 73 && fifo.stderr.contains("FIFO"), "\(fifo)")
        var status = stat()
        #expect(lstat(folder.path + "/pipe", &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)
        // Nor one of its own inputs.
        let itself = try CLI.run(["report", "merge", "report.json", "-o", "report.json"], in: folder.path)
        #expect(itself.status == 64 && itself.stderr.contains("one of the reports"), "\(itself)")
        #expect(try CLI.run(["report", "merge", "report.json", "-o", "notes.txt", "--force"], in: folder.path).status == 0)
        #expect(folder.files(".").filter { $0.contains(".slicevid-") }.isEmpty)
    }

    @Test func batchShardAutoReadsTheSchedulerAndItsReportSaysWhich() throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        let manifest = try folder.campaign(jobs: Self.jobs)
        let slurm = ["SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "3", "SLURM_ARRAY_TASK_COUNT": "4"]
        let run = try BatchCLI.run(["batch", manifest, "--shard", "auto", "--report", "report.json"], in: folder.path, environment: slurm)
        #expect(run.status == 0, "\(run.stderr)")
        let report = try object(folder.path + "/report.json")
        #expect(report["shard"] as? String == "2/4" && report["manifest_jobs"] as? Int == 12)
        let kubernetes = try BatchCLI.run(["batch", manifest, "--shard", "auto"], in: folder.path, environment: ["JOB_COMPLETION_INDEX": "1"])
        #expect(kubernetes.status == 64 && kubernetes.stderr.split(separator: "\n").count == 1 && kubernetes.stderr.contains("JOB_COMPLETION_INDEX"), "\(kubernetes.stderr)")
        let disagree = try BatchCLI.run(["batch", manifest, "--shard", "auto/4"], in: folder.path,
                                        environment: ["JOB_COMPLETION_INDEX": "1", "CLOUD_RUN_TASK_INDEX": "3"])
        #expect(disagree.status == 64 && disagree.stderr.contains("JOB_COMPLETION_INDEX=1") && disagree.stderr.contains("CLOUD_RUN_TASK_INDEX=3"), "\(disagree.stderr)")
    }
}
