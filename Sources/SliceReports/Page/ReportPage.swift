// The morning page's content, read from a report's JSON: a tile per job (its picture, status,
// why it rendered or why it failed, its outputs), failures first, then new renders, then the
// rest, under the run's summary. Pictures are files the run wrote; nothing is decoded here.

import Foundation
import Glibc
import SliceKit
import SliceMedia
import SlicePipeline

/// What `report html` and `batch --report PAGE.html` show: one tile per job of a report.
public struct ReportPage {
    /// The groups of tiles, in the order the page shows them.
    package enum Group: String, CaseIterable, Sendable {
        case failed, stopped, rendered, skipped, other

        /// The group's heading.
        package var title: String {
            switch self {
            case .failed: "Failed"
            case .stopped: "Stopped before they finished"
            case .rendered: "Rendered"
            case .skipped: "Up to date"
            case .other: "Other"
            }
        }

        /// The word a count of the group takes: `2 failed`, `4 up to date`.
        package var word: String { self == .skipped ? "up to date" : rawValue }

        /// The group of a job with `status`: interrupted and pending jobs did not finish; a
        /// status slicevid does not write (an edited report) is shown last, as it is.
        init(status: String) {
            switch status {
            case JobStatus.failed.rawValue: self = .failed
            case JobStatus.interrupted.rawValue, JobStatus.pending.rawValue: self = .stopped
            case JobStatus.rendered.rawValue: self = .rendered
            case JobStatus.skipped.rawValue: self = .skipped
            default: self = .other
            }
        }
    }

    /// What a tile shows as its picture.
    package enum Picture: Equatable, Sendable {
        /// A picture on disk: `path` as the report names it, `link` as the page addresses it.
        case image(path: String, link: String)
        /// No picture, and why.
        case none(String)
    }

    /// One output of a job as the report records it.
    package struct Output: Sendable {
        package var path: String
        package var link: String
        package var bytes: Int?
        package var frames: Int?
        /// Seconds it plays; nil for a still (no rate) or an output not written.
        package var seconds: Double?
        /// The loudness (LUFS) of its music bed, when the bed was levelled.
        package var loudness: Double?
        /// When the earlier render still live at its path was written, for an output this run
        /// did not write (its job failed); nil when there is none.
        package var live: Live?
    }

    /// An earlier render of an output, still on disk as slicevid wrote it.
    package struct Live: Sendable {
        package var bytes: Int?
        package var seconds: Double?
        /// When its file was written; nil when the report does not say.
        package var written: Date?
    }

    /// One job.
    package struct Tile: Sendable {
        package var id: String
        /// Its place in the manifest.
        package var index: Int
        package var status: String
        package var group: Group
        /// Why it rendered, in the words of `--plan` (`up to date` when skipped); paths in the
        /// page's folder relative to it, here and in `error`.
        package var why: String?
        package var error: String?
        /// `NL-101 (products.csv:2)` for a job made from a feed row.
        package var row: String?
        /// The feed row's key alone: tiles of one row (product) stand together.
        package var rowKey: String?
        package var picture: Picture
        package var outputs: [Output]
        /// For a failed job whose earlier render is still on disk: when that was written
        /// (the latest of its outputs still live).
        package var previous: Date?
        /// Whether it failed only on remote inputs that may be had later (the report's
        /// `retryable`): the tile says the failure is temporary.
        package var isRetryable = false
        /// Whether the job's earlier render is live (some output of it is still on disk).
        package var isPreviousLive: Bool { outputs.contains { $0.live != nil } }
    }

    /// An earlier run kept in the page's history (`index.history/`), for the index of nights.
    package struct Night: Sendable {
        /// Its page, linked relative to this page.
        package var link: String
        /// When the run started; nil when its report does not say.
        package var started: Date?
        /// How it ended (`ok`, `some-failed`, …); nil when its report cannot be read.
        package var status: String?
        /// Jobs by status, as its report counts them.
        package var counts: [String: Int]

        package init(link: String, started: Date?, status: String?, counts: [String: Int]) {
            (self.link, self.started, self.status, self.counts) = (link, started, status, counts)
        }
    }

