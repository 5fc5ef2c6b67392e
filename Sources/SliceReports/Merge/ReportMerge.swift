// `slicevid report merge shard-*.json -o campaign.json`: the shards' reports of one batch run
// become one report of the campaign, and whether the campaign is whole: every job of the
// manifest accounted for exactly once, no shard missing, nothing left unfinished or failed.

import Foundation
import SliceCampaign
import SliceKit
import SlicePipeline

/// The shard reports of one campaign, merged.
public struct ReportMerge {
    /// The reports, by shard index (then in the order given).
    package let reports: [ShardReport]
    /// The jobs in manifest order, one per index that some report has (the first report's
    /// when two have it).
    package let jobs: [ShardReport.Job]
    /// What keeps the campaign from being whole, one line each: missing shards and jobs,
    /// jobs reported twice, shards that did not finish, jobs that failed.
    public let problems: [String]
    /// The shards no report was given for.
    public let missingShards: [Int]

    /// Reads `paths` and merges them.
    /// - Throws: `SlicevidError`: `.usage` when no report is given or the reports are of
    ///   different manifests, slicevid versions or shard counts (naming both files); what
    ///   `ShardReport(path:)` throws for a report that cannot be read.
    package init(paths: [String]) throws(SlicevidError) {
        guard !paths.isEmpty else { throw SlicevidError(.usage, "a merge needs the reports of the campaign's shards; none was given") }
        var reports: [ShardReport] = []
        for path in paths { reports.append(try ShardReport(path: path)) }
        try ReportMerge.requireOneCampaign(reports)
        self.init(reports: reports)
    }

    /// Merges reports already known to be of one campaign.
    init(reports given: [ShardReport]) {
        let reports = given.enumerated().sorted { ($0.element.shard.index, $0.offset) < ($1.element.shard.index, $1.offset) }.map(\.element)
        self.reports = reports
        let first = reports[0]
        var problems: [String] = []
        var byIndex: [Int: (job: ShardReport.Job, report: ShardReport)] = [:]
        var seenShards: [Int: ShardReport] = [:]
        var accepted: [ShardReport] = []
        for report in reports {
            if let earlier = seenShards[report.shard.index] {
                problems.append("shard \(report.shard) is reported twice, by \(InputText.quoted(earlier.path)) and \(InputText.quoted(report.path)); give one report per shard")
                continue
            }
            seenShards[report.shard.index] = report
            accepted.append(report)
            for job in report.jobs {
                if let earlier = byIndex[job.index] {
                    problems.append("job \(InputText.quoted(job.id)) is reported twice, in \(InputText.quoted(earlier.report.path)) and \(InputText.quoted(report.path))")
                } else {
                    byIndex[job.index] = (job, report)
                }
            }
        }
        missingShards = (0..<first.shard.count).filter { seenShards[$0] == nil }
        let accounted = byIndex.count
        if !missingShards.isEmpty {
            let names = missingShards.map { "\($0)/\(first.shard.count)" }.joined(separator: ", ")
            problems.insert("shard\(missingShards.count == 1 ? "" : "s") \(names): no report; \(first.digest.jobs - accounted) of the manifest's \(first.digest.jobs) jobs are in none of the reports given", at: 0)
        } else if accounted < first.digest.jobs {
            // Every shard reported, yet jobs are missing: a report lost some of its jobs.
            let missing = (0..<first.digest.jobs).filter { byIndex[$0] == nil }
            problems.insert("\(missing.count) of the manifest's \(first.digest.jobs) jobs are in none of the reports (manifest positions \(ReportMerge.list(missing.map(String.init))))", at: 0)
        }
        let jobs = byIndex.keys.sorted().map { byIndex[$0]!.job }
        self.jobs = jobs
        if missingShards.isEmpty && accounted == first.digest.jobs && ManifestDigest.ids(jobs.map(\.id)) != first.digest.ids {
            problems.append("the job ids in the reports are not the manifest's (manifest_ids_sha256 differs); a report was changed after slicevid wrote it")
        }
        for report in accepted {
            let unfinished = report.jobs.filter { $0.status == JobStatus.interrupted.rawValue || $0.status == JobStatus.pending.rawValue }
            guard !unfinished.isEmpty else { continue }
            let signal = (report.object["signal"] as? String).map { " by \($0)" } ?? ""
            problems.append("shard \(report.shard) (\(InputText.quoted(report.path))) was stopped\(signal): \(unfinished.count) job\(unfinished.count == 1 ? "" : "s") did not finish (\(ReportMerge.list(unfinished.map { InputText.quoted($0.id) }))); run that shard again")
        }
        for job in jobs where job.status == JobStatus.failed.rawValue {
            // A retryable job's error already says it is worth a retry later, in its own words.
            problems.append("failed: job \(InputText.quoted(job.id)): \(InputText.escaped(job.error ?? "no reason recorded"))")
        }
        for job in jobs where !JobStatus.allCases.map(\.rawValue).contains(job.status) {
            problems.append("job \(InputText.quoted(job.id)): status \(InputText.quoted(job.status)) is not one slicevid writes")
        }
        self.problems = problems
    }

