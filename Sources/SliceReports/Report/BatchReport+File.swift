// Writing `--report FILE` (and `report merge -o FILE`): atomically, through a temporary made
// O_EXCL beside it, and replacing only an earlier slicevid report (recognised by its shape)
// unless `--force`, so a mistyped path never wipes someone's file.

import Foundation
import Glibc
import SliceKit
import SlicePipeline

/// What a report file holds: the JSON report, or the page made from it (`report html`). Each
/// replaces only an earlier file of its own form unless forced.
package enum ReportForm: Sendable {
    case json, page

    /// What the file is, in messages.
    var noun: String { self == .json ? "report" : "report page" }

    /// Whether the regular file at `path` reads as one slicevid wrote in this form.
    func isEarlier(_ path: String) -> Bool {
        self == .json ? BatchReport.isEarlierReport(path) : BatchReport.isEarlierPage(path)
    }
}

extension BatchReport {
    /// The largest existing file read to decide whether it is an earlier report.
    static let largestEarlierReport = 64 << 20

    /// Refuses, before anything renders, a report path no report could be written to: an
    /// empty one, or one in a folder that is read-only; a missing folder is made.
    /// - Throws: `SlicevidError` naming the report setting: `.usage` for an empty path,
    ///   `.outputBlocked` for the folder.
    package static func checkWritable(_ path: String) throws(SlicevidError) {
        guard !path.isEmpty, !path.hasSuffix("/") else {
            throw SlicevidError(.usage, "\(setting: .report) \(InputText.quoted(path)): give the report a file name")
        }
        // A missing folder is made, as an output's is (`--report nights/index.html`).
        let typed = (path as NSString).deletingLastPathComponent
        _ = try OutputFolder.create(typed.isEmpty ? "." : typed, for: path, subject: "\(setting: .report) \(InputText.quoted(path))")
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var status = stat()
        guard FileSystem.stat(folder, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
            throw SlicevidError(.outputBlocked, "\(setting: .report) \(InputText.quoted(path)): folder \(InputText.quoted(folder)) does not exist")
        }
        guard FileSystem.access(folder, W_OK) == 0 else {
            throw SlicevidError(.outputBlocked, "\(setting: .report) \(InputText.quoted(path)): folder \(InputText.quoted(folder)) is not writable")
        }
    }

    /// Refuses a report path that holds something this run may not replace: a folder, a
    /// device, a FIFO or a socket (whatever `force` says: a report is a file, and `/dev/null`
    /// replaced by one under cron as root breaks the machine), or without `force` a link or
    /// any file that is not an earlier slicevid report.
    /// - Parameters:
    ///   - setting: the setting that named the path (the report, or `report merge`'s outputs),
    ///     for messages.
    ///   - form: what is written there: an earlier file of the same form may be replaced.
    /// - Throws: `SlicevidError(.outputBlocked)` naming the setting and the file.
    package static func checkReplaceable(_ path: String, force: Bool, setting: Setting = .report, form: ReportForm = .json) throws(SlicevidError) {
        var status = stat()
        guard FileSystem.lstat(path, &status) == 0 else { return }
        let kind = status.st_mode & S_IFMT
        if kind == S_IFDIR { throw SlicevidError(.outputBlocked, "\(setting: setting) \(InputText.quoted(path)): is a folder; give a file name") }
        if kind != S_IFREG && kind != S_IFLNK {
            throw SlicevidError(.outputBlocked, "\(setting: setting) \(InputText.quoted(path)): \(FileKind.described(kind)); a \(form.noun) is written to a regular file, and this is never replaced")
        }
        if force { return }
        // An earlier report licenses its own replacement only as a record does: the user's own.
        let owner = RecordAuthority.problem(licensed: status)
        let what = kind == S_IFLNK ? "is a link" : owner ?? (form.isEarlier(path) ? nil : "is not a slicevid \(form.noun)")
        if let what {
            throw SlicevidError(.outputBlocked, "\(setting: setting) \(InputText.quoted(path)): \(what); nothing was replaced; pass \(setting: .force) to replace it")
        }
    }

    /// Whether the regular file at `path` reads as a report slicevid wrote: a JSON object
    /// with a report's keys (read without following a link, and only up to a bound).
    static func isEarlierReport(_ path: String) -> Bool {
        let descriptor = FileSystem.open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, Int(status.st_size) <= largestEarlierReport,
              let data = try? handle.read(upToCount: largestEarlierReport + 1),
              let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else { return false }
        return object["slicevid"] is String && object["manifest"] is String && object["jobs"] is [Any]
            && object["counts"] is [String: Any] && object["status"] is String
    }