    /// The tiles in page order: by group, then manifest order.
    package let tiles: [Tile]
    /// The report's top-level object, for the summary.
    package let report: [String: Any]
    /// The report file the page was made from, as given (nil when made during a run).
    package let source: String?
    /// The runs kept in the page's history, newest first (empty when none are kept).
    package let nights: [Night]
    /// The folder the page's links are relative to (the working folder for standard output).
    package let pageFolder: String

    /// The extensions of outputs a browser shows as a picture: posters and storyboards.
    static let pictureExtensions = [".jpg", ".jpeg", ".png", ".webp"]

    /// The page of `report` (a batch report's JSON object, or a merged one).
    /// - Parameters:
    ///   - page: the page's absolute path: pictures and outputs are linked relative to its folder
    ///     (to the working folder when nil: standard output).
    ///   - source: the report file, for the summary.
    ///   - isPicture: whether a file the report names is on disk to be shown (tests may stand in).
    /// - Throws: `SlicevidError(.inputInvalid)` naming `source` and the job that is not one.
    ///   - nights: the runs kept in the page's history, newest first, for its index of nights.
    package init(report: [String: Any], page: String?, source: String? = nil, nights: [Night] = [],
                 isPicture: (String) -> Bool = ReportPage.isPicture) throws(SlicevidError) {
        self.report = report
        self.source = source
        self.nights = nights
        let base = page.map { URL(fileURLWithPath: $0).deletingLastPathComponent().path } ?? FileManager.default.currentDirectoryPath
        pageFolder = base
        // Paths in a report are absolute; anything else is taken as relative to the report's folder.
        let reportFolder = source.map { URL(fileURLWithPath: $0).deletingLastPathComponent().path } ?? base
        func absolute(_ path: String) -> String {
            path.hasPrefix("/") ? path : URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: reportFolder + "/")).standardizedFileURL.path
        }
        func link(_ path: String) -> String { ReportPage.relative(absolute(path), from: base) }

        var tiles: [Tile] = []
        for (position, entry) in (report["jobs"] as? [Any] ?? []).enumerated() {
            guard let job = entry as? [String: Any], let id = job["id"] as? String, let status = job["status"] as? String else {
                let name = source.map { InputText.quoted($0) } ?? "the report"
                throw SlicevidError(.inputInvalid, "\(name): jobs[\(position)] is not a job (an object with \"id\" and \"status\")")
            }
            let outputs = (job["outputs"] as? [Any] ?? []).compactMap { $0 as? [String: Any] }.compactMap { output -> Output? in
                guard let path = output["path"] as? String else { return nil }
                let timed = output["fps"] is String
                let live = (output["live"] as? [String: Any]).map { live in
                    Live(bytes: ReportPage.count(live["bytes"]), seconds: live["fps"] is String ? ReportPage.number(live["seconds"]) : nil,
                         written: (live["written"] as? String).flatMap(ReportPage.date))
                }
                return Output(path: path, link: link(path), bytes: ReportPage.count(output["bytes"]), frames: ReportPage.count(output["frames"]),
                              seconds: timed ? ReportPage.number(output["seconds"]) : nil, loudness: ReportPage.loudness(output["loudness"]),
                              live: output["bytes"] == nil ? live : nil)
            }
            let group = Group(status: status)
            let rowKey = (job["row"] as? [String: Any])?["key"] as? String
            let row = (job["row"] as? [String: Any]).flatMap { row -> String? in
                guard let key = row["key"] as? String else { return nil }
                let place = (row["feed"] as? String).map { feed in " (\(feed)\(ReportPage.count(row["line"]).map { ":\($0)" } ?? ""))" } ?? ""
                return key + place
            }
            let picture = ReportPage.picture(job, group: group, outputs: outputs, absolute: absolute, isPicture: isPicture)
            // Paths in the page's folder read relative to it, as the links are.
            // Long texts are cut for the tile (the report keeps them whole), so the page stays
            // a few times the size of the report at most.
            func shown(_ text: String?) -> String? { text.map { ReportPage.shortened(ReportPage.relativePaths(in: $0, folder: base), to: 2_000) } }
            let previous = group == .failed ? outputs.compactMap { $0.live?.written }.max() : nil
            tiles.append(Tile(id: ReportPage.shortened(id, to: 300), index: ReportPage.count(job["index"]) ?? position, status: status, group: group,
                              why: shown(job["why"] as? String), error: shown(job["error"] as? String), row: row,
                              rowKey: rowKey.map { ReportPage.shortened($0, to: 300) },
                              picture: picture.map { .image(path: $0, link: link($0)) } ?? .none(ReportPage.missing(job, group: group, outputs: outputs, absolute: absolute)),
                              outputs: outputs, previous: previous, isRetryable: group == .failed && job["retryable"] as? Bool == true))
        }
        // Within a group, the jobs of one feed row (a product) stand together, in the order its
        // first job comes in the manifest; its variants follow in manifest order.
        var firstOfRow: [String: Int] = [:]
        for tile in tiles { if let key = tile.rowKey { firstOfRow[key] = min(firstOfRow[key] ?? tile.index, tile.index) } }
        let order = Dictionary(uniqueKeysWithValues: Group.allCases.enumerated().map { ($1, $0) })
        func place(_ tile: Tile) -> Int { tile.rowKey.flatMap { firstOfRow[$0] } ?? tile.index }
        self.tiles = tiles.enumerated().sorted { a, b in
            (order[a.element.group]!, place(a.element), a.element.index, a.offset) < (order[b.element.group]!, place(b.element), b.element.index, b.offset)
        }.map(\.element)
    }

    /// The page of the report file at `path`, as `report html` makes it.
    /// - Parameter page: the page's absolute path (nil: standard output).
    /// - Throws: `SlicevidError`: `.inputMissing` for a report that cannot be read,
    ///   `.inputInvalid` for a file that is not a report, `.usage` for another schema.
    package init(reportAt path: String, page: String?) throws(SlicevidError) {
        let object = try ReportFile.object(at: path)
        try ReportFile.requireSchema(object, path: path, reader: "the page", again: "the batch")
        // The runs kept beside the report (`index.history/` beside `index.json`), as the run lists them.
        let base = page.map { URL(fileURLWithPath: $0).deletingLastPathComponent().path } ?? FileManager.default.currentDirectoryPath
        try self.init(report: object, page: page, source: path, nights: ReportHistory.nights(of: path, base: base))
    }

    /// The picture a job's tile shows: its first poster or storyboard output that is on disk,
    /// else the poster the run made for the page; none for a job that failed or did not finish
    /// (an earlier output would show what this run did not make).
    private static func picture(_ job: [String: Any], group: Group, outputs: [Output], absolute: (String) -> String,
                                isPicture: (String) -> Bool) -> String? {
        // A failed job shows its earlier render only while that is live: its own picture
        // output still as slicevid wrote it, else the page's poster of it.
        if group == .failed {
            for output in outputs where isPictureOutput(output.path) && output.live != nil && isPicture(absolute(output.path)) {
                return output.path
            }
            if outputs.contains(where: { $0.live != nil }), let poster = job["previous_poster"] as? String, isPicture(absolute(poster)) { return poster }
            return nil
        }
        guard group == .rendered || group == .skipped else { return nil }
        for output in outputs where isPictureOutput(output.path) && output.bytes != nil && isPicture(absolute(output.path)) {
            return output.path
        }
        if let poster = job["poster"] as? String, isPicture(absolute(poster)) { return poster }
        return nil
    }

    /// Why a tile has no picture, in a line.
    private static func missing(_ job: [String: Any], group: Group, outputs: [Output], absolute: (String) -> String) -> String {
        switch group {
        case .failed: return "failed: nothing new to show"
        case .stopped: return "did not finish"
        case .other: return "status not written by slicevid"
        case .rendered, .skipped: break
        }
        if let own = outputs.first(where: { isPictureOutput($0.path) }) {
            return "\(URL(fileURLWithPath: own.path).lastPathComponent) is not on disk"
        }
        if let why = job["poster_error"] as? String { return "no poster: \(why)" }
        if let poster = job["poster"] as? String { return "poster \(URL(fileURLWithPath: poster).lastPathComponent) is not on disk" }
        return "no poster: the job writes no .jpg, .png or .webp (a batch that writes this page makes one)"
    }

    /// Whether an output's path is a picture a browser shows (not a frame sequence).
    static func isPictureOutput(_ path: String) -> Bool {
        guard let format = OutputFormat(path: path) else { return false }
        return format.isStill
    }

    /// Whether `path` is a regular file with something in it.
    package static func isPicture(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG && status.st_size > 0
    }

    /// `target` (absolute) as a path relative to `folder` (absolute), `..` where it is outside.
    package static func relative(_ target: String, from folder: String) -> String {
        let to = URL(fileURLWithPath: target).standardizedFileURL.pathComponents
        let from = URL(fileURLWithPath: folder).standardizedFileURL.pathComponents
        var shared = 0
        while shared < min(to.count - 1, from.count), to[shared] == from[shared] { shared += 1 }
        let up = Array(repeating: "..", count: from.count - shared)
        return (up + to[shared...]).joined(separator: "/")
    }

    /// `text` with each path that begins with `folder` written relative to it, as the page's
    /// links are. A path begins at the start of the text or after a space, a quote, a bracket
    /// or `=`; the folder's name met inside a longer path (`/data/srv/out/x` on a page in
    /// `/srv/out`) is left alone.
    static func relativePaths(in text: String, folder: String) -> String {
        let prefix = Array((folder == "/" ? "/" : folder + "/").utf8)
        let bytes = Array(text.utf8)
        guard bytes.count >= prefix.count else { return text }
        let starts: Set<UInt8> = Set(" \t'\"([{<=,;".utf8)
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if (index == 0 || starts.contains(bytes[index - 1])), bytes[index...].starts(with: prefix) {
                index += prefix.count
                continue
            }
            result.append(bytes[index])
            index += 1
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// `text`, or its first `limit` characters and how long it was.
    static func shortened(_ text: String, to limit: Int) -> String {
        guard text.utf8.count > limit else { return text }
        let count = text.count
        return count <= limit ? text : String(text.prefix(limit)) + "… (\(count) characters)"
    }

    /// A whole number a report holds, when it is one and not negative.
    static func count(_ value: Any?) -> Int? {
        guard let number = value as? NSNumber else { return nil }
        let double = number.doubleValue
        guard double.isFinite, double >= 0, double <= Double(Int.max / 2), double == double.rounded() else { return nil }
        return Int(double)
    }

    /// A loudness (LUFS) a report holds: finite and within what a meter reads.
    static func loudness(_ value: Any?) -> Double? {
        guard let number = value as? NSNumber, number.doubleValue.isFinite, (-200...200).contains(number.doubleValue) else { return nil }
        return number.doubleValue
    }

    /// A time a report holds (ISO 8601, with or without fractions of a second).
    package static func date(_ text: String) -> Date? {
        guard text.utf8.count <= 64 else { return nil }
        let whole = ISO8601DateFormatter()
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return fractional.date(from: text) ?? whole.date(from: text)
    }

    /// `date` in the local time zone of the machine that makes the page, with the zone:
    /// `2026-12-03 02:04 CET`.
    package static func localTime(_ date: Date, seconds: Bool = false) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone.current
        formatter.dateFormat = seconds ? "yyyy-MM-dd HH:mm:ss zzz (xxx)" : "yyyy-MM-dd HH:mm zzz"
        return formatter.string(from: date)
    }

    /// A finite, non-negative number a report holds.
    static func number(_ value: Any?) -> Double? {
        guard let number = value as? NSNumber, number.doubleValue.isFinite, number.doubleValue >= 0 else { return nil }
        return number.doubleValue
    }

    /// How many tiles each group has.
    package var counts: [Group: Int] {
        var counts: [Group: Int] = [:]
        for tile in tiles { counts[tile.group, default: 0] += 1 }
        return counts
    }
}
