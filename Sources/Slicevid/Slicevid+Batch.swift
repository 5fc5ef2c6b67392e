// Campaigns through the library: a manifest read and checked, a shard chosen, and the run —
// lock, jobs, report, events — exactly as `slicevid batch` runs it, since the command line calls
// these very functions.

import Foundation
import SliceBatch
import SliceCampaign
import SliceKit
import SlicePipeline
import SliceReports

extension Slicevid {
    /// Reads and checks the manifest at `path` completely: every job resolved, nothing run.
    /// - Parameters:
    ///   - presets: finds the presets the manifest names; by default as `Slicevid.preset` does.
    /// - Throws: `SlicevidError` naming the manifest, the job and the field.
    public static func manifest(at path: String,
                                environment: [String: String] = ProcessInfo.processInfo.environment) throws(SlicevidError) -> Manifest {
        try manifest(at: path, presets: PresetCatalog.standard(environment: environment, executable: nil))
    }

    /// Reads and checks the manifest at `path` completely, its presets found in `presets`.
    /// - Parameters:
    ///   - presets: where the presets the manifest names are looked up (`presetCatalog()` for
    ///     the lookup of the `slicevid` executable).
    ///   - cancellation: stops reading a feed from standard input (the read throws `.interrupted`).
    ///   - remote: how a layout (or brand file) given as a URL is fetched: the cache, offline
    ///     or not, the CA file and bounds of the run that follows.
    /// - Throws: `SlicevidError` naming the manifest, the job and the field; a preset that cannot
    ///   be had is sorted as `SlicevidError(_: PresetError)` sorts it.
    public static func manifest(at path: String, presets: PresetCatalog, cancellation: Cancellation = Cancellation(),
                                remote: RemoteOptions = RemoteOptions()) throws(SlicevidError) -> Manifest {
        try Manifest.load(path: path, presets: { value throws(SlicevidError) in try preset(value, in: presets) }, cancellation: cancellation,
                          remote: remote)
    }

    /// Reads and checks a manifest from standard input (`slicevid batch -`): relative paths are
    /// relative to the working folder, and its feeds cannot also come on standard input.
    /// - Parameters:
    ///   - presets: where the presets the manifest names are looked up.
    ///   - cancellation: stops the read (it then throws `.interrupted`, naming the signal when a
    ///     signal cancelled it).
    /// - Throws: `SlicevidError` as `manifest(at:presets:cancellation:)` does; `.usage` for input
    ///   larger than a manifest may be.
    public static func manifestFromStandardInput(presets: PresetCatalog, cancellation: Cancellation = Cancellation(),
                                                 remote: RemoteOptions = RemoteOptions()) throws(SlicevidError) -> Manifest {
        try Manifest.loadStandardInput(presets: { value throws(SlicevidError) in try preset(value, in: presets) }, cancellation: cancellation,
                                       remote: remote)
    }

    /// Runs the jobs `request` selects, as `slicevid batch` does: the manifest locked against
    /// an overlapping run, up-to-date jobs skipped, a job's failure its own result, the report
    /// written (also if the process is ended at once by its host).
    /// - Parameters:
    ///   - cancellation: stops the run; finished jobs are kept, the rest reported interrupted
    ///     or pending.
    ///   - events: progress from the jobs' threads, ending with `.finished`.
    /// - Throws: `SlicevidError` when nothing could run: `.busy` (another run holds the
    ///   manifest), `.outputBlocked` (the report file cannot be written).
    public static func batch(_ request: BatchRequest, cancellation: Cancellation = Cancellation(),
                             events: @escaping @Sendable (BatchEvent) -> Void = { _ in }) throws(SlicevidError) -> BatchReport {
        try BatchRun.session(request, cancellation: cancellation, events: events)
    }

    /// What a run of `request` would trip over, found without rendering or locking: stills
    /// missing or not decoding, outputs slicevid may not replace, and what it would create,
    /// replace or delete (`batch --check`).
    public static func check(_ request: BatchRequest) -> [JobCheck] {
        BatchCheck.run(request)
    }

    /// The outputs `request`'s manifest wrote for jobs it no longer has (a row left its feed, a
    /// job or an output left the manifest), in the folders it writes to: what a run with
    /// `prune` would delete, or (`kept`) leave because it changed since. Deletes nothing.
    public static func orphans(_ request: BatchRequest) -> [Orphan] {
        Orphan.find(in: request.manifest, posterFolder: request.posterFolder)
    }

    /// Whether a prune of `orphans` (as `orphans(_:)` found them) would stop at `request`'s
    /// brake: how many it would delete of the campaign's outputs, against `pruneLimit`.
    public static func pruneBrake(_ request: BatchRequest, orphans: [Orphan]) -> PruneBrake {
        Orphan.brake(orphans, in: request.manifest, posterFolder: request.posterFolder, limit: request.pruneLimit)
    }

    /// What a run of `request` would do with each job, and why (`batch --plan`); takes no lock
    /// and writes nothing.
    public static func plan(_ request: BatchRequest, cancellation: Cancellation = Cancellation()) -> [JobPlan] {
        BatchPlan.run(request, cancellation: cancellation)
    }
}

extension BatchRequest {
    /// A run of `manifest`'s jobs.
    /// - Parameters:
    ///   - shard: the jobs of one shard (`Shard(parsing:)`); every job by default.
    ///   - force: re-render every job and replace what sidecars do not vouch for.
    ///   - parallel: jobs at once; by default from the cores and the frame sizes.
    ///   - renderThreads: render threads per job; by default the cores shared among the jobs.
    ///   - reportFile: where the JSON report goes.
    ///   - reportPage: where its HTML page goes (self-contained; a poster for each job that asks
    ///     for no picture of its own is made into a folder beside it, `index.files` for
    ///     `index.html`).
    ///   - prune: delete, after the jobs, what the manifest wrote for jobs it no longer has.
    ///   - pruneLimit: the most one prune may delete: a run that would delete more of the
    ///     campaign's outputs deletes nothing (`PruneLimit.standard`: a quarter).
    ///   - only: render only the jobs with these feed keys, or whose ids match these globs.
    ///   - threads: the cores the jobs share (their render threads by default, each output's
    ///     encoder threads); this machine's by default.
    /// - Throws: `SlicevidError(.usage)` for a number out of range, a pattern of `only` no job
    ///   matches, `prune` with a shard or a manifest read from standard input.
    public init(manifest: Manifest, shard: Shard = .all, force: Bool = false, parallel: Int? = nil, renderThreads: Int? = nil,
                reportFile: String? = nil, reportPage: String? = nil, prune: Bool = false, pruneLimit: PruneLimit = .standard,
                only: [String] = [], threads: ThreadBudget = .machine) throws(SlicevidError) {
        try self.init(manifest: manifest, shard: shard, force: force, renderThreads: renderThreads, parallel: parallel, reportFile: reportFile,
                      reportPage: reportPage,
                      prune: prune, pruneLimit: pruneLimit, only: only, version: Slicevid.version, threads: threads)
    }
}

extension Manifest {
    /// The fields a job's `transitions` entries may set, each pair its own.
    public static var transitionFields: [SpecField] { ManifestJob.transitionFields }
}
