// `slicevid batch`: every job of a manifest (or of one shard of it) in turn, each skipped when
// its outputs' fingerprints still match, rendered otherwise, and failing alone when it fails.

import Foundation
import Glibc
import SliceKit
import SliceMedia

/// Everything a batch run needs besides the manifest.
public struct BatchRequest: Sendable {
    public var manifest: Manifest
    /// The jobs this run renders.
    public var shard: Shard
    /// Re-render every job, whatever the fingerprints say.
    public var force: Bool
    /// Render threads per job.
    public var jobs: Int
    /// The slicevid version, part of every fingerprint.
    public var version: String

    public init(manifest: Manifest, shard: Shard = .all, force: Bool = false,
                jobs: Int = ProcessInfo.processInfo.activeProcessorCount, version: String) {
        self.manifest = manifest
        self.shard = shard
        self.force = force
        self.jobs = jobs
        self.version = version
    }

    /// The manifest's jobs in this run's shard, in file order.
    public var selectedJobs: [ManifestJob] { manifest.jobs.filter { shard.contains($0.id) } }
}

/// What a batch run reports as it goes. `position` counts from 1 among the selected jobs.
public enum BatchEvent: Sendable {
    /// The run starts `jobs` of the manifest's `total` jobs.
    case started(jobs: Int, total: Int)
    /// A job's outputs are out of date (or `force` is on): its render starts.
    case jobRendering(id: String, position: Int, count: Int)
    /// A job's render has `done` of `total` frames through every output.
    case jobProgress(id: String, position: Int, count: Int, done: Int, total: Int)
    /// A job ended: rendered, skipped, failed or interrupted.
    case jobFinished(JobResult, position: Int, count: Int)
}

/// Runs `slicevid batch`.
public enum BatchRun {
    /// Runs the selected jobs one after another. Never throws: a job's failure is its result,
    /// and a signal ends the run with the remaining jobs `pending`.
    /// - Parameters:
    ///   - request: the manifest, shard and options.
    ///   - cancellation: set by SIGINT/SIGTERM; stops the current job (hashing, decoding or
    ///     rendering) and the run.
    ///   - journal: where results are kept as they come in (a second signal reports from it);
    ///     a fresh one by default.
    ///   - events: progress callbacks; may be called from any thread.
    /// - Returns: the report of every selected job.
    public static func run(_ request: BatchRequest, cancellation: Cancellation, journal: BatchJournal? = nil,
                           events: @escaping @Sendable (BatchEvent) -> Void = { _ in }) -> BatchReport {
        let journal = journal ?? BatchJournal(request)
        let selected = request.selectedJobs
        events(.started(jobs: selected.count, total: request.manifest.jobs.count))
        var hashes = InputHashes()
        for (offset, job) in selected.enumerated() {
            if cancellation.isCancelled { break }
            let position = offset + 1
            let result = run(job, request: request, hashes: &hashes, cancellation: cancellation, journal: journal) { progress in
                switch progress {
                case nil: events(.jobRendering(id: job.id, position: position, count: selected.count))
                case let (done, total)?: events(.jobProgress(id: job.id, position: position, count: selected.count, done: done, total: total))
                }
            }
            events(.jobFinished(result, position: position, count: selected.count))
        }
        return journal.report(signal: cancellation.signal)
    }

    /// One job: fingerprint, then skip or render; each output's sidecar is written as it is
    /// moved into place. `progress` hears nil when rendering starts, then (done, total) frames.
    private static func run(_ job: ManifestJob, request: BatchRequest, hashes: inout InputHashes, cancellation: Cancellation,
                            journal: BatchJournal, progress: @escaping @Sendable ((Int, Int)?) -> Void) -> JobResult {
        let clock = ContinuousClock.now
        journal.begin(job)
        func finish(_ status: JobStatus, error: String? = nil) -> JobResult {
            journal.finish(status, error: error, seconds: (ContinuousClock.now - clock).seconds)
        }

        let survey: JobSurvey
        do {
            survey = try JobSurvey(job, version: request.version, hashes: &hashes, cancellation: cancellation)
        } catch .failed(let reason) {
            return finish(.failed, error: reason)
        } catch {
            let signal = signalName(cancellation.signal ?? SIGINT)
            return finish(.interrupted, error: "interrupted by \(signal) while hashing its stills; nothing of it was written")
        }
        journal.update { $0.fingerprint = survey.fingerprint.value }
        if !request.force && survey.isUpToDate {
            journal.update { result in
                for (index, output) in survey.outputs.enumerated() { result.outputs[index].record = output.record }
            }
            return finish(.skipped)
        }

        progress(nil)
        var render = job.request(force: request.force, jobs: request.jobs)
        // Without --force, an output replaces only the files its own sidecar says slicevid wrote.
        render.replacements = survey.replacements(force: request.force)
        let fingerprints = Dictionary(survey.outputs.map { ($0.path, $0.fingerprint) }) { first, _ in first }
        let frameRate = job.spec.frameRate
        render.sidecar = { path, files, frames in
            OutputRecord(files: files, fingerprint: fingerprints[path] ?? survey.fingerprint, frames: frames, frameRate: frameRate)
        }
        render.onCommit = { path, record in journal.committed(path, record: record) }
        do {
            // The job's own flag: a render error stops this job only; signals still reach it.
            _ = try MakeJob.run(render, cancellation: Cancellation(parent: cancellation)) { event in
                if case .progress(let done, let total) = event { progress((done, total)) }
            }
        } catch {
            if case .interrupted = error.category { return finish(.interrupted, error: error.message) }
            return finish(.failed, error: error.message)
        }
        return finish(.rendered)
    }
}

extension Duration {
    /// The duration in seconds, as a double for reports.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
