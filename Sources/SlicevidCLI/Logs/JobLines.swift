// Lines that name jobs, with a layout's mistakes said once: a layer under a platform's buttons
// or a size too big for a frame is the same line for every job of that layout and aspect (12 to
// 36 in a campaign), so such a line names how many jobs it stops and the first few of them.

import Slicevid

/// Jobs' lines as `--check`, `--plan` and a run's summary print them.
enum JobLines {
    /// One line's subject and text: `job 'a'`, or `12 jobs ('a', 'b', 'c' and 9 more)`.
    struct Line: Equatable {
        let jobs: [String]
        let text: String

        var subject: String {
            guard jobs.count > 1 else { return "job \(InputText.quoted(jobs.first ?? ""))" }
            let shown = jobs.prefix(3).map(InputText.quoted).joined(separator: ", ")
            return "\(jobs.count) jobs (\(shown)\(jobs.count > 3 ? " and \(jobs.count - 3) more" : ""))"
        }
    }

    /// `lines` (job id and text, in order) with each layout mistake (a text that begins with
    /// `layout `) said once, where it first came, for every job it was said for; every other
    /// line kept as it is, per job.
    static func grouped(_ lines: [(job: String, text: String)]) -> [Line] {
        var result: [Line] = []
        var layoutLine: [String: Int] = [:]
        for (job, text) in lines {
            guard text.hasPrefix("layout ") else {
                result.append(Line(jobs: [job], text: text))
                continue
            }
            if let index = layoutLine[text] {
                if !result[index].jobs.contains(job) { result[index] = Line(jobs: result[index].jobs + [job], text: text) }
            } else {
                layoutLine[text] = result.count
                result.append(Line(jobs: [job], text: text))
            }
        }
        return result
    }
}
