// What `slicevid batch` prints to stderr: on a terminal one redrawn line with the batch's
// progress, the jobs under way and an ETA, and a line kept per finished job; for cron and CI
// one timestamped line per event; for log shippers one JSON object per line. Jobs running side
// by side print from their own threads; Console keeps every event one whole line.

import Foundation
import Slicevid
import Synchronization

/// Prints a batch run's events.
final class BatchLog: Sendable {
    private let log: LogWriter
    private let manifest: String
    private let shard: Shard
    /// `-v`: say also what is expected anyway (a still carries no music bed).
    private let verbose: Bool

    /// What the redrawn line shows: the jobs under way and how far each is.
    private struct Progress {
        var finished = 0
        var count = 0
        var started = ContinuousClock.now
        /// Jobs under way by position: id, frames done and total (0 before the first frame),
        /// and whether the encoders are flushing.
        var running: [Int: (id: String, done: Int, total: Int, finishing: Bool)] = [:]
    }

    private let progress = Mutex(Progress())

    /// - Parameters:
    ///   - log: where lines go, and in which format.
    ///   - manifest: the manifest path as given, for messages.
    ///   - shard: the shard this run renders.
    ///   - verbose: also say what every run would say the same way (stills without audio).
    init(_ log: LogWriter, manifest: String, shard: Shard, verbose: Bool = false) {
        self.log = log
        self.manifest = manifest
        self.shard = shard
        self.verbose = verbose
    }

    func handle(_ event: BatchEvent) {
        switch event {
        case .finished(let report):
            if let error = report.reportFileError { log.error(error) }
            summary(report, reportPath: report.reportFile, pagePath: report.reportPage)
        case .started(let jobs, let total, let parallel):
            progress.withLock { $0.count = jobs; $0.started = .now }
            let shardNote = shard == .all ? "" : " of \(total) (shard \(shard))"
            if log.format == .json {
                if !log.quiet {
                    log.emit(["event": "batch-started", "manifest": manifest, "jobs": jobs, "total": total, "shard": shard.description,
                              "parallel": parallel])
                }
            } else if !log.quiet && log.format == .plain {
                log.line("batch \(manifest): \(jobs) job\(jobs == 1 ? "" : "s")\(shardNote), \(parallel) at a time")
            }
        case .jobRendering(let id, let position, let count, let reasons):
            progress.withLock { $0.running[position] = (id, 0, 0, false) }
            guard !log.quiet else { return }
            switch log.format {
            case .json:
                log.emit(["event": "job-rendering", "job": id, "position": position, "count": count,
                          "reasons": reasons.map(BatchLog.json)])
            case .plain:
                let why = reasons.isEmpty ? "" : " (\(RenderReason.sentence(reasons)))"
                log.line("[\(position)/\(count)] \(id): rendering\(why)")
            default:
                draw(force: true)
            }
        case .folderCreated(let id, let position, let count, let path):
            guard !log.quiet else { return }
            if log.format == .json {
                log.emit(["event": "folder-created", "job": id, "position": position, "count": count, "path": path])
            } else {
                log.line("[\(position)/\(count)] \(id): created folder \(path)")
            }
        case .jobWarning(let id, let position, let count, let warning):
            guard !log.quiet else { return }
            if log.format == .json {
                log.emit(["event": "warning", "job": id, "position": position, "count": count, "message": warning.text])
            } else {
                log.line("[\(position)/\(count)] \(id): warning: \(warning.text)")
            }
        case .jobWithoutAudio(let id, let position, let count, let all):
            // A poster or storyboard never carries sound, so saying so for every job is noise;
            // a GIF or a sequence without the bed may surprise, and is said.
            let outputs = verbose ? all : all.filter { OutputFormat(path: $0)?.isStill != true }
            guard !log.quiet, !outputs.isEmpty else { return }
            if log.format == .json {
                log.emit(["event": "audio-ignored", "job": id, "position": position, "count": count, "outputs": outputs])
            } else {
                log.line("[\(position)/\(count)] \(id): no audio in \(outputs.joined(separator: ", ")): \(outputs.count == 1 ? "it carries" : "they carry") none")
            }
        case .jobInputsChanged(let id, let position, let count, let inputs):
            // Said even with -q: the outputs may show the new file while the report says the old.
            if log.format == .json {
                log.emit(["event": "inputs-changed", "job": id, "position": position, "count": count, "inputs": inputs])
            } else {
                log.line("[\(position)/\(count)] \(id): \(inputs.joined(separator: ", ")) changed while the job ran; "
                         + "its outputs will render again on the next run")
            }
        case .jobProgress(_, let position, _, let done, let total):
            progress.withLock { state in
                state.running[position]?.done = done
                state.running[position]?.total = total
            }
            draw(force: false)
        case .jobFinishing(_, let position, _):
            progress.withLock { $0.running[position]?.finishing = true }
            draw(force: true)
        case .jobFinished(let result, let position, let count):
            progress.withLock { state in
                state.running[position] = nil
                state.finished += 1
            }
            finished(result, position: position, count: count)
            draw(force: true)
        }
    }

