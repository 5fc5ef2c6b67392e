// What a batch run did, job by job: the summary a user reads, the exit status a scheduler
// reads, and the `--report` JSON a pipeline reads.

import Foundation
import SliceCampaign
import SliceKit
import SlicePipeline

/// What became of one job.
public enum JobStatus: String, Sendable, CaseIterable {
    /// Its outputs were rendered and committed (with their sidecars).
    case rendered
    /// Every output already existed with a matching fingerprint; nothing was decoded.
    case skipped
    /// It could not be rendered (input missing or corrupt, output not writable, …); its
    /// earlier outputs, if any, are untouched.
    case failed
    /// A signal stopped it mid-render; nothing of it was written.
    case interrupted
    /// A signal stopped the run before it started.
    case pending
}

/// One output of a job, and what its sidecar says about it when it exists.
package struct OutputResult: Sendable {
    package var path: String
    /// Size, length and fingerprint; nil when the output was not written (or not re-checked).
    package var record: OutputRecord?
    /// The sidecar of an earlier render still on disk, unchanged, when this run wrote nothing
    /// there (its job failed): what viewers see until a render succeeds.
    package var live: OutputRecord?

    /// The memberwise initialiser, for the run (SliceBatch) that fills the report.
    package init(path: String, record: OutputRecord? = nil, live: OutputRecord? = nil) {
        self.path = path
        self.record = record
        self.live = live
    }
}

/// The result of one job.
public struct JobResult: Sendable {
    public var id: String
    public var status: JobStatus
    package var outputs: [OutputResult]
    /// The job's fingerprint (inputs, settings, version); nil when an input could not be read.
    package var fingerprint: String?
    /// Wall-clock seconds spent on the job, hashing included.
    public var seconds: Double
    /// One line saying why the job failed or stopped.
    public var error: String?
    /// Seconds its clip plays, once it rendered.
    public var clipSeconds: Double?
    /// Whether it failed only on a remote input that may be had later (timeouts, resets, HTTP
    /// 5xx or 429 after every attempt): a run whose failures are all such is worth a retry.
    package var retryable = false
    /// Its place among the manifest's jobs (from 0, matrices expanded), whatever the shard:
    /// merged shard reports list jobs in manifest order by it.
    package var index = 0
    /// Why it rendered, in the words of `batch --plan`; empty when it was skipped, or failed
    /// before its outputs were surveyed.
    public package(set) var reasons: [RenderReason] = []
    /// The feed row it was made from, when its template has `rows`.
    package var row: JobRow?
    /// The poster this run made (or found up to date) for the report page, when the run writes
    /// a page and the job asks for no picture of its own.
    public package(set) var poster: String?
    /// Why the page has no poster of the job, when making one failed.
    public package(set) var posterError: String?
    /// The page's poster of an earlier render of a job that failed, still on disk and still
    /// the file slicevid wrote.
    public package(set) var previousPoster: String?
    /// The layout's warnings this job told (contrast, overlap, a shrunk size): each told once
    /// per run, by the first job that met it.
    public package(set) var warnings: [String] = []

    /// The memberwise initialiser, for the run (SliceBatch) that fills the report.
    package init(id: String, status: JobStatus, outputs: [OutputResult], fingerprint: String? = nil, seconds: Double, error: String? = nil,
                 clipSeconds: Double? = nil, index: Int = 0, reasons: [RenderReason] = [], row: JobRow? = nil, poster: String? = nil,
                 posterError: String? = nil) {
        (self.id, self.status, self.outputs, self.fingerprint, self.seconds, self.error) = (id, status, outputs, fingerprint, seconds, error)
        (self.clipSeconds, self.index, self.reasons, self.row, self.poster, self.posterError) = (clipSeconds, index, reasons, row, poster, posterError)
    }

    /// What the report's `why` says: the reasons as `--plan` words them for a rendered job (or
    /// one stopped while rendering), `up to date` for a skipped one; nil otherwise.
    package var why: String? {
        switch status {
        case .skipped: "up to date"
        case .rendered, .interrupted, .failed: reasons.isEmpty ? nil : RenderReason.sentence(reasons)
        case .pending: nil
        }
    }
}

