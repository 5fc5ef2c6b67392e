// The layout warnings a run told (a text layer below its contrast, two layers that overlap, a
// shrunk size), on the page under its summary: a batch tells each once per layout and aspect,
// from the first job that met it, so each is one line here, with that job's id.

import SliceKit

extension ReportPage {
    /// How many warnings the page lists; the report keeps them all.
    static let shownWarnings = 50

    /// The warnings of the report's jobs, each text once, in manifest order: `(text, job)`, the
    /// text's paths relative to the page's folder, long ones cut.
    package var warnings: [(text: String, job: String)] {
        var seen: Set<String> = []
        var found: [(text: String, job: String)] = []
        let jobs = (report["jobs"] as? [Any] ?? []).compactMap { $0 as? [String: Any] }
        for job in jobs.sorted(by: { (Self.count($0["index"]) ?? 0) < (Self.count($1["index"]) ?? 0) }) {
            for case let warning as String in job["warnings"] as? [Any] ?? [] where seen.insert(warning).inserted {
                found.append((Self.shortened(Self.relativePaths(in: warning, folder: pageFolder), to: 2_000),
                              Self.shortened(job["id"] as? String ?? "?", to: 300)))
            }
        }
        return found
    }

    /// The warnings as the page's list under its summary; nothing when there are none.
    var warningList: String {
        let all = warnings
        guard !all.isEmpty else { return "" }
        var items = all.prefix(Self.shownWarnings).map { "<li>\(HTMLText.escaped($0.text)) <span>(job \(HTMLText.escaped($0.job)))</span></li>" }
        if all.count > Self.shownWarnings { items.append("<li>and \(all.count - Self.shownWarnings) more (see the jobs' \"warnings\" in the report)</li>") }
        return "<details class=\"warnings\" open><summary>\(all.count) layout warning\(all.count == 1 ? "" : "s")</summary><ul>" + items.joined() + "</ul></details>\n"
    }
}
