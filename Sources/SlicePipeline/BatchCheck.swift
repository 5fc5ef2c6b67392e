// `slicevid batch --check`: everything a run would trip over, found without rendering — stills
// that are missing or do not decode, outputs their codec cannot write as asked, output folders
// that are missing or read-only.

import SliceKit
import SliceMedia

/// The problems found in one job; empty when it would render.
public struct JobCheck: Sendable {
    public var id: String
    /// One line each, naming the file and what is wrong.
    public var problems: [String]
}

/// Checks a manifest's jobs without rendering. The manifest itself (fields, presets, unique
/// ids and outputs) was checked when it was loaded.
public enum BatchCheck {
    /// Checks each selected job: every still exists and decodes, every output's folder exists
    /// and is writable.
    /// - Returns: one entry per selected job, in manifest order.
    public static func run(_ request: BatchRequest) -> [JobCheck] {
        var stills: [String: String?] = [:]
        return request.selectedJobs.map { job in
            var problems: [String] = []
            for path in job.images {
                if stills[path] == nil { stills[path] = decodeProblem(path) }
                if let problem = stills[path] ?? nil, !problems.contains(problem) { problems.append(problem) }
            }
            // What make would refuse before rendering: a crf out of the codec's range, alpha in
            // an MP4, a missing encoder. Folders are reported by the loop below.
            do throws(SlicevidError) {
                _ = try MakeJob.plan(job.request(force: true))
            } catch {
                if error.category != .outputBlocked { problems.append(error.message) }
            }
            for output in job.outputs {
                do throws(SlicevidError) {
                    // Reserving the temporary name proves the folder takes files; released at once.
                    _ = try OutputTarget(path: output, force: true)
                } catch {
                    problems.append(error.message)
                }
            }
            return JobCheck(id: job.id, problems: problems)
        }
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
