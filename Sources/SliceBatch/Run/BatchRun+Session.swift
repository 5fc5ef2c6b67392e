// A whole batch, as `slicevid batch` and the library's `Slicevid.batch` both run it: the report
// path checked before anything renders, the manifest locked against overlapping runs, every job
// run, the report written — and, should the process end at once on a second signal, the report
// written then too, from the journal, as the run's last words.

import Foundation
import SliceKit
import SlicePipeline
import SliceReports

extension BatchRun {
    /// Runs `request` from lock to report.
    /// - Parameters:
    ///   - cancellation: stops the run (a signal, a Task's cancellation); finished jobs are
    ///     kept and the report says which were interrupted or pending.
    ///   - events: progress from the jobs' threads, ending with `.finished`.
    /// - Returns: the report, with `reportFile` set when it was written, or `reportFileError`.
    /// - Throws: `SlicevidError` before anything ran: `.outputBlocked` for a report path that
    ///   cannot be written, `.usage` for an output where the page puts a poster, `.busy` when another run holds the manifest, lock files that are
    ///   not slicevid's.
    package static func session(_ request: BatchRequest, cancellation: Cancellation,
                               events: @escaping @Sendable (BatchEvent) -> Void = { _ in }) throws(SlicevidError) -> BatchReport {
        // The page's folder first: a folder that cannot be made is named with the page as typed.
        if let page = request.reportPage { try BatchReport.checkWritable(page) }
        if let path = request.reportFile {
            try BatchReport.checkWritable(path)
            try BatchReport.checkReplaceable(path, force: request.force)
        }
        if let page = request.reportPage {
            try BatchReport.checkWritable(page)
            try BatchReport.checkReplaceable(page, force: request.force, form: .page)
            try ReportPage.checkPosterFolder(for: page)
            if request.reportHistory > 0 { try ReportHistory.check(for: page) }
            try ReportPage.checkPosterPaths(of: request.manifest, page: page)
        }
        let manifest = request.manifest.path
        let lock: ManifestLock
        switch try ManifestLock.acquire(manifest: manifest, shard: request.shard) {
        case .acquired(let held):
            lock = held
        case .busy(let file, let holder):
            let by = holder.map { "another batch (pid \($0))" } ?? "another batch"
            throw SlicevidError(.busy, "\(manifest): \(by) is rendering it (lock \(file)); nothing done, try again later")
        case .busyUnderAnotherName:
            throw SlicevidError(.busy, "\(manifest): another batch is rendering this file under another name (a hard link to it); nothing done, try again later")
        }
        defer { withExtendedLifetime(lock) {} }

        let journal = BatchJournal(request)
        // A second signal ends the process at once, but not before the report: finished jobs
        // as they ended, the ones under way interrupted, the rest pending.
        let lastWords = LastWords.register { signal in
            events(.finished(writingReport(journal.report(stop: .signal(signal)), request: request)))
        }
        var report = run(request, cancellation: cancellation, journal: journal, events: events)
        // What the manifest wrote for jobs it no longer has, found (and with --prune deleted)
        // under the lock, once the jobs are done; a stopped run leaves this for the next one.
        if !cancellation.isCancelled {
            let orphans = Orphan.find(in: request.manifest, posterFolder: request.posterFolder)
            if request.prune {
                let brake = Orphan.brake(orphans, in: request.manifest, posterFolder: request.posterFolder, limit: request.pruneLimit)
                report.pruneBrake = brake
                report.orphans = Orphan.prune(orphans, unsettledFeeds: request.manifest.unsettledFeeds, brake: brake)
            } else {
                report.orphans = orphans
            }
        }
        // Whole even if a second signal comes meanwhile: it waits, then rewrites it.
        WholeWrites.exclusively { () -> Void in report = writingReport(report, request: request) }
        withExtendedLifetime(lastWords) {}
        events(.finished(report))
        return report
    }

    /// `report`, written to the request's report file and page when it names them.
    private static func writingReport(_ report: BatchReport, request: BatchRequest) -> BatchReport {
        var report = report
        do {
            if let path = request.reportFile {
                try report.write(to: path)
                report.reportFile = path
            }
            if let page = request.reportPage {
                try report.writePage(to: page, source: report.reportFile, kept: request.reportHistory)
                report.reportPage = page
            }
        } catch {
            report.reportFileError = error
        }
        return report
    }
}
