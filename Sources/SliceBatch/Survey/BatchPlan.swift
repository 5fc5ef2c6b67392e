// `slicevid batch --plan`: what a run would do with each job, and why, without a lock and
// without writing anything: up to date; will render, with every reason (a new or missing
// output, a still whose bytes changed, a setting changed from what to what, another slicevid);
// refused (a file slicevid did not write is at an output); or will fail (a still is missing).

import SliceCampaign
import SliceKit
import SliceMedia
import SlicePipeline

/// What a run would do with one job.
public struct JobPlan: Sendable {
    /// The job's state as a run would find it.
    public enum State: Sendable, Equatable {
        /// Every output is there as its sidecar records; the run skips it.
        case upToDate
        /// The run renders it, for these reasons.
        case willRender([RenderReason])
        /// Something at an output path may not be replaced (the text names it); the job
        /// fails with 73 unless `--force`.
        case refused(String)
        /// An input is missing or unreadable, or the job cannot be planned.
        case willFail(String)

        /// `up-to-date`, `will-render`, `refused`, `will-fail`: the JSON log's `state`.
        public var name: String {
            switch self {
            case .upToDate: "up-to-date"
            case .willRender: "will-render"
            case .refused: "refused"
            case .willFail: "will-fail"
            }
        }
    }

    public package(set) var id: String
    public package(set) var state: State
    /// Folders a render would create first.
    public package(set) var folders: [String]
    /// The layout's warnings a render of the job would tell (overlaps, a shrunk size), each
    /// once per run: a later job of the same layout and aspect has none of its first's.
    public package(set) var warnings: [LayoutWarning] = []
    /// Each moving layer's times on the job's clip (`layer 'name': shows 2.1–3.5 s; in …`),
    /// for a job that will render.
    public package(set) var motion: [String] = []
}

/// Plans a manifest's jobs without rendering, locking or writing.
package enum BatchPlan {
    /// The state of each selected job, in manifest order. Stills are hashed (read), and decoded
    /// only when a job that would render has a layout with text, to measure its contrast as
    /// `--check` and the run do; a layout's layers are drawn, as `--check` draws them.
    package static func run(_ request: BatchRequest, cancellation: Cancellation = Cancellation()) -> [JobPlan] {
        let hashes = InputHashes()
        let remote = RemoteAssets(options: request.remote)
        let ahead = remote.prefetch(RemoteInputs.urls(of: request.selectedJobs)) { cancellation.isCancelled }
        defer { ahead.finish() }
        let told = WarningsTold()
        return request.selectedJobs.map { manifestJob in
            let survey: JobSurvey
            let local: RemoteInputs
            do throws(JobSurvey.Trouble) {
                // A URL is revalidated (a conditional request) as a run would, so a changed
                // image shows as one; nothing but the cache is written.
                local = try RemoteInputs(manifestJob, remote: remote, hashes: hashes, cancellation: cancellation)
                survey = try JobSurvey(local.job, version: request.version, hashes: hashes, fileNames: local.fileNames, cancellation: cancellation)
            } catch .failed(let reason), .unreachable(let reason) {
                return JobPlan(id: manifestJob.id, state: .willFail(RemoteURL.scrub(reason)), folders: [])
            } catch {
                return JobPlan(id: manifestJob.id, state: .willFail("interrupted while hashing its stills"), folders: [])
            }
            let job = local.job
            if !request.force && survey.isUpToDate { return JobPlan(id: job.id, state: .upToDate, folders: []) }
            // As `--check`, `make --dry-run` and the run: the layout's text set (a character no
            // font has, text that does not fit) and its pictures drawn, without a frame.
            var warnings: [LayoutWarning] = []
            var motion: [String] = []
            do throws(SlicevidError) {
                let request = try job.request(force: true)
                let planned = try MakeJob.plan(request)
                warnings = try told.drawn(request, planned)
                motion = planned.layout?.scheduleLines ?? []
            } catch where error.category != .outputBlocked {
                return JobPlan(id: job.id, state: .willFail(error.message(job.wording(run: request.runWording))), folders: [])
            } catch {}
            let licences = survey.replacements(force: request.force)
            var folders: [String] = []
            for destination in job.outputs.map(\.destination) {
                do throws(SlicevidError) {
                    try OutputTarget.check(destination, replacing: licences[destination.path ?? ""] ?? .nothing)
                } catch {
                    return JobPlan(id: job.id, state: error.category == .outputBlocked ? .refused(error.message(job.wording(run: request.runWording))) : .willFail(error.message(job.wording(run: request.runWording))),
                                   folders: [])
                }
                folders += OutputTarget.missingFolders(of: destination).filter { !folders.contains($0) }
            }
            return JobPlan(id: job.id, state: .willRender(survey.reasons(images: local.shownImages, validators: local.validators, shown: local.words, force: request.force, wording: request.runWording)), folders: folders,
                           warnings: warnings, motion: motion)
        }
    }
}
