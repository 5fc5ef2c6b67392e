// An output of a job the manifest no longer has, as a run's report carries it: where it is, which
// job wrote it, and whether `--prune` deleted it or why it was kept. Finding and pruning them is
// the run's (SliceBatch/Orphans/Orphan+Prune.swift).

import Foundation
import SlicePipeline

/// An output of a job the manifest no longer has.
public struct Orphan: Sendable, Equatable {
    /// The output's path (a sequence's pattern).
    public package(set) var path: String
    /// The job its sidecar says wrote it.
    public package(set) var job: String
    /// Whether that job is still in the manifest: it no longer writes this output (the output
    /// left it, or the job now writes a picture of its own instead of the page's poster).
    public package(set) var jobRemains = false
    /// Its bytes on disk as its sidecar records them.
    public package(set) var bytes: Int
    /// Why slicevid may not delete it (changed since it was written, not a regular file); nil
    /// when it may.
    public package(set) var kept: String?
    /// Whether `--prune` deleted it (and its sidecar).
    public package(set) var pruned = false
    /// Whether it was kept only because the prune brake held (`kept` says so): the run's one
    /// line about the brake speaks for all of them.
    public package(set) var heldByBrake = false

    /// The files it is made of on disk (a sequence's frames), and its sidecar.
    package var files: [String] = []
    package var sidecar: String { OutputRecord.sidecarPath(for: path) }

    /// An orphan found at `path`, its sidecar naming `job` and `bytes`; `kept` says why it is
    /// never deleted, when it is not.
    package init(path: String, job: String, bytes: Int, kept: String? = nil) {
        self.path = path
        self.job = job
        self.bytes = bytes
        self.kept = kept
    }
}

extension Orphan {
    /// The orphan as the report gives it.
    package var json: [String: Any] {
        ["path": path, "job": job, "bytes": bytes, "pruned": pruned, "kept": kept ?? NSNull()]
    }
}
