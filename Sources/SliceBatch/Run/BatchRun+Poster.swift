// The report page's poster of a job that writes no picture of its own: made by the run, never by
// decoding a video afterwards. A job that renders keeps its last frame as it goes (`LastFrame`);
// a job that is skipped and has no poster up to date renders its frames once more, encoding
// nothing, in the layout its first output is rendered in, so the poster is the same either way. The
// poster is an output like any other: written atomically, with a sidecar that records it as
// slicevid's, replacing only a poster slicevid wrote, and kept while up to date. It never
// changes what the job writes, nor whether it fails.

import Foundation
import SliceCampaign
import SliceKit
import SliceMedia
import SlicePipeline
import SliceReports

extension BatchRun {
    /// What became of a job's poster.
    struct Poster {
        /// The poster on disk, up to date; nil when the job shows a picture of its own or none was made.
        var path: String?
        /// Why none could be made.
        var error: String?
    }

    /// Whether the run makes a poster of `job` for its report page: it writes a page, and the
    /// job no poster or storyboard of its own.
    static func wantsPoster(_ job: ManifestJob, request: BatchRequest) -> Bool {
        request.posterFolder != nil && !job.writesPicture
    }

    /// Keeps the last frame of `job`'s render for its poster.
    static func lastFrame(of job: ManifestJob) -> LastFrame {
        LastFrame(frameWidth: job.spec.width, frameHeight: job.spec.height, side: ReportPage.posterSide)
    }

    /// Writes (or finds up to date) the page's poster of `job`, which rendered or was skipped.
    /// - Parameters:
    ///   - survey: the job's fingerprint and render layout, from this run's hashes of its inputs.
    ///   - rendered: the job's last frame when it rendered just now; nil renders it again when
    ///     the poster on disk is not up to date.
    ///   - cancellation: the run's; a stop leaves no poster and no temporary.
    static func poster(for job: ManifestJob, survey: JobSurvey, rendered: LastFrame?, request: BatchRequest,
                       cancellation: Cancellation) -> Poster {
        guard wantsPoster(job, request: request), let folder = request.posterFolder else { return Poster() }
        let path = folder + "/" + ReportPage.posterName(for: job.id)
        let frame = rendered ?? lastFrame(of: job)
        // The job's lines, and what the poster is: its size, and the layout its frame was drawn in.
        var fingerprint = Fingerprint(lines: survey.fingerprint.lines + ["poster jpeg canvas=\(survey.canvas.rawValue) size=\(frame.width)x\(frame.height) frame=last"])
        let sidecar = OutputRecord.reading(for: path)
        if let record = sidecar.record, record.fingerprint == fingerprint.value, record.describesDisk(output: path, format: .jpeg) {
            return Poster(path: path)
        }
        let wording = job.wording(run: request.runWording)
        if rendered == nil {
            do {
                var render = try job.request(force: true, renderThreads: request.renderThreads)
                // Frames only, drawn as the job's outputs would have them; no sound.
                try render.setOutputs([Output(.discard)])
                render.audio = AudioSettings()
                render.canvas = survey.canvas
                render.layoutDigests = survey.layoutDigests
                render.lastFrame = frame
                _ = try MakeJob.run(render, cancellation: Cancellation(parent: cancellation))
            } catch {
                return Poster(error: error.message(wording))
            }
        }
        // An input replaced while the frames were drawn: recorded as for the job's own outputs,
        // so the next run makes the poster again.
        let changed = survey.inputsChangedSinceHashing()
        if !changed.stills.isEmpty || changed.audio { fingerprint = fingerprint.marking(stills: changed.stills, audio: changed.audio) }
        guard let picture = frame.picture else { return Poster(error: "the last frame was never drawn") }
        do {
            try write(picture, to: path, fingerprint: fingerprint, manifest: request.manifest.reportName, job: job.id,
                      replacing: request.force ? .anything : sidecar.licence(output: path, format: .jpeg))
        } catch {
            return Poster(error: error.message(wording))
        }
        return Poster(path: path)
    }

    /// Writes `picture` as a JPEG at `path` through a temporary beside it, and moves it into
    /// place with its sidecar, which names the manifest and the job: once the manifest no longer
    /// has the job, or the job writes a picture of its own, the poster is an orphan that runs
    /// writing the page report and `--prune` deletes (`Orphan.find(in:posterFolder:)`).
    private static func write(_ picture: RGBAImage, to path: String, fingerprint: Fingerprint, manifest: String, job: String,
                              replacing: Replacement) throws(SlicevidError) {
        let target = try OutputTarget(path: path, replacing: replacing)
        do throws(SlicevidError) {
            do {
                try StillWriter.write(picture, to: target.temporaryPath, file: target.file, format: .jpeg)
            } catch {
                throw SlicevidError(.outputFailed, "\(output: path): \(error.message)")
            }
            let facts = WrittenOutput(path: path, format: .jpeg, frames: 1, frameRate: nil, seconds: 0, bytes: 0)
            try target.commit(recording: { files in OutputRecord(files: files, fingerprint: fingerprint, written: facts, manifest: manifest, job: job) })
        } catch {
            target.discard()
            OutputTarget.removeEmpty(target.createdFolders)
            throw error
        }
    }
}
