// `slicevid batch`: every job of a manifest (or of one shard of it), up to `parallel` at once,
// each skipped when its outputs' fingerprints still match, rendered otherwise, and failing
// alone when it fails. Jobs start in manifest order; each prints, records and commits its own.

import Foundation
import Glibc
import SliceCampaign
import SliceKit
import SliceMedia
import SlicePipeline
import SliceReports
import Synchronization

/// Everything a batch run needs: the manifest, which of its jobs, and how to run them.
public struct BatchRequest: Sendable {
    package var manifest: Manifest
    /// The jobs this run renders.
    package var shard: Shard
    /// Re-render every job, whatever the fingerprints say, and replace files at output paths
    /// that slicevid's sidecars do not record.
    public var force: Bool
    /// Render threads per job (the command line's `--jobs`).
    public private(set) var renderThreads: Int
    /// The cores shared among the jobs side by side: their render threads by default, and each
    /// output's encoder threads (which do not depend on `parallel`, so neither do the bytes).
    public private(set) var threads: ThreadBudget
    /// Jobs rendered at once.
    public private(set) var parallel: Int
    /// Where the JSON report is written (atomically, also on a second signal); nil for none.
    public var reportFile: String?
    /// Where the report's HTML page is written (atomically, also on a second signal), with a
    /// poster for each job that asks for no picture of its own made into `posterFolder`;
    /// nil for none.
    public var reportPage: String?
    /// How many runs the report page keeps in its history (`index.history/` beside
    /// `index.html`), this one included, within `ReportHistory.keptRange`; 0 keeps none.
    public var reportHistory = ReportHistory.defaultKept
    /// Delete the outputs (and sidecars) this manifest wrote for jobs it no longer has, while
    /// they are unchanged since (`batch --prune`); without it they are only reported.
    public private(set) var prune: Bool
    /// The most one prune may delete (`--prune-max`): a run that would delete more deletes
    /// nothing and says so (`BatchReport.Outcome.pruneRefused`).
    public private(set) var pruneLimit: PruneLimit
    /// Render only the jobs whose feed row key is one of these, or whose id matches one as a
    /// glob (`NL-10*`); empty for every job (`batch --only`).
    public private(set) var only: [String]
    /// The slicevid version, part of every fingerprint.
    package var version: String

    /// How remote inputs (URLs among stills and songs) are fetched and cached.
    public var remote = RemoteOptions()

    /// Encoders' own warnings reach stderr (`--verbose`).
    package var verbose = false
    /// How the front end that started the run names its own settings (`--force`) in job errors.
    package var runWording: any Wording = KeyWording()