    /// The closing lines: counts, then every failure with its reason (also with -q).
    func summary(_ report: BatchReport, reportPath: String?, pagePath: String?) {
        orphans(report.orphans, pruning: report.prune)
        if let brake = report.pruneBrake, brake.holds {
            // The one line a morning check must not miss, also with -q: what would have gone.
            if log.format == .json {
                log.emit(["event": "prune-refused", "manifest": manifest, "deleting": brake.deleting, "outputs": brake.outputs,
                          "limit": brake.limit.description])
            } else {
                line("error: \(manifest): prune refused: it would delete \(brake.counts), more than --prune-max \(brake.limit); nothing was deleted (a feed cut short? check it, then run again with a higher --prune-max)")
            }
        }
        var counts = JobStatus.allCases.filter { report.count($0) > 0 }.map { "\(report.count($0)) \($0.rawValue)" }
        let pruned = report.orphans.filter(\.pruned).count, left = report.orphans.count - pruned
        if pruned > 0 { counts.append("\(pruned) pruned") }
        if left > 0 { counts.append("\(left) orphaned output\(left == 1 ? "" : "s") left\(report.prune ? "" : " (--prune deletes them)")") }
        if log.format == .json {
            var fields: [String: Any] = ["event": "batch-finished", "manifest": manifest, "status": report.outcomeName,
                                         "seconds": (report.seconds * 1000).rounded() / 1000]
            for status in JobStatus.allCases { fields[status.rawValue] = report.count(status) }
            fields["pruned"] = pruned
            fields["orphaned"] = left
            if let reportPath { fields["report"] = reportPath }
            if let pagePath { fields["page"] = pagePath }
            log.emit(fields)
            return
        }
        let stopped = report.signal.map { " (stopped by \(signalName($0)))" } ?? ""
        line("\(manifest): \(counts.isEmpty ? "no jobs in this shard" : counts.joined(separator: ", ")), took \(LogWriter.seconds(report.seconds))\(stopped)")
        for failure in JobLines.grouped(report.jobs.filter { $0.status == .failed }.map { ($0.id, $0.error ?? "unknown error") }) {
            line("failed: \(failure.subject): \(failure.text)")
        }
        if let reportPath { line("report written to \(reportPath)") }
        if let pagePath { line("page written to \(pagePath)") }
    }

    /// One line per output the manifest no longer makes: pruned, or left with why (and, when
    /// the run did not prune, what would delete it). Said with -q too: a withdrawn product's
    /// files still being served is what a morning check must see.
    private func orphans(_ orphans: [Orphan], pruning: Bool) {
        for orphan in orphans {
            let job = "job \(InputText.quoted(orphan.job))"
            let gone = orphan.jobRemains ? "which no longer makes it" : "no longer in the manifest"
            if log.format == .json {
                log.emit(["event": "orphan", "manifest": manifest, "path": orphan.path, "job": orphan.job, "bytes": orphan.bytes,
                          "pruned": orphan.pruned, "kept": orphan.kept ?? NSNull()])
            } else if orphan.heldByBrake {
                continue   // the brake's one line, after these, names them all by their count
            } else if orphan.pruned {
                line("pruned \(InputText.escaped(orphan.path)) and its sidecar (written for \(job), \(gone))")
            } else if let kept = orphan.kept {
                line("warning: \(InputText.escaped(orphan.path)) was written for \(job), \(gone), but is kept: \(InputText.escaped(kept))")
            } else {
                line("warning: \(InputText.escaped(orphan.path)) was written for \(job), \(gone); --prune deletes it and its sidecar")
            }
        }
    }

