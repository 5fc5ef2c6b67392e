// What a batch has done so far, readable from any thread: a second signal ends the process
// from a signal queue while jobs are still rendering (several at once with --parallel), and
// the report written then must still say what became of every job.

import Foundation
import Glibc
import SliceCampaign
import SlicePipeline
import SliceReports
import Synchronization

/// The results of a batch run as they come in, and the report they make at any moment.
package final class BatchJournal: Sendable {
    private struct Running {
        var result: JobResult
        let started: ContinuousClock.Instant
    }

    private struct State {
        /// Finished jobs by position among the selected jobs (from 0).
        var finished: [Int: JobResult] = [:]
        /// Jobs under way, with the outputs committed so far.
        var running: [Int: Running] = [:]
    }

    private let request: BatchRequest
    /// The manifest's index of each selected job, by position among the selected jobs.
    private let indices: [Int]
    private let digest: ManifestDigest
    private let started = Date()
    private let clock = ContinuousClock.now
    private let state = Mutex(State())

    /// A journal for the jobs `request` selects, none of them started.
    package init(_ request: BatchRequest) {
        self.request = request
        indices = request.manifest.jobs.indices.filter { request.selects(request.manifest.jobs[$0]) }
        digest = request.manifest.digest
    }

    /// The job at `position` (from 0 among the selected jobs) starts; until it finishes, a
    /// report shows it interrupted.
    func begin(_ job: ManifestJob, at position: Int) {
        var result = JobResult(id: job.id, status: .interrupted, outputs: job.outputPaths.map { OutputResult(path: $0) },
                               seconds: 0, error: nil, index: indices[position])
        result.row = job.row
        state.withLock { $0.running[position] = Running(result: result, started: .now) }
    }

    /// Updates the job under way at `position` (its fingerprint, or the records of a skip).
    func update(at position: Int, _ change: (inout JobResult) -> Void) {
        state.withLock { state in
            if state.running[position] != nil { change(&state.running[position]!.result) }
        }
    }

    /// The output at `path` of the job at `position` was moved into place with `record` as its
    /// sidecar. Called inside the commit, so a second signal's report agrees with the disk.
    func committed(_ path: String, record: OutputRecord, at position: Int) {
        update(at: position) { result in
            if let index = result.outputs.firstIndex(where: { $0.path == path }) { result.outputs[index].record = record }
        }
    }

    /// The job at `position` ended with `status`.
    /// - Returns: its result, as the report will show it.
    @discardableResult
    func finish(at position: Int, _ status: JobStatus, error: String?) -> JobResult {
        state.withLock { state in
            let running = state.running.removeValue(forKey: position)
            var result = running?.result ?? JobResult(id: "", status: status, outputs: [], seconds: 0, error: nil)
            result.status = status
            result.error = error
            result.seconds = running.map { (ContinuousClock.now - $0.started).seconds } ?? 0
            state.finished[position] = result
            return result
        }
    }

    /// The report as things stand, jobs in manifest order: finished jobs as they ended; jobs
    /// under way interrupted, or rendered when every output of theirs is already in place (or as
    /// they ended, while their page poster is made); the others pending.
    /// - Parameter stop: what stopped the run (a signal or the caller), if anything did.
    package func report(stop: Stop?) -> BatchReport {
        let selected = request.selectedJobs
        let (finished, running) = state.withLock { ($0.finished, $0.running) }
        let jobs = selected.enumerated().map { position, job in
            if let result = finished[position] { return result }
            guard let current = running[position] else {
                return JobResult(id: job.id, status: .pending, outputs: job.outputPaths.map { OutputResult(path: $0) },
                                 seconds: 0, error: stop == .caller ? "not started: the run was cancelled by the caller" : "not started: the run was interrupted", index: indices[position], row: job.row)
            }
            var result = current.result
            let written = result.outputs.filter { $0.record != nil }.count
            let done = written == result.outputs.count
            // A job whose outcome was decided (its page poster under way) ended as it says.
            let decided = [JobStatus.rendered, .skipped].contains(result.status)
            result.status = decided ? result.status : done ? .rendered : .interrupted
            result.error = decided || done ? nil : "\((stop ?? .caller).words); "
                + (written == 0 ? "nothing of it was written" : "\(written) of its \(result.outputs.count) outputs were written")
            result.seconds = (ContinuousClock.now - current.started).seconds
            return result
        }
        var report = BatchReport(manifest: request.manifest.reportName, digest: digest, version: request.version, shard: request.shard,
                                 force: request.force, started: started, seconds: (ContinuousClock.now - clock).seconds,
                                 jobs: jobs, signal: stop?.signal)
        report.isCancelled = stop == .caller
        report.prune = request.prune
        report.campaignDescription = request.manifest.campaignDescription
        return report
    }
}