    /// A run of `manifest`'s jobs in `shard`.
    /// - Parameters:
    ///   - parallel: jobs at once, within `parallelRange`; nil chooses from the cores and the
    ///     frames the jobs encode (`defaultParallel`).
    ///   - renderThreads: render threads per job, within `MakeRequest.renderThreadsRange`; nil
    ///     shares the cores among the jobs at once.
    ///   - threads: the cores shared out; this machine's by default.
    ///   - reportFile: where the JSON report goes.
    ///   - reportPage: where its HTML page goes (and the posters, beside it).
    ///   - prune: delete what the manifest wrote for jobs it no longer has.
    ///   - pruneLimit: the most one prune may delete.
    ///   - only: keys or id globs of the jobs to render; empty for all.
    /// - Throws: `SlicevidError(.usage)` naming the setting out of range, a pattern of `only`
    ///   that matches no job, `prune` with a shard or a manifest on standard input.
    package init(manifest: Manifest, shard: Shard = .all, force: Bool = false, renderThreads: Int? = nil, parallel: Int? = nil,
                 reportFile: String? = nil, reportPage: String? = nil, prune: Bool = false, pruneLimit: PruneLimit = .standard,
                 only: [String] = [], version: String, threads: ThreadBudget = .machine) throws(SlicevidError) {
        self.manifest = manifest
        self.shard = shard
        self.force = force
        self.reportFile = reportFile
        self.reportPage = reportPage
        self.version = version
        self.prune = prune
        self.pruneLimit = pruneLimit
        self.only = only
        if prune && shard != .all {
            throw SlicevidError(.usage, "\(setting: .prune) works on the whole manifest, not one shard (each shard would delete what the others see); run it once without \(setting: .shard) after the shards finished")
        }
        if prune && manifest.isStandardInput {
            throw SlicevidError(.usage, "\(setting: .prune) needs the manifest as a file: sidecars name the manifest that wrote them, and standard input has no name to tell one manifest from another")
        }
        for pattern in only where !manifest.jobs.contains(where: { BatchRequest.matches(pattern, $0) }) {
            throw SlicevidError(.usage, "\(setting: .only) \(InputText.quoted(pattern)): no job has this feed key, and no job id matches it")
        }
        let selected = manifest.jobs.filter { BatchRequest.selects($0, shard: shard, only: only) }
        self.threads = threads
        let parallel = parallel ?? BatchRequest.defaultParallel(for: selected, threads: threads)
        guard BatchRequest.parallelRange.contains(parallel) else {
            throw SlicevidError(.usage, "\(setting: .parallel): \(parallel) is not a whole number \(BatchRequest.parallelRange.lowerBound)–\(BatchRequest.parallelRange.upperBound)")
        }
        self.parallel = parallel
        let range = MakeRequest.renderThreadsRange
        let render = renderThreads ?? threads.renderThreads(sharedBy: parallel)
        guard range.contains(render) else {
            throw SlicevidError(.usage, "\(setting: .renderThreads): \(render) must be \(range.lowerBound)–\(range.upperBound)")
        }
        self.renderThreads = render
    }

    /// The folder the report page's posters go into (`index.files` beside `index.html`), absolute
    /// as every path in a report is.
    package var posterFolder: String? {
        reportPage.map { ReportPage.posterFolder(for: URL(fileURLWithPath: $0).standardizedFileURL.path) }
    }

    /// The manifest's jobs in this run's shard (and `only`), in file order.
    package var selectedJobs: [ManifestJob] { manifest.jobs.filter(selects) }

    /// Whether this run renders `job`: in its shard, and named by `only` when that is given.
    package func selects(_ job: ManifestJob) -> Bool { BatchRequest.selects(job, shard: shard, only: only) }

    private static func selects(_ job: ManifestJob, shard: Shard, only: [String]) -> Bool {
        shard.contains(job.id) && (only.isEmpty || only.contains { matches($0, job) })
    }

    /// Whether `pattern` names `job`: its feed row's key, or a glob (`*`, `?`, `[…]`) its id matches.
    static func matches(_ pattern: String, _ job: ManifestJob) -> Bool {
        job.row?.key == pattern || job.id == pattern || fnmatch(pattern, job.id, 0) == 0
    }

    /// The parallel values accepted.
    public static let parallelRange = 1...64
    /// The runs a report page may keep in its history, and how many it keeps by default.
    public static let reportHistoryRange = ReportHistory.keptRange
    public static let defaultReportHistory = ReportHistory.defaultKept

    /// Jobs at once when none is asked for: as many as `threads` lets jobs of the largest
    /// encoding among `jobs` run side by side (`ThreadBudget.jobsSideBySide`: the cores shared
    /// one per 1280x720 of frame, and no more jobs than keep three 1920x1080 frames in their
    /// encoders), at least 1 and at most the number of jobs. A job with an MP4 and a WebM
    /// encodes its frame twice. 640x360 on 2 cores: 2; 1920x1080 on 2 cores: 1, on 32: 3.
    package static func defaultParallel(for jobs: [ManifestJob], threads: ThreadBudget) -> Int {
        guard let largest = jobs.map(\.encodedPixels).max() else { return 1 }
        return max(1, min(jobs.count, parallelRange.upperBound, threads.jobsSideBySide(pixels: largest)))
    }
}

