// `slicevid batch --check`: everything a run would trip over, found without rendering — stills
// that are missing or do not decode, outputs their codec cannot write as asked, output folders
// that are missing or read-only, files at output paths a run may not replace — and what a run
// would replace or delete.

import SliceKit
import SliceMedia
import SlicePipeline

/// The problems found in one job, and what a run would do to files already on disk.
public struct JobCheck: Sendable {
    public package(set) var id: String
    /// One line each, naming the file and what is wrong; empty when the job would render.
    public package(set) var problems: [String]
    /// One line each: a file a run would replace, frames it would delete, temporaries of
    /// crashed runs it would remove. Empty when the job is up to date or writes only new files.
    public package(set) var changes: [String]
    /// The missing folders a run would create for the job (jobs may share one).
    public package(set) var folders: [String] = []
    /// Whether every output is up to date, so a run would skip the job.
    public package(set) var isUpToDate = false
    /// The layout's warnings a render would tell (overlaps, a shrunk size), each once per run.
    public package(set) var warnings: [LayoutWarning] = []
}

/// Checks a manifest's jobs without rendering. The manifest itself (fields, presets, unique
/// ids and outputs) was checked when it was loaded.
package enum BatchCheck {
    /// Checks each selected job: every still exists and decodes, every output's folder exists
    /// and is writable, and nothing is at an output path that the run may not replace (its
    /// sidecar does not record it, unless `force`).
    /// - Returns: one entry per selected job, in manifest order.
    package static func run(_ request: BatchRequest) -> [JobCheck] {
        var stills: [String: String?] = [:]
        let hashes = InputHashes()
        let remote = RemoteAssets(options: request.remote)
        let ahead = remote.prefetch(RemoteInputs.urls(of: request.selectedJobs)) { false }
        defer { ahead.finish() }
        let told = WarningsTold()
        return request.selectedJobs.map { manifestJob in
            var problems: [String] = []
            var warnings: [LayoutWarning] = []
            // Remote stills are fetched into the cache and checked there, named by their URL.
            var job = manifestJob
            var local: RemoteInputs?
            do throws(JobSurvey.Trouble) {
                local = try RemoteInputs(manifestJob, remote: remote, hashes: hashes, cancellation: Cancellation())
                job = local?.job ?? manifestJob
            } catch .failed(let reason), .unreachable(let reason) {
                return JobCheck(id: job.id, problems: [RemoteURL.scrub(reason)], changes: [])
            } catch {
                return JobCheck(id: job.id, problems: ["interrupted while fetching its inputs"], changes: [])
            }
            for path in job.images {
                if stills[path] == nil { stills[path] = decodeProblem(path) }
                if let problem = (stills[path] ?? nil).map({ local?.words($0) ?? $0 }), !problems.contains(problem) { problems.append(problem) }
            }
            // What make would refuse before rendering: a crf out of the codec's range, alpha in
            // an MP4, a missing encoder. Output paths are reported below.
            do throws(SlicevidError) {
                // As a run would: its layout's text set (a character no font has, text that
                // does not fit), without rendering a frame.
                let request = try job.request(force: true)
                let planned = try MakeJob.plan(request)
                // Contrast is measured on the decoded stills; one that failed was reported above.
                if problems.isEmpty { warnings = try told.drawn(request, planned) } else { _ = try planned.layout?.draw() }
            } catch {
                if error.category != .outputBlocked { problems.append(error.message(job.wording(run: request.runWording))) }
            }
            // A still that cannot be hashed was reported above, as missing or undecodable.
            let survey = try? JobSurvey(job, version: request.version, hashes: hashes, fileNames: local?.fileNames ?? [:], cancellation: Cancellation())
            if let survey, !request.force, survey.isUpToDate {
                return JobCheck(id: job.id, problems: problems, changes: [], isUpToDate: problems.isEmpty, warnings: warnings)
            }
            let licences = survey?.replacements(force: request.force)
            var changes: [String] = []
            var folders: [String] = []
            for destination in job.outputs.map(\.destination) {
                let output = destination.path ?? ""
                for folder in OutputTarget.missingFolders(of: destination) where !folders.contains(folder) { folders.append(folder) }
                let replacing = licences?[output] ?? (request.force ? .anything : licence(output))
                do throws(SlicevidError) {
                    try OutputRecord.checkPlace(for: output)
                    // A job that cannot be planned will not run: its outputs are only checked.
                    guard let frames = survey?.outputs.first(where: { $0.path == output })?.frames else {
                        try OutputTarget.check(destination, replacing: replacing)
                        continue
                    }
                    changes += describe(try OutputTarget.survey(destination, frames: frames, replacing: replacing), of: output,
                                        forced: request.force, wording: request.runWording)
                } catch {
                    problems.append(error.message(job.wording(run: request.runWording)))
                }
            }
            return JobCheck(id: job.id, problems: problems, changes: changes, folders: folders, warnings: warnings)
        }
    }

    /// What the sidecar of `output` licenses, for a job that could not be surveyed whole.
    private static func licence(_ output: String) -> Replacement {
        guard let format = OutputFormat(path: output) else { return .recorded([]) }
        return OutputRecord.reading(for: output).licence(output: output, format: format)
    }

    /// One line per kind of change a commit of `output` would make.
    private static func describe(_ survey: OutputSurvey, of output: String, forced: Bool, wording: any Wording) -> [String] {
        let why = forced ? wording.name(.force) : "its sidecar records that slicevid wrote it"
        var lines: [String] = []
        func frames(_ count: Int) -> String { count == 1 ? "1 frame" : "\(count) frames" }
        if survey.replaced == [output] {
            lines.append("would replace \(output) (\(why))")
        } else if !survey.replaced.isEmpty {
            lines.append("would replace \(frames(survey.replaced.count)) of \(output), \(range(survey.replaced)) (\(why))")
        }
        if !survey.deleted.isEmpty {
            lines.append("would delete \(frames(survey.deleted.count)) past the new end of \(output), \(range(survey.deleted)) (\(why))")
        }
        if !survey.stale.isEmpty {
            lines.append("would remove \(survey.stale.count) temporar\(survey.stale.count == 1 ? "y" : "ies") of \(output) left by runs that are gone: \(survey.stale.joined(separator: ", "))")
        }
        return lines
    }

    /// `first … last`, or the one file.
    private static func range(_ files: [String]) -> String {
        files.count == 1 ? files[0] : "\(files[0]) … \(files[files.count - 1])"
    }

    /// Why the still at `path` cannot be used, or nil when it decodes.
    private static func decodeProblem(_ path: String) -> String? {
        do {
            // Decoding is the test; a tiny fitted size keeps the check fast for big stills.
            _ = try StillDecoder.load(path: path, width: 8, height: 8, fit: .cover, background: .black)
            return nil
        } catch {
            return error.description
        }
    }
}
