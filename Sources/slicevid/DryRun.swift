// `slicevid make --dry-run`: what each output would be, one line each, without rendering.
// `key=value` pairs with no spaces in values, so scripts can read them with `cut` or `read`.

import SlicePipeline
import SliceMedia

/// Formats a make plan for stdout.
enum DryRun {
    /// One line per output, in request order: `PATH: key=value …`.
    static func report(_ plan: MakePlan) -> [String] {
        var outputs = plan.outputs.makeIterator()
        var lines: [String] = []
        for path in plan.paths {
            guard path != OutputTarget.discard, let output = outputs.next() else {
                lines.append("\(path): render only (frames=\(plan.clip.frameCount))")
                continue
            }
            lines.append("\(path): " + output.summary.map { "\($0.key)=\($0.value)" }.joined(separator: " "))
        }
        return lines
    }

    /// The line on stderr saying what would be rendered (and which folders made).
    static func header(_ plan: MakePlan) -> String {
        let clip = plan.clip
        let folders = plan.foldersToCreate.isEmpty ? "" : " (would create folder\(plan.foldersToCreate.count == 1 ? "" : "s") \(plan.foldersToCreate.joined(separator: ", ")))"
        return "slicevid: dry run: would render \(clip.frameCount) frames of \(clip.width)x\(clip.height) at \(clip.frameRate) fps "
            + "in \(plan.renderLayout.rawValue)\(folders); nothing was written\n"
    }

    /// One JSON object per output, in request order.
    static func json(_ plan: MakePlan) -> [String] {
        []
    }
}