    private func finished(_ result: JobResult, position: Int, count: Int) {
        // Quiet runs list failures in the summary (JSON: the failed job's own event).
        if log.quiet && (log.format != .json || result.status != .failed) { return }
        if log.format == .json {
            log.emit(["event": "job-finished", "job": result.id, "position": position, "count": count, "status": result.status.rawValue,
                      "seconds": (result.seconds * 1000).rounded() / 1000, "error": result.error ?? NSNull(),
                      "clip_seconds": result.clipSeconds.map { ($0 * 1000).rounded() / 1000 } ?? NSNull(),
                      "outputs": result.outputs.map(BatchLog.json), "poster": result.poster ?? NSNull(),
                      "poster_error": result.posterError ?? NSNull()])
            return
        }
        let text: String
        switch result.status {
        case .rendered:
            let outputs = result.outputs.map { output in
                output.record.map { "\(output.path) (\(BatchLog.describe($0)))" } ?? output.path
            }
            let clip = result.clipSeconds.map { "clip \(LogWriter.seconds($0)), " } ?? ""
            text = "rendered, \(clip)took \(LogWriter.seconds(result.seconds)): \(outputs.joined(separator: ", "))"
        case .skipped: text = "up to date, skipped"
        case .failed, .interrupted, .pending: text = "\(result.status.rawValue): \(result.error ?? "unknown error")"
        }
        // The page shows a placeholder instead; the log says why once.
        let poster = result.posterError.map { "; no poster for the page: \($0)" } ?? ""
        line("[\(position)/\(count)] \(result.id): \(text)\(poster)")
    }

    /// Redraws the terminal line: the batch's bar, the jobs under way, an ETA from the jobs
    /// finished so far (at most ten times a second unless `force`).
    private func draw(force: Bool) {
        guard log.format == .progress, !log.quiet else { return }
        let state = progress.withLock { $0 }
        let jobs = state.running.sorted { $0.key < $1.key }.map { _, job in
            let how = job.finishing ? "finishing encoders" : job.total == 0 ? "starting" : "\(job.done * 100 / job.total)%"
            return "\(job.id) \(how)"
        }
        let eta = LogWriter.eta(done: Double(state.finished), total: Double(state.count), since: state.started).map { " · \($0)" } ?? ""
        let running = jobs.isEmpty ? "" : " · " + jobs.joined(separator: ", ")
        log.status("batch \(LogWriter.bar(state.finished, state.count, width: 20)) \(state.finished)/\(state.count)\(eta)\(running)", force: force)
    }

    /// A line that is always printed (the summary), timestamped in the plain format.
    private func line(_ text: String) {
        log.line(text)
    }

    /// `61 frames, 2.03 s, 1.4 MB`; a still is `1 frame, 12.0 KB`.
    private static func describe(_ record: OutputRecord) -> String {
        let length = record.frameRate == nil ? "" : ", \(LogWriter.seconds(record.seconds))"
        return "\(record.frames == 1 ? "1 frame" : "\(record.frames) frames")\(length), \(LogWriter.size(record.bytes))"
    }

    /// An output in the JSON log: its path, and what its sidecar records once written.
    private static func json(_ output: OutputResult) -> [String: Any] {
        guard let record = output.record else { return ["path": output.path] }
        return ["path": output.path, "bytes": record.bytes, "frames": record.frames, "fps": record.frameRate ?? NSNull(),
                "seconds": (record.seconds * 1000).rounded() / 1000]
    }

    /// A reason in the JSON log: its kind and sentence, and the field and values it names.
    static func json(_ reason: RenderReason) -> [String: Any] { reason.json }
}