    /// Whether every job of the manifest is accounted for exactly once and rendered or up to date.
    public var isComplete: Bool { problems.isEmpty }

    /// Whether the campaign is not whole only because of jobs that failed on remote inputs
    /// that may be had later (timeouts, resets, HTTP 5xx or 429 after every attempt), in any
    /// shard: running those shards again is worth it, as a single run would have exited 75.
    /// False when it is whole, or when anything else keeps it from being so.
    public var isWorthRetry: Bool {
        let failed = jobs.filter { $0.status == JobStatus.failed.rawValue }
        return !failed.isEmpty && failed.count == problems.count && failed.allSatisfy(\.retryable)
    }

    /// The number of jobs with each status, every status named.
    public var counts: [String: Int] {
        var counts: [String: Int] = [:]
        for status in JobStatus.allCases { counts[status.rawValue] = 0 }
        for job in jobs { counts[job.status, default: 0] += 1 }
        let orphans = self.orphans
        counts["pruned"] = orphans.filter { $0["pruned"] as? Bool == true }.count
        counts["orphaned"] = orphans.count - counts["pruned"]!
        return counts
    }

    /// Every orphan any shard's report lists, once per path (each shard looks at the whole
    /// manifest's folders, so they see the same ones), in path order.
    package var orphans: [[String: Any]] {
        var byPath: [String: [String: Any]] = [:]
        for report in reports {
            for orphan in report.object["orphans"] as? [[String: Any]] ?? [] {
                guard let path = orphan["path"] as? String else { continue }
                // A shard that pruned it says more than one that saw it.
                if byPath[path] == nil || orphan["pruned"] as? Bool == true { byPath[path] = orphan }
            }
        }
        return byPath.keys.sorted().map { byPath[$0]! }
    }

    /// Up to ten items, then how many more.
    static func list(_ items: [String]) -> String {
        items.count <= 10 ? items.joined(separator: ", ") : items.prefix(10).joined(separator: ", ") + " and \(items.count - 10) more"
    }

    /// Refuses reports that are not of one campaign run with one slicevid and one shard count.
    private static func requireOneCampaign(_ reports: [ShardReport]) throws(SlicevidError) {
        let first = reports[0]
        for report in reports.dropFirst() {
            func differ(_ what: String, _ mine: String, _ theirs: String) -> SlicevidError {
                SlicevidError(.usage, "\(InputText.quoted(first.path)) and \(InputText.quoted(report.path)) are reports of \(what) (\(mine) and \(theirs)); merge the reports of one campaign run only")
            }
            if report.digest.bytes != first.digest.bytes || report.digest.jobs != first.digest.jobs || report.digest.ids != first.digest.ids {
                let mine = "\(InputText.quoted(first.manifest)) \(first.digest.bytes.prefix(12))…", theirs = "\(InputText.quoted(report.manifest)) \(report.digest.bytes.prefix(12))…"
                throw differ("different manifests", mine, theirs)
            }
            if report.version != first.version {
                throw differ("different slicevid versions", InputText.quoted(first.version), InputText.quoted(report.version))
            }
            if report.shard.count != first.shard.count {
                throw differ("different shard counts", "\(first.shard)", "\(report.shard)")
            }
        }
    }
}