/// The whole run.
public struct BatchReport: Sendable {
    /// How the run ended overall; decides the exit status.
    public enum Outcome: Sendable, Equatable {
        /// Every job rendered or was skipped (also when the shard had no jobs).
        case success
        /// Some jobs failed, others rendered or were skipped.
        case someFailed
        /// Every job failed.
        case allFailed
        /// `prune` would have deleted more of the campaign's outputs than its limit allows, so
        /// it deleted nothing (whatever the jobs did: a feed cut short is the bigger news).
        case pruneRefused
        /// Some or all jobs failed, each only on a remote input that may be had later: the
        /// same run is worth a retry.
        case retryLater
        /// SIGINT or SIGTERM stopped the run.
        case interrupted(signal: Int32)
        /// The program that called the library stopped the run (a cancelled Task, `cancel()`).
        case cancelled
    }

    /// The version of the report's layout, `schema` in the JSON: 2 added the manifest's
    /// digest and each job's `index` (reports without `schema` are version 1); 3 each job's
    /// `why`, `reasons` and `row`, each output's `loudness`, the `orphans` and whether the run
    /// pruned them, and `pruned` and `orphaned` among the counts.
    package static let schema = 3

    /// The manifest's absolute path.
    public var manifest: String
    /// The manifest's `description`, the page's title.
    package var campaignDescription: String?
    /// The whole manifest's bytes, job count and ids, whatever the shard.
    package var digest: ManifestDigest
    package var version: String
    package var shard: Shard
    package var force: Bool
    package var started: Date
    public var seconds: Double
    public var jobs: [JobResult]
    /// The signal that stopped the run, if one did.
    public var signal: Int32?
    /// Whether the program that called the library stopped the run (no signal did).
    public var isCancelled = false
    /// The report file, once written there.
    public var reportFile: String?
    /// Why the report file (or its page) could not be written, when it could not.
    public var reportFileError: SlicevidError?
    /// The report page, once written there.
    public var reportPage: String?
    /// Outputs this manifest wrote for jobs it no longer has, found after the run: deleted
    /// (`pruned`) when the run prunes, else left and reported.
    public var orphans: [Orphan] = []
    /// Whether the run was asked to prune (`--prune`).
    package var prune = false
    /// What the prune would delete against its limit, when the run prunes.
    public package(set) var pruneBrake: PruneBrake?

    /// The memberwise initialiser, for the run (SliceBatch) that fills the report.
    package init(manifest: String, digest: ManifestDigest, version: String, shard: Shard, force: Bool, started: Date, seconds: Double,
                 jobs: [JobResult], signal: Int32? = nil, reportFile: String? = nil, reportFileError: SlicevidError? = nil,
                 reportPage: String? = nil, orphans: [Orphan] = [], prune: Bool = false) {
        (self.manifest, self.digest, self.version, self.shard, self.force, self.started) = (manifest, digest, version, shard, force, started)
        (self.seconds, self.jobs, self.signal, self.reportFile, self.reportFileError) = (seconds, jobs, signal, reportFile, reportFileError)
        (self.reportPage, self.orphans, self.prune) = (reportPage, orphans, prune)
    }

    public var outcome: Outcome {
        if let signal { return .interrupted(signal: signal) }
        if isCancelled { return .cancelled }
        if pruneBrake?.holds == true { return .pruneRefused }
        let failed = count(.failed)
        if failed == 0 { return .success }
        if jobs.allSatisfy({ $0.status != .failed || $0.retryable }) { return .retryLater }
        return failed == jobs.count ? .allFailed : .someFailed
    }

    /// The number of jobs with `status`.
    public func count(_ status: JobStatus) -> Int { jobs.filter { $0.status == status }.count }