/// What a batch run reports as it goes. `position` counts from 1 among the selected jobs, in
/// manifest order (with several jobs at once, they finish in any order).
public enum BatchEvent: Sendable {
    /// The run starts `jobs` of the manifest's `total` jobs, up to `parallel` at once.
    case started(jobs: Int, total: Int, parallel: Int)
    /// A job's outputs are out of date (or `force` is on), for `reasons`: its render starts.
    case jobRendering(id: String, position: Int, count: Int, reasons: [RenderReason])
    /// A job created a missing output folder.
    case folderCreated(id: String, position: Int, count: Int, path: String)
    /// A job has a music bed, and these of its outputs carry no audio (GIF, stills, sequences).
    case jobWithoutAudio(id: String, position: Int, count: Int, outputs: [String])
    /// A job's render has `done` of `total` frames through every output.
    case jobProgress(id: String, position: Int, count: Int, done: Int, total: Int)
    /// A job's stills (paths) or music bed changed after they were hashed: its outputs were
    /// committed with sidecars that make the next run render them again.
    case jobInputsChanged(id: String, position: Int, count: Int, inputs: [String])
    /// A job's frames are all with its encoders, which are flushing.
    case jobFinishing(id: String, position: Int, count: Int)
    /// A layout warning (contrast, overlap, a shrunk size), told by the first job that meets
    /// it: once per layout, aspect and layer, not once per job.
    case jobWarning(id: String, position: Int, count: Int, warning: LayoutWarning)
    /// A job ended: rendered, skipped, failed or interrupted.
    case jobFinished(JobResult, position: Int, count: Int)
    /// The run ended, its report written when one was asked for: at the end of the run, or
    /// when the process ends at once on a second signal (then with the jobs under way
    /// interrupted and the rest pending).
    case finished(BatchReport)
}

