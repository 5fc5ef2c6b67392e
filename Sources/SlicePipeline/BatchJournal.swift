// What a batch has done so far, readable from any thread: a second signal ends the process
// from a signal queue while the main thread is still rendering, and the report written then
// must still say what became of every job.

import Foundation
import Glibc
import Synchronization

/// The results of a batch run as they come in, and the report they make at any moment.
public final class BatchJournal: Sendable {
    private struct State {
        var finished: [JobResult] = []
        /// The job under way, with the outputs committed so far.
        var current: JobResult?
    }

    private let request: BatchRequest
    private let started = Date()
    private let clock = ContinuousClock.now
    private let state = Mutex(State())

    /// A journal for the jobs `request` selects, none of them started.
    public init(_ request: BatchRequest) {
        self.request = request
    }

    /// The job `job` starts; until it finishes, a report shows it interrupted.
    func begin(_ job: ManifestJob) {
        let result = JobResult(id: job.id, status: .interrupted, outputs: job.outputs.map { OutputResult(path: $0) },
                               seconds: 0, error: nil)
        state.withLock { $0.current = result }
    }

    /// Updates the job under way (its fingerprint, or the records of a skip).
    func update(_ change: (inout JobResult) -> Void) {
        state.withLock { state in
            if state.current != nil { change(&state.current!) }
        }
    }

    /// The output at `path` of the job under way was moved into place with `record` as its
    /// sidecar. Called inside the commit, so a second signal's report agrees with the disk.
    func committed(_ path: String, record: OutputRecord) {
        update { result in
            if let index = result.outputs.firstIndex(where: { $0.path == path }) { result.outputs[index].record = record }
        }
    }

    /// The job under way ended with `status`.
    /// - Returns: its result, as the report will show it.
    @discardableResult
    func finish(_ status: JobStatus, error: String?, seconds: Double) -> JobResult {
        state.withLock { state in
            var result = state.current ?? JobResult(id: "", status: status, outputs: [], seconds: 0, error: nil)
            result.status = status
            result.error = error
            result.seconds = seconds
            state.finished.append(result)
            state.current = nil
            return result
        }
    }

    /// The report as things stand: finished jobs as they ended; the job under way interrupted,
    /// or rendered when every output of it is already in place; the others pending.
    /// - Parameter signal: the signal that stopped the run, if one did.
    public func report(signal: Int32?) -> BatchReport {
        let selected = request.selectedJobs
        var jobs = state.withLock { state in
            var jobs = state.finished
            if var current = state.current {
                let written = current.outputs.filter { $0.record != nil }.count
                let done = written == current.outputs.count
                current.status = done ? .rendered : .interrupted
                current.error = done ? nil : "interrupted by \(signalName(signal ?? SIGINT)); "
                    + (written == 0 ? "nothing of it was written" : "\(written) of its \(current.outputs.count) outputs were written")
                current.seconds = (ContinuousClock.now - clock).seconds - jobs.reduce(0) { $0 + $1.seconds }
                jobs.append(current)
            }
            return jobs
        }
        for job in selected.dropFirst(jobs.count) {
            jobs.append(JobResult(id: job.id, status: .pending, outputs: job.outputs.map { OutputResult(path: $0) },
                                  seconds: 0, error: "not started: the run was interrupted"))
        }
        return BatchReport(manifest: URL(fileURLWithPath: request.manifest.path).standardizedFileURL.path,
                           version: request.version, shard: request.shard, force: request.force, started: started,
                           seconds: (ContinuousClock.now - clock).seconds, jobs: jobs, signal: signal)
    }
}
