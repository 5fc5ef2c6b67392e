// What `slicevid batch` prints to stderr: on a terminal one redrawn line with the batch's and
// the current job's progress; for cron and CI one timestamped line per event; for log
// shippers one JSON object per line. Every line goes through Console, so none interleave.

import Foundation
import SliceKit
import SlicePipeline

/// The `--log-format` values.
enum LogFormat: String, CaseIterable {
    /// `progress` on a terminal, `plain` otherwise.
    case auto
    /// A redrawn progress line (terminals).
    case progress
    /// One line per event, ISO-8601 timestamp first.
    case plain
    /// One JSON object per event and line.
    case json
}

/// Prints a batch run's events.
final class BatchLog: Sendable {
    private let console: Console
    private let format: LogFormat
    private let quiet: Bool
    private let manifest: String
    private let shard: Shard

    /// - Parameters:
    ///   - console: where lines go.
    ///   - format: `.auto` is resolved here, from whether stderr is a terminal.
    ///   - quiet: print only failures and the summary.
    ///   - manifest: the manifest path as given, for messages.
    ///   - shard: the shard this run renders.
    init(console: Console, format: LogFormat, quiet: Bool, manifest: String, shard: Shard) {
        self.console = console
        self.format = format == .auto ? (console.isTerminal ? .progress : .plain) : format
        self.quiet = quiet
        self.manifest = manifest
        self.shard = shard
    }

    func handle(_ event: BatchEvent) {
        switch event {
        case .started(let jobs, let total):
            let shardNote = shard == .all ? "" : " of \(total) (shard \(shard))"
            if format == .json {
                emit(["event": "batch-started", "manifest": manifest, "jobs": jobs, "total": total, "shard": shard.description])
            } else if !quiet && format == .plain {
                line("batch \(manifest): \(jobs) job\(jobs == 1 ? "" : "s")\(shardNote)")
            }
        case .jobRendering(let id, let position, let count):
            switch format {
            case .json: emit(["event": "job-rendering", "job": id, "position": position, "count": count])
            case .plain where !quiet: line("[\(position)/\(count)] \(id): rendering")
            case .progress where !quiet: draw(id: id, position: position, count: count, done: 0, total: 0, force: true)
            default: break
            }
        case .jobProgress(let id, let position, let count, let done, let total):
            if format == .progress && !quiet { draw(id: id, position: position, count: count, done: done, total: total, force: done == total) }
        case .jobFinished(let result, let position, let count):
            finished(result, position: position, count: count)
        }
    }

    /// The closing lines: counts, then every failure with its reason.
    func summary(_ report: BatchReport, reportPath: String?) {
        let counts = JobStatus.allCases.filter { report.count($0) > 0 }.map { "\(report.count($0)) \($0.rawValue)" }
        if format == .json {
            var fields: [String: Any] = ["event": "batch-finished", "manifest": manifest, "status": report.outcomeName,
                                         "seconds": (report.seconds * 1000).rounded() / 1000]
            for status in JobStatus.allCases { fields[status.rawValue] = report.count(status) }
            if let reportPath { fields["report"] = reportPath }
            emit(fields)
            return
        }
        let stopped = report.signal.map { " (stopped by \(signalName($0)))" } ?? ""
        line("\(manifest): \(counts.isEmpty ? "no jobs in this shard" : counts.joined(separator: ", ")) in \(String(format: "%.2f", report.seconds)) s\(stopped)")
        for job in report.jobs where job.status == .failed {
            line("failed: job \(InputText.quoted(job.id)): \(job.error ?? "unknown error")")
        }
        if let reportPath { line("report written to \(reportPath)") }
    }

    private func finished(_ result: JobResult, position: Int, count: Int) {
        if format == .json {
            emit(["event": "job-finished", "job": result.id, "position": position, "count": count, "status": result.status.rawValue,
                  "seconds": (result.seconds * 1000).rounded() / 1000, "error": result.error ?? NSNull(),
                  "outputs": result.outputs.map(\.path)])
            return
        }
        // Quiet runs list failures once, in the summary.
        guard !quiet else { return }
        let seconds = String(format: "%.2f s", result.seconds)
        let text: String
        switch result.status {
        case .rendered:
            let outputs = result.outputs.map { output in
                output.record.map { "\(output.path) (\(BatchLog.size($0.bytes)), \(String(format: "%.2f", $0.seconds)) s)" } ?? output.path
            }
            text = "rendered in \(seconds): \(outputs.joined(separator: ", "))"
        case .skipped: text = "up to date, skipped"
        case .failed, .interrupted, .pending: text = "\(result.status.rawValue): \(result.error ?? "unknown error")"
        }
        line("[\(position)/\(count)] \(result.id): \(text)")
    }

    /// Redraws the terminal line: the batch's bar, then the job's (at most ten times a second).
    private func draw(id: String, position: Int, count: Int, done: Int, total: Int, force: Bool) {
        let job = total == 0 ? "starting" : "\(BatchLog.bar(done, total, width: 20)) \(done * 100 / total)%"
        console.status("batch \(BatchLog.bar(position - 1, count, width: 20)) \(position)/\(count) · \(id) \(job)", force: force)
    }

    private static func bar(_ done: Int, _ total: Int, width: Int) -> String {
        let filled = total == 0 ? 0 : min(width, done * width / total)
        return "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "]"
    }

    private static func size(_ bytes: Int) -> String {
        bytes >= 1 << 20 ? String(format: "%.1f MB", Double(bytes) / 1_048_576)
            : bytes >= 1 << 10 ? String(format: "%.1f KB", Double(bytes) / 1024) : "\(bytes) B"
    }

    /// A plain line: timestamped unless it is for a terminal.
    private func line(_ text: String) {
        let stamp = format == .plain ? BatchLog.timestamp() + " " : ""
        console.error("\(stamp)slicevid: \(text)\n")
    }

    /// A JSON line with the time and the event's fields.
    private func emit(_ fields: [String: Any]) {
        var fields = fields
        fields["time"] = BatchLog.timestamp()
        guard let data = try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys, .withoutEscapingSlashes]) else { return }
        // JSON escapes C0 controls but lets DEL, C1 controls and line separators through raw.
        console.error(JSONText.escapingInvisibles(String(decoding: data, as: UTF8.self)) + "\n")
    }

    private static func timestamp() -> String {
        Date().ISO8601Format(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}
