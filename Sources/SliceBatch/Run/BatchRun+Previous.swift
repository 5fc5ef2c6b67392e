// What viewers still see of a job that failed tonight: its earlier render, where the files are
// on disk exactly as slicevid wrote them (its sidecar's stamps match, and the sidecar is the
// running user's own record), and the page's poster of that render. The report and the page say
// "previous version live" instead of "not written".

import Foundation
import SliceCampaign
import SliceMedia
import SlicePipeline
import SliceReports

extension BatchRun {
    /// An earlier render of a job, still live.
    struct Previous {
        /// The records of its outputs still on disk as slicevid wrote them, by output path.
        var outputs: [String: OutputRecord] = [:]
        /// The page's poster of it, when the run writes a page and the poster is still slicevid's.
        var poster: String?
    }

    /// The earlier render of `job` still on disk: only outputs whose sidecar is a record of the
    /// running user's, names this job, and stamps the files that are there now.
    static func previous(of job: ManifestJob, request: BatchRequest) -> Previous {
        var previous = Previous()
        func live(_ path: String, format: OutputFormat) -> OutputRecord? {
            guard let record = OutputRecord.reading(for: path).record, record.job == nil || record.job == job.id,
                  record.stampsDisk(output: path, format: format) else { return nil }
            return record
        }
        for path in job.outputPaths {
            guard let format = OutputFormat(path: path), let record = live(path, format: format) else { continue }
            previous.outputs[path] = record
        }
        if wantsPoster(job, request: request), let folder = request.posterFolder {
            let poster = folder + "/" + ReportPage.posterName(for: job.id)
            if live(poster, format: .jpeg) != nil { previous.poster = poster }
        }
        return previous
    }
}