    /// `ok`, `some-failed`, `all-failed` or `interrupted`, as the report's `status`.
    package var outcomeName: String {
        switch outcome {
        case .success: "ok"
        case .someFailed: "some-failed"
        case .allFailed: "all-failed"
        case .pruneRefused: "prune-refused"
        case .retryLater: count(.failed) == jobs.count ? "all-failed" : "some-failed"
        // A stop by the caller is an interruption too, with no signal named.
        case .interrupted, .cancelled: "interrupted"
        }
    }

    /// The report as JSON (keys sorted, so reports diff cleanly).
    package var json: Data {
        func rounded(_ seconds: Double) -> Double { (seconds * 1000).rounded() / 1000 }
        let jobs: [[String: Any]] = self.jobs.map { job in
            [
                "id": job.id,
                "index": job.index,
                "status": job.status.rawValue,
                "seconds": rounded(job.seconds),
                "fingerprint": job.fingerprint ?? NSNull(),
                "error": job.error ?? NSNull(),
                // Only a failure can be worth a retry: `report merge` reads this to tell a
                // campaign worth running again from one a person must fix.
                "retryable": job.status == .failed && job.retryable,
                "why": job.why ?? NSNull(),
                "reasons": job.reasons.map(\.json),
                "row": job.row.map { ["key": $0.key, "feed": $0.feed, "line": $0.line] as [String: Any] } ?? NSNull(),
                "poster": job.poster ?? NSNull(),
                "poster_error": job.posterError ?? NSNull(),
                "previous_poster": job.previousPoster ?? NSNull(),
                "warnings": job.warnings,
                "outputs": job.outputs.map { output -> [String: Any] in
                    guard let record = output.record else {
                        guard let live = output.live else { return ["path": output.path] }
                        return ["path": output.path, "live": BatchReport.live(live)]
                    }
                    return ["path": output.path, "bytes": record.bytes, "frames": record.frames, "fps": record.frameRate ?? NSNull(),
                            "seconds": rounded(record.seconds), "fingerprint": record.fingerprint,
                            "loudness": record.loudness.flatMap { $0.isFinite ? ($0 * 10).rounded() / 10 : nil } ?? NSNull()]
                },
            ]
        }
        var counts: [String: Int] = [:]
        for status in JobStatus.allCases { counts[status.rawValue] = count(status) }
        counts["pruned"] = orphans.filter(\.pruned).count
        counts["orphaned"] = orphans.filter { !$0.pruned }.count
        let object: [String: Any] = [
            "schema": BatchReport.schema,
            "manifest": manifest,
            "description": campaignDescription ?? NSNull(),
            "manifest_sha256": digest.bytes,
            "manifest_jobs": digest.jobs,
            "manifest_ids_sha256": digest.ids,
            "slicevid": version,
            "shard": shard.description,
            "force": force,
            "prune": prune,
            "prune_brake": pruneBrake?.json ?? NSNull(),
            "started": started.ISO8601Format(Date.ISO8601FormatStyle(includingFractionalSeconds: true)),
            "seconds": rounded(seconds),
            "status": outcomeName,
            "signal": signal.map(signalName) ?? NSNull(),
            "counts": counts,
            "jobs": jobs,
            "orphans": orphans.map(\.json),
        ]
        // Only JSON types go in, so serialisation cannot fail.
        return (try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data()
    }
}

extension BatchReport {
    /// An earlier render still live, as the report gives it: its facts and when its file was
    /// written (UTC, to the second), from its sidecar's stamp.
    static func live(_ record: OutputRecord) -> [String: Any] {
        var object: [String: Any] = ["bytes": record.bytes, "frames": record.frames, "fps": record.frameRate ?? NSNull(),
                                     "seconds": (record.seconds * 1000).rounded() / 1000,
                                     "loudness": record.loudness.flatMap { $0.isFinite ? ($0 * 10).rounded() / 10 : nil } ?? NSNull()]
        let written = record.files.last?.modified.map { Date(timeIntervalSince1970: TimeInterval($0.seconds)) }
        object["written"] = written.map { $0.ISO8601Format() } ?? NSNull()
        return object
    }
}
