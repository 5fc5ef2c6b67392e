// `slicevid batch`: every job of a manifest (or of one shard of it) in turn, each skipped when
// its outputs' fingerprints still match, rendered otherwise, and failing alone when it fails.

import Foundation
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
    ///   - cancellation: set by SIGINT/SIGTERM; stops the current render and the run.
    ///   - events: progress callbacks; may be called from any thread.
    /// - Returns: the report of every selected job.
    public static func run(_ request: BatchRequest, cancellation: Cancellation,
                           events: @escaping @Sendable (BatchEvent) -> Void = { _ in }) -> BatchReport {
        let started = Date()
        let clock = ContinuousClock.now
        let selected = request.selectedJobs
        events(.started(jobs: selected.count, total: request.manifest.jobs.count))
        var hashes = InputHashes()
        var results: [JobResult] = []
        for (offset, job) in selected.enumerated() {
            let position = offset + 1
            if cancellation.isCancelled {
                results.append(JobResult(id: job.id, status: .pending, outputs: job.outputs.map { OutputResult(path: $0) },
                                         seconds: 0, error: "not started: the run was interrupted"))
                continue
            }
            let result = run(job, request: request, hashes: &hashes, cancellation: cancellation) { progress in
                switch progress {
                case nil: events(.jobRendering(id: job.id, position: position, count: selected.count))
                case let (done, total)?: events(.jobProgress(id: job.id, position: position, count: selected.count, done: done, total: total))
                }
            }
            results.append(result)
            events(.jobFinished(result, position: position, count: selected.count))
        }
        return BatchReport(manifest: URL(fileURLWithPath: request.manifest.path).standardizedFileURL.path,
                           version: request.version, shard: request.shard, force: request.force, started: started,
                           seconds: (ContinuousClock.now - clock).seconds, jobs: results, signal: cancellation.signal)
    }

    /// One job: fingerprint, then skip or render, then record the outputs' sidecars.
    /// `progress` hears nil when rendering starts, then (done, total) frames.
    private static func run(_ job: ManifestJob, request: BatchRequest, hashes: inout InputHashes, cancellation: Cancellation,
                            progress: @escaping @Sendable ((Int, Int)?) -> Void) -> JobResult {
        let clock = ContinuousClock.now
        var result = JobResult(id: job.id, status: .failed, outputs: job.outputs.map { OutputResult(path: $0) },
                               seconds: 0, error: nil)
        func finish(_ status: JobStatus, error: String? = nil) -> JobResult {
            result.status = status
            result.error = error
            result.seconds = (ContinuousClock.now - clock).seconds
            return result
        }

        let fingerprint: Fingerprint
        do {
            fingerprint = Fingerprint(sequence: job.sequence, imageHashes: try job.images.map { path throws(MediaError) in try hashes.hash(path) },
                                      version: request.version)
        } catch {
            return finish(.failed, error: error.description)
        }
        result.fingerprint = fingerprint.value
        // The plans say what each output would be; their facts are part of its fingerprint.
        let planned: MakePlan
        do {
            planned = try MakeJob.plan(job.request(force: true, jobs: request.jobs))
        } catch {
            return finish(.failed, error: error.message)
        }
        let outputs = planned.outputs.map { plan in
            (path: plan.path, format: plan.format, fingerprint: fingerprint.output(plan, canvas: planned.renderLayout))
        }

        if !request.force {
            let records = outputs.map { output in
                OutputRecord.read(for: output.path).flatMap { record in
                    record.fingerprint == output.fingerprint.value && record.describesDisk(output: output.path, format: output.format) ? record : nil
                }
            }
            if records.allSatisfy({ $0 != nil }) {
                for index in records.indices { result.outputs[index].record = records[index] }
                return finish(.skipped)
            }
        }

        // No sidecar may vouch for an output while it is being replaced.
        for output in outputs { OutputRecord.remove(for: output.path) }
        progress(nil)
        let report: MakeReport
        do {
            // The job's own flag: a render error stops this job only; signals still reach it.
            report = try MakeJob.run(job.request(force: true, jobs: request.jobs), cancellation: Cancellation(parent: cancellation)) { event in
                if case .progress(let done, let total) = event { progress((done, total)) }
            }
        } catch {
            if case .interrupted = error.category { return finish(.interrupted, error: error.message) }
            return finish(.failed, error: error.message)
        }
        for (index, output) in outputs.enumerated() {
            let record = OutputRecord(output: output.path, format: output.format, fingerprint: output.fingerprint,
                                      frames: report.frames, frameRate: job.spec.frameRate)
            do {
                try record.write(for: output.path)
            } catch {
                return finish(.failed, error: "\(error.message); the output was written but will be rendered again next run")
            }
            result.outputs[index].record = record
        }
        return finish(.rendered)
    }
}

/// SHA-256 of each input file, read once per run even when many jobs share a still.
struct InputHashes {
    private var known: [String: Result<String, MediaError>] = [:]

    /// The hex SHA-256 of the file at `path`.
    /// - Throws: `MediaError(.inputMissing)` when it cannot be read.
    mutating func hash(_ path: String) throws(MediaError) -> String {
        if let cached = known[path] { return try cached.get() }
        let result = Result { () throws(MediaError) in try SHA256.hex(ofFileAt: path) }
        known[path] = result
        return try result.get()
    }
}

extension Duration {
    /// The duration in seconds, as a double for reports.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