/// Runs `slicevid batch`.
package enum BatchRun {
    /// Runs the selected jobs, `request.parallel` at a time. Never throws: a job's failure is
    /// its result, and a signal ends the run with the jobs not started `pending`.
    /// - Parameters:
    ///   - request: the manifest, shard and options.
    ///   - cancellation: set by SIGINT/SIGTERM; stops every job under way (hashing, decoding
    ///     or rendering) and the run.
    ///   - journal: where results are kept as they come in (a second signal reports from it);
    ///     a fresh one by default.
    ///   - events: progress callbacks; called from the jobs' threads, several at once.
    /// - Returns: the report of every selected job, in manifest order.
    package static func run(_ request: BatchRequest, cancellation: Cancellation, journal: BatchJournal? = nil,
                           events: @escaping @Sendable (BatchEvent) -> Void = { _ in }) -> BatchReport {
        let journal = journal ?? BatchJournal(request)
        let selected = request.selectedJobs
        let workers = max(1, min(request.parallel, selected.count))
        events(.started(jobs: selected.count, total: request.manifest.jobs.count, parallel: workers))
        let hashes = InputHashes()
        let told = WarningsTold()
        let remote = RemoteAssets(options: request.remote)
        // Every URL revalidated (or fetched) ahead of the jobs, several at once.
        let prefetching = remote.prefetch(RemoteInputs.urls(of: selected)) { cancellation.isCancelled }
        // Every job asked for its URLs by then, so this is over (or stopping): no transfer
        // outlives the run.
        defer { prefetching.finish() }
        let next = Atomic<Int>(0)
        // Each worker takes the next job in manifest order until none is left or a signal
        // came; a job's failure is its own.
        let work: @Sendable () -> Void = {
            while !cancellation.isCancelled {
                let index = next.add(1, ordering: .relaxed).oldValue
                guard index < selected.count else { return }
                let result = run(selected[index], at: index, count: selected.count, request: request, hashes: hashes, told: told, remote: remote,
                                 cancellation: cancellation, journal: journal, events: events)
                events(.jobFinished(result, position: index + 1, count: selected.count))
            }
        }
        if workers == 1 {
            work()
        } else {
            // Threads of their own: a job blocks for its whole render, which Dispatch's pool
            // (sized to the cores) must not be made to wait for.
            let done = DispatchGroup()
            for worker in 0..<workers {
                done.enter()
                let thread = Thread {
                    work()
                    done.leave()
                }
                thread.name = "slicevid.job.\(worker)"
                thread.start()
            }
            done.wait()
        }
        return journal.report(stop: cancellation.stop)
    }

    /// One job: fingerprint, then skip or render; each output's sidecar is written as it is
    /// moved into place.
    private static func run(_ manifestJob: ManifestJob, at index: Int, count: Int, request: BatchRequest, hashes: InputHashes, told: WarningsTold,
                            remote: RemoteAssets, cancellation: Cancellation, journal: BatchJournal,
                            events: @escaping @Sendable (BatchEvent) -> Void) -> JobResult {
        journal.begin(manifestJob, at: index)
        let position = index + 1
        var inputs: RemoteInputs?
        func finish(_ status: JobStatus, error: String? = nil) -> JobResult {
            // A failed job's earlier render, where it is still on disk as slicevid wrote it,
            // is what viewers see until a render succeeds: the report and the page say so.
            if status == .failed {
                let previous = BatchRun.previous(of: manifestJob, request: request)
                journal.update(at: index) { result in
                    for output in result.outputs.indices where result.outputs[output].record == nil {
                        result.outputs[output].live = previous.outputs[result.outputs[output].path]
                    }
                    result.previousPoster = previous.poster
                }
            }
            return journal.finish(at: index, status, error: error.map { inputs?.words($0) ?? RemoteURL.scrub($0) })
        }

        // Remote stills and songs first: the job then reads the cache's files.
        do throws(JobSurvey.Trouble) {
            inputs = try RemoteInputs(manifestJob, remote: remote, hashes: hashes, cancellation: cancellation)
        } catch .failed(let reason) {
            return finish(.failed, error: reason)
        } catch .unreachable(let reason) {
            journal.update(at: index) { $0.retryable = true }
            return finish(.failed, error: reason)
        } catch {
            let stop = cancellation.stop ?? .caller
            return finish(.interrupted, error: "\(stop.words) while fetching its inputs; nothing of it was written")
        }
        guard let local = inputs else { return finish(.failed) }
        let job = local.job

        let survey: JobSurvey
        do {
            survey = try JobSurvey(job, version: request.version, hashes: hashes, fileNames: local.fileNames, cancellation: cancellation)
        } catch .failed(let reason), .unreachable(let reason) {
            return finish(.failed, error: reason)
        } catch {
            let stop = cancellation.stop ?? .caller
            return finish(.interrupted, error: "\(stop.words) while hashing its stills; nothing of it was written")
        }
        journal.update(at: index) { $0.fingerprint = survey.fingerprint.value }
        // The report page's poster, for a job that writes no picture of its own: written after
        // the job, so the job's outputs and outcome never depend on it.
        func withPoster(_ status: JobStatus, rendered: LastFrame? = nil) -> JobResult {
            // Decided before the poster: a second signal meanwhile reports the job as it ended.
            journal.update(at: index) { $0.status = status }
            let poster = BatchRun.poster(for: job, survey: survey, rendered: rendered, request: request, cancellation: cancellation)
            journal.update(at: index) { result in
                result.poster = poster.path
                result.posterError = poster.error
            }
            return finish(status)
        }
        if !request.force && survey.isUpToDate {
            journal.update(at: index) { result in
                for (output, surveyed) in zip(result.outputs.indices, survey.outputs) { result.outputs[output].record = surveyed.record }
            }
            return withPoster(.skipped)
        }

        let reasons = survey.reasons(images: local.shownImages, validators: local.validators, shown: local.words, force: request.force, wording: request.runWording)
        journal.update(at: index) { $0.reasons = reasons }
        events(.jobRendering(id: job.id, position: position, count: count, reasons: reasons))
        var render: MakeRequest
        do {
            render = try job.request(force: request.force, renderThreads: request.renderThreads, threads: request.threads)
        } catch {
            return finish(.failed, error: error.message(job.wording(run: request.runWording)))
        }
        render.verbose = request.verbose
        // Without --force, an output replaces only the files its own sidecar says slicevid wrote.
        render.replacements = survey.replacements(force: request.force)
        // A font rewritten since the survey read it fails the job rather than drawing with bytes
        // the fingerprint does not describe.
        render.layoutDigests = survey.layoutDigests
        let fingerprints = Dictionary(survey.outputs.map { ($0.path, $0.fingerprint) }) { first, _ in first }
        // A still replaced since it was hashed may be what the frames were made from: the
        // sidecar then records no hash for it, so the next run renders again (and says why).
        let firstChange = Once()
        // Which manifest and job wrote each output: what `--prune` goes by once the job is gone.
        let manifest = request.manifest.reportName
        render.sidecar = { path, files, written in
            let fingerprint = fingerprints[path] ?? survey.fingerprint
            let changed = survey.inputsChangedSinceHashing()
            guard !changed.stills.isEmpty || changed.audio else {
                return OutputRecord(files: files, fingerprint: fingerprint, written: written, manifest: manifest, job: job.id)
            }
            if firstChange.claim() {
                let changedInputs = changed.stills.map { "still \($0) (\(local.shownImages[$0]))" }
                    + (changed.audio ? manifestJob.audio.file.map { ["music \(RemoteURL.redact($0))"] } ?? [] : [])
                events(.jobInputsChanged(id: job.id, position: position, count: count, inputs: changedInputs))
            }
            return OutputRecord(files: files, fingerprint: fingerprint.marking(stills: changed.stills, audio: changed.audio), written: written,
                                manifest: manifest, job: job.id)
        }
        render.onCommit = { path, record in journal.committed(path, record: record, at: index) }
        let lastFrame = BatchRun.wantsPoster(job, request: request) ? BatchRun.lastFrame(of: job) : nil
        render.lastFrame = lastFrame
        do {
            // The job's own flag: a render error stops this job only; signals still reach it.
            let report = try MakeJob.run(render, cancellation: Cancellation(parent: cancellation)) { event in
                switch event {
                case .createdFolder(let folder): events(.folderCreated(id: job.id, position: position, count: count, path: folder))
                case .progress(let done, let total): events(.jobProgress(id: job.id, position: position, count: count, done: done, total: total))
                case .finishing: events(.jobFinishing(id: job.id, position: position, count: count))
                case .withoutAudio(let outputs): events(.jobWithoutAudio(id: job.id, position: position, count: count, outputs: outputs.compactMap(\.path)))
                case .warning(let warning):
                    if told.first(warning.topic) {
                        journal.update(at: index) { $0.warnings.append(warning.text) }
                        events(.jobWarning(id: job.id, position: position, count: count, warning: warning))
                    }
                case .started, .audioReady: break
                }
            }
            journal.update(at: index) { $0.clipSeconds = report.clipSeconds }
        } catch {
            if error.category.isStop { return finish(.interrupted, error: error.message(job.wording(run: request.runWording))) }
            return finish(.failed, error: error.message(job.wording(run: request.runWording)))
        }
        return withPoster(.rendered, rendered: lastFrame)
    }
}

/// True for the first caller of `claim` only, whatever thread it is on.
private final class Once: Sendable {
    private let claimed = Atomic(false)

    func claim() -> Bool { !claimed.exchange(true, ordering: .relaxed) }
}

extension Duration {
    /// The duration in seconds, as a double for reports.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
