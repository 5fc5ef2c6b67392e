// A campaign's reports through the library, as `slicevid report merge` and `report html` make
// them: the shards' reports merged into one that says whether the campaign is whole, and the
// morning page of a report. Each is written atomically, over an earlier one of its kind only.

import Foundation
import SliceKit
import SlicePipeline
import SliceReports

extension Slicevid {
    /// Merges the reports of a campaign's shards (each `batch --shard K/N`'s `--report`) into
    /// one, and says whether every job of the manifest is in it exactly once, rendered or up to
    /// date (`isComplete`, else `problems`).
    /// - Parameters:
    ///   - paths: the shards' reports.
    ///   - output: where the merged report goes, written atomically; nil writes nothing (its
    ///     bytes are `json`). It may replace only an earlier slicevid report unless `force`, and
    ///     never one of `paths`.
    /// - Throws: `SlicevidError`: `.usage` for reports of different manifests, versions or
    ///   shard counts, or an `output` among them; `.inputInvalid`, `.inputMissing` for a report
    ///   that cannot be read as one; `.outputBlocked` when `output` cannot be written.
    public static func mergeReports(_ paths: [String], writingTo output: String? = nil, force: Bool = false) throws(SlicevidError) -> ReportMerge {
        if let output {
            try refuseReplacingSource(output, sources: paths) { report in
                "is also one of the reports to merge (\(InputText.quoted(report))); write the merged report elsewhere"
            }
            try BatchReport.checkReplaceable(output, force: force, setting: .outputs)
        }
        let merge = try ReportMerge(paths: paths)
        if let output {
            try WholeWrites.exclusively { () throws(SlicevidError) in try BatchReport.write(merge.json, to: output, force: force, setting: .outputs) }
        }
        return merge
    }

    /// The morning page of the report at `report` (a shard's, a whole run's or a merged one):
    /// one self-contained HTML file, a tile per job, failures first.
    /// - Parameters:
    ///   - page: where the page goes, written atomically; its pictures and outputs are linked
    ///     relative to it. nil writes nothing (the page is `html`, linked relative to the
    ///     working folder). It may replace only an earlier page unless `force`, and never the
    ///     report.
    /// - Throws: `SlicevidError`: `.usage` for a report of another schema, or `page` naming the
    ///   report; `.inputInvalid`, `.inputMissing` for a report that cannot be read as one;
    ///   `.outputBlocked` when `page` cannot be written.
    public static func reportPage(of report: String, writingTo page: String? = nil, force: Bool = false) throws(SlicevidError) -> ReportPage {
        if let page {
            try refuseReplacingSource(page, sources: [report]) { _ in "is the report itself; write the page elsewhere (index.html)" }
            try BatchReport.checkReplaceable(page, force: force, setting: .outputs, form: .page)
        }
        let made = try ReportPage(reportAt: report, page: page.map { URL(fileURLWithPath: $0).standardizedFileURL.path })
        if let page {
            try WholeWrites.exclusively { () throws(SlicevidError) in
                try BatchReport.write(made.html, to: page, force: force, setting: .outputs, form: .page)
            }
        }
        return made
    }

    /// Tells `notification`'s webhook that the run of `report` is over: POSTs its JSON report
    /// (or a one-line summary), signed when the notification has a secret, retrying a network
    /// error, a 5xx or a 429 with doubling waits. Never throws: the run's outcome is the report's.
    /// - Returns: nil when the webhook answered 2xx; else why not, in one line that shows the
    ///   URL without its path or query.
    public static func notify(_ report: BatchReport, via notification: RunNotification) -> String? {
        notification.send(notification.body(for: report))
    }

    /// Refuses an `output` that is one of `sources` (the same file, whatever its name): what is
    /// made from a report must not take its place.
    private static func refuseReplacingSource(_ output: String, sources: [String], why: (String) -> String) throws(SlicevidError) {
        var target = stat()
        guard FileSystem.lstat(output, &target) == 0 else { return }
        for source in sources {
            var status = stat()
            if FileSystem.stat(source, &status) == 0, status.st_dev == target.st_dev, status.st_ino == target.st_ino {
                throw SlicevidError(.usage, "\(setting: .outputs) \(InputText.quoted(output)): \(why(source))")
            }
        }
    }
}
