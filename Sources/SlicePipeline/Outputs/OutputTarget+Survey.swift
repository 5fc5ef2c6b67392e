// What committing an output would do to the files on disk now, without doing it: what
// `batch --check` reports for each output before a run is allowed near them.

import Foundation
import SliceMedia

/// The files a commit of one output would replace or delete, as things stand.
package struct OutputSurvey: Sendable, Equatable {
    /// Files at the output's names that would be replaced.
    package var replaced: [String] = []
    /// A sequence's old frames past its new end, which would be deleted.
    package var deleted: [String] = []
    /// Temporaries left by runs whose process is gone, which would be removed.
    package var stale: [String] = []
}

extension OutputTarget {
    /// What writing `frames` files to `destination` under `replacing` would replace or delete.
    /// - Throws: what `check(_:replacing:)` throws: outputBlocked (73) for a folder that
    ///   is missing or read-only, or a file at the path the licence does not cover.
    package static func survey(_ destination: Output.Destination, frames: Int, replacing: Replacement) throws(SlicevidError) -> OutputSurvey {
        try check(destination, replacing: replacing)
        guard let path = destination.path else { return OutputSurvey() }
        guard case .frames(let pattern) = destination else {
            var survey = OutputSurvey(stale: StaleTemporaries.find(output: path, frames: nil))
            if replacing.verdict(path, index: 0) == .ours { survey.replaced = [path] }
            return survey
        }
        var survey = OutputSurvey(stale: StaleTemporaries.find(output: path, frames: pattern))
        let existing = pattern.existing()
        survey.replaced = existing.filter { $0.index < frames }.map { pattern.path($0.index) }
        switch replacing {
        case .nothing:
            break
        case .anything:
            // Only the run of numbers right after the new end, as the commit deletes them.
            var index = frames
            while replacing.verdict(pattern.path(index), index: index) == .ours {
                survey.deleted.append(pattern.path(index))
                index += 1
            }
        case .recorded(let stamps, _):
            survey.deleted = existing.filter { $0.index >= frames && $0.index < stamps.count }.map { pattern.path($0.index) }
        }
        return survey
    }
}
