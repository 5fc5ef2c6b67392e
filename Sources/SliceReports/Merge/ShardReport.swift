// One shard's `--report`, read back for `report merge`: strict JSON, a report of the current
// schema, every job where its shard says it is. Each job's object is kept exactly as read, so
// fields added to the report later pass through a merge untouched.

import Foundation
import SliceCampaign
import SliceKit
import SlicePipeline

/// A batch report (`--report FILE`) as `report merge` reads it.
package struct ShardReport {
    /// The path as given.
    package let path: String
    /// The report's top-level object, as read.
    package let object: [String: Any]
    /// The slicevid version that wrote it.
    package let version: String
    /// The manifest path it names (shards may see one manifest under different paths).
    package let manifest: String
    package let digest: ManifestDigest
    package let shard: Shard
    /// Each job's object as read, with the fields merge needs read out.
    package let jobs: [Job]

    /// A job of the report: its object untouched, and the fields merge reads.
    package struct Job {
        package let object: [String: Any]
        package let id: String
        package let index: Int
        package let status: String
        package let error: String?
        /// Whether it failed only on remote inputs that may be had later (its shard would have
        /// exited 75 for it alone); `ReportFile` checked the field is a boolean.
        package let retryable: Bool
    }

    /// Reads and checks the report at `path`.
    /// - Throws: `SlicevidError` naming the file: `.inputMissing` when it cannot be read (or is
    ///   not a regular file), `.inputInvalid` when it is not a whole slicevid report or holds a
    ///   job that is not its shard's, `.usage` for a report of another schema or a merged one.
    package init(path: String) throws(SlicevidError) {
        self.path = path
        let name = InputText.quoted(path)
        func invalid(_ why: String) -> SlicevidError { SlicevidError(.inputInvalid, "\(name): \(why)") }
        let object = try ReportFile.object(at: path)
        // ReportFile checked these.
        let version = object["slicevid"] as? String ?? "", manifest = object["manifest"] as? String ?? "", entries = object["jobs"] as? [Any] ?? []
        self.object = object
        self.version = version
        self.manifest = manifest
        if object["shards"] != nil {
            throw SlicevidError(.usage, "\(name): is a merged report, not a shard's; give the reports each shard wrote")
        }
        try ReportFile.requireSchema(object, path: path, reader: "a merge", again: "that shard")
        guard let bytes = object["manifest_sha256"] as? String, let count = object["manifest_jobs"] as? Int, count >= 0,
              let ids = object["manifest_ids_sha256"] as? String else {
            throw invalid("is not a whole slicevid report: \"manifest_sha256\", \"manifest_jobs\" or \"manifest_ids_sha256\" is missing")
        }
        digest = ManifestDigest(bytes: bytes, jobs: count, ids: ids)
        guard let shardText = object["shard"] as? String,
              let shard = try? Shard(parsing: shardText, environment: [:]) else {
            throw invalid("\"shard\" is not K/N")
        }
        self.shard = shard
        var jobs: [Job] = []
        jobs.reserveCapacity(entries.count)
        for (position, entry) in entries.enumerated() {
            guard let job = entry as? [String: Any], let id = job["id"] as? String, let index = job["index"] as? Int,
                  let status = job["status"] as? String else {
                throw invalid("jobs[\(position)] is not a job (an object with \"id\", \"index\" and \"status\")")
            }
            guard (0..<count).contains(index) else {
                throw invalid("job \(InputText.quoted(id)) has index \(index); the manifest has \(count) jobs (0…\(count - 1))")
            }
            guard shard.contains(id) else {
                throw invalid("job \(InputText.quoted(id)) is not in shard \(shard) (it hashes to \(Shard.index(of: id, count: shard.count))); the report was changed after slicevid wrote it")
            }
            jobs.append(Job(object: job, id: id, index: index, status: status, error: job["error"] as? String,
                            retryable: status == JobStatus.failed.rawValue && job["retryable"] as? Bool == true))
        }
        self.jobs = jobs
    }

    /// The report's `status` (`ok`, `some-failed`, `all-failed`, `interrupted`).
    package var status: String { object["status"] as? String ?? "" }

    /// What `report merge` keeps of the shard's run beside its jobs: which shard, where its
    /// report and manifest were, when it ran and how it ended.
    package var summary: [String: Any] {
        var summary: [String: Any] = ["shard": shard.description, "report": URL(fileURLWithPath: path).standardizedFileURL.path, "manifest": manifest]
        for key in ["started", "seconds", "status", "signal", "force", "counts"] { summary[key] = object[key] ?? NSNull() }
        return summary
    }
}