    /// Whether the regular file at `path` reads as a page `report html` wrote: HTML with its
    /// generator mark near the top (read without following a link, and only its first 4 KiB).
    static func isEarlierPage(_ path: String) -> Bool {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
              let data = try? handle.read(upToCount: 4096) else { return false }
        let head = String(decoding: data, as: UTF8.self)
        return head.hasPrefix("<!DOCTYPE html>") && head.contains(ReportPage.generatorMark)
    }

    /// Writes the report atomically: into a new hidden file beside `path` (never through a
    /// link), then renamed over an earlier report, or (when none was there) into a free name
    /// only, so a file that appeared meanwhile is never replaced without `force`.
    /// - Throws: `SlicevidError(.outputBlocked)` naming the report setting.
    package func write(to path: String) throws(SlicevidError) {
        try BatchReport.write(json, to: path, force: force)
    }

    /// Writes the report's page to `page` (pictures linked relative to it), atomically, over an
    /// earlier page only unless `force`: made from the report's JSON, as `report html` makes it
    /// from the file.
    /// - Parameter source: the JSON report written beside it, named on the page.
    /// - Throws: `SlicevidError(.outputBlocked)` naming the report setting.
    /// - Parameter kept: how many runs the page's history keeps (`index.history/`, this one
    ///   included, listed on the page); 0 keeps none.
    package func writePage(to page: String, source: String?, kept: Int = 0) throws(SlicevidError) {
        let json = self.json
        // The run is kept first, so the page lists it; should that fail, the page is still
        // written, and the failure reported after.
        var keeping: SlicevidError?
        do { try ReportHistory.keep(json, started: started, page: page, kept: kept) } catch { keeping = error }
        let object = (try? JSONSerialization.jsonObject(with: json)) as? [String: Any] ?? [:]
        let absolute = URL(fileURLWithPath: page).standardizedFileURL.path
        let nights = kept > 0 ? ReportHistory.nights(of: absolute, base: URL(fileURLWithPath: absolute).deletingLastPathComponent().path) : []
        let made = try ReportPage(report: object, page: absolute, source: source, nights: nights)
        try BatchReport.write(made.html, to: page, force: force, form: .page)
        if let keeping { throw keeping }
    }

    /// Writes `bytes` (a report's JSON, or its page) to `path` as `write(to:)` does.
    /// - Parameters:
    ///   - setting: the setting that named the path, for messages.
    ///   - form: what `bytes` are: an earlier file of the same form may be replaced.
    /// - Throws: `SlicevidError(.outputBlocked)` naming `setting`.
    package static func write(_ bytes: Data, to path: String, force: Bool, setting: Setting = .report, form: ReportForm = .json) throws(SlicevidError) {
        try BatchReport.checkReplaceable(path, force: force, setting: setting, form: form)
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        let temporary = folder + "/." + url.lastPathComponent + ".slicevid-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).report"
        func failed(_ why: String) -> SlicevidError {
            SlicevidError(.outputBlocked, "\(setting: setting) \(InputText.quoted(path)): cannot write the \(form.noun) (\(why))")
        }
        let descriptor = FileSystem.open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw failed(String(cString: strerror(errno))) }
        let wrote = bytes.withUnsafeBytes { buffer -> Int32 in
            var done = 0
            while done < buffer.count {
                let count = Glibc.write(descriptor, buffer.baseAddress! + done, buffer.count - done)
                if count < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                done += count
            }
            return fsync(descriptor) == 0 ? 0 : errno
        }
        close(descriptor)
        guard wrote == 0 else {
            FileSystem.unlink(temporary)
            throw failed(String(cString: strerror(wrote)))
        }
        var status = stat()
        let replacing = FileSystem.lstat(path, &status) == 0
        switch replacing ? FileMove.replacing(temporary, path) : FileMove.withoutReplacing(temporary, path) {
        case .moved: return
        case .taken:
            FileSystem.unlink(temporary)
            throw SlicevidError(.outputBlocked, "\(setting: setting) \(InputText.quoted(path)): appeared while \(setting == .report ? "the batch ran" : "the reports were read"); nothing was replaced; pass \(setting: .force) to replace it")
        case .failed(let why):
            FileSystem.unlink(temporary)
            throw failed(why)
        }
    }
}
