// The merged report's JSON: a batch report's shape (so it reads, and is replaced, like one),
// with `shards` for the runs it came from and each job's object exactly as its shard wrote it.

import Foundation

extension ReportMerge {
    /// `ok`, `some-failed` or `all-failed` as a batch report says it when the campaign is
    /// whole but for failed jobs; `incomplete` when a shard or job is missing, doubled or
    /// unfinished.
    package var status: String {
        let failed = jobs.filter { $0.status == JobStatus.failed.rawValue }.count
        let otherProblems = problems.count - failed
        if otherProblems > 0 { return "incomplete" }
        if failed == 0 { return "ok" }
        return failed == jobs.count ? "all-failed" : "some-failed"
    }

    /// The earliest start among the shards, and the seconds from it to the last shard's end.
    private var span: (started: String, seconds: Double)? {
        let format = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        let runs = reports.compactMap { report -> (Date, Double)? in
            guard let text = report.object["started"] as? String, let date = try? format.parse(text),
                  let seconds = (report.object["seconds"] as? NSNumber)?.doubleValue, seconds.isFinite, seconds >= 0 else { return nil }
            return (date, seconds)
        }
        guard runs.count == reports.count, let start = runs.map(\.0).min(),
              let end = runs.map({ $0.0.addingTimeInterval($0.1) }).max() else { return nil }
        return (start.ISO8601Format(format), (end.timeIntervalSince(start) * 1000).rounded() / 1000)
    }

    /// The merged report as JSON (keys sorted, like a batch report).
    public var json: Data {
        let first = reports[0]
        let span = span
        let object: [String: Any] = [
            "schema": BatchReport.schema,
            "slicevid": first.version,
            "manifest": first.manifest,
            // The manifest's description, which every shard read from the same bytes.
            "description": first.object["description"] as? String ?? NSNull(),
            "manifest_sha256": first.digest.bytes,
            "manifest_jobs": first.digest.jobs,
            "manifest_ids_sha256": first.digest.ids,
            "shards": reports.map(\.summary),
            "missing_shards": missingShards.map { "\($0)/\(first.shard.count)" },
            "started": span?.started ?? NSNull(),
            "seconds": span?.seconds ?? NSNull(),
            "status": status,
            "problems": problems,
            "counts": counts,
            "jobs": jobs.map(\.object),
            "orphans": orphans,
        ]
        // Everything in it came from JSON or is a JSON type, so serialisation cannot fail.
        return (try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data()
    }
}
