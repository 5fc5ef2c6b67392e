// The morning page's history: each run that writes `--report index.html` also keeps its page and
// JSON report in `index.history/` (`2026-12-04T02-00-13Z.html` and `.json`, UTC), and the page
// lists the runs kept, so a manual run at 09:00 never hides the failed night before. The history
// is bounded (the newest N runs), and a run deletes only files it can prove slicevid wrote: a
// night's name, a page or report's shape, the running user's own file in a folder nobody else
// can write to (`RecordAuthority`). Whatever else is in the folder is left alone.

import Foundation
import Glibc
import SliceKit
import SlicePipeline

/// The runs kept beside a report page.
package enum ReportHistory {
    /// Runs kept when none is asked for: a month of nightly runs.
    package static let defaultKept = 30
    /// The runs a history may keep (0 keeps none and leaves the folder alone).
    package static let keptRange = 0...1_000
    /// The most names of the history folder looked at: far more than it ever holds.
    static let mostEntries = 100_000
    /// The most bytes of a kept report read for the index of nights.
    static let largestIndexed = 64 << 20

    /// Where the runs of the page at `page` are kept: `index.history` beside `index.html` (and
    /// beside its `index.json`).
    package static func folder(for page: String) -> String { ReportPage.sibling(of: page, extension: "history") }

    /// A night's name: when its run started, in UTC to the second (`2026-12-04T02-00-13Z`), so
    /// names sort as the runs came and mean the same wherever they are read.
    static func stem(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
        return String(format: "%04d", parts.year ?? 0) + "-\(two(parts.month))-\(two(parts.day))T\(two(parts.hour))-\(two(parts.minute))-\(two(parts.second))Z"
    }

    /// The sort key of a night's file name (`STEM.html`, `STEM.json`, `STEM-2.json` for a second
    /// run in the same second); nil for any name slicevid does not give a night.
    static func night(_ name: String) -> (stem: String, time: String, count: Int, isPage: Bool)? {
        let isPage = name.hasSuffix(".html")
        guard isPage || name.hasSuffix(".json") else { return nil }
        let stem = String(name.dropLast(5))
        let bytes = Array(stem.utf8)
        // yyyy-mm-ddThh-mm-ssZ, then optionally -N.
        let shape = Array("0000-00-00T00-00-00Z".utf8)
        guard bytes.count >= shape.count, bytes.count <= shape.count + 5 else { return nil }
        for (byte, expected) in zip(bytes, shape) {
            if expected == UInt8(ascii: "0") { guard (0x30...0x39).contains(byte) else { return nil } } else if byte != expected { return nil }
        }
        var count = 1
        if bytes.count > shape.count {
            let tail = bytes[shape.count...]
            guard tail.first == UInt8(ascii: "-"), tail.count >= 2, tail.dropFirst().allSatisfy({ (0x30...0x39).contains($0) }),
                  tail.dropFirst().first != UInt8(ascii: "0"), let number = Int(String(decoding: tail.dropFirst(), as: UTF8.self)) else { return nil }
            count = number
        }
        return (stem, String(decoding: bytes.prefix(shape.count), as: UTF8.self), count, isPage)
    }

    /// Refuses, before anything renders, a history folder that is there but is not a folder of
    /// its own (a file, a link): the runs are kept in a real folder only, never through a link.
    /// - Throws: `SlicevidError(.outputBlocked)` naming the report setting and the folder.
    package static func check(for page: String) throws(SlicevidError) {
        let folder = folder(for: page)
        var status = stat()
        guard FileSystem.lstat(folder, &status) == 0 else { return }
        let kind = status.st_mode & S_IFMT
        guard kind != S_IFDIR else { return }
        throw SlicevidError(.outputBlocked, "\(setting: .report) \(InputText.quoted(page)): \(InputText.quoted(folder)), where the page keeps earlier runs, \(FileKind.described(kind)); move it away or give the page another name")
    }

    /// Keeps this run in the history of `page`: its JSON report and a page of it (linked from
    /// inside the folder) under a new night's name, then deletes the nights past the newest
    /// `kept`, where slicevid can prove it wrote them.
    /// - Parameters:
    ///   - json: the run's JSON report.
    ///   - started: when the run started, which names the night.
    ///   - page: the run's page (`index.html`).
    /// - Throws: `SlicevidError(.outputBlocked)` naming the report setting when the folder or a
    ///   night cannot be written.
    package static func keep(_ json: Data, started: Date, page: String, kept: Int) throws(SlicevidError) {
        guard kept > 0 else { return }
        let folder = folder(for: page)
        _ = try OutputFolder.create(folder, for: folder, subject: "\(setting: .report) \(InputText.quoted(page))")
        try check(for: page)
        // A second run in the same second takes the next free name: -2, -3, …
        let base = stem(started)
        var name = base
        var status = stat()
        for count in 2...10_000 {
            guard FileSystem.lstat(folder + "/" + name + ".json", &status) == 0 || FileSystem.lstat(folder + "/" + name + ".html", &status) == 0 else { break }
            name = base + "-\(count)"
        }
        let report = folder + "/" + name + ".json", nightPage = folder + "/" + name + ".html"
        try BatchReport.write(json, to: report, force: false)
        let object = (try? JSONSerialization.jsonObject(with: json)) as? [String: Any] ?? [:]
        let made = try ReportPage(report: object, page: URL(fileURLWithPath: nightPage).standardizedFileURL.path, source: report)
        try BatchReport.write(made.html, to: nightPage, force: false, form: .page)
        prune(folder, kept: kept)
    }

    /// The nights in `folder`'s files, newest first: each night's stem and whether its page is there.
    private static func listed(_ folder: String) -> [(stem: String, page: Bool, report: Bool)] {
        guard let directory = PathBytes.withCString(folder, { opendir($0) }) else { return [] }
        defer { closedir(directory) }
        var nights: [String: (time: String, count: Int, page: Bool, report: Bool)] = [:]
        var seen = 0
        while seen < mostEntries, let entry = readdir(directory) {
            seen += 1
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            guard let night = night(name) else { continue }
            var entry = nights[night.stem] ?? (night.time, night.count, false, false)
            if night.isPage { entry.page = true } else { entry.report = true }
            nights[night.stem] = entry
        }
        return nights.sorted { ($0.value.time, $0.value.count) > ($1.value.time, $1.value.count) }.map { ($0.key, $0.value.page, $0.value.report) }
    }

    /// Deletes the nights of `folder` past the newest `kept`: each file only while it is a page
    /// or report slicevid wrote, the running user's own, in a folder only its owner can write.
    static func prune(_ folder: String, kept: Int) {
        var folderStatus = stat()
        guard FileSystem.lstat(folder, &folderStatus) == 0, folderStatus.st_mode & S_IFMT == S_IFDIR else { return }
        for night in listed(folder).dropFirst(kept) {
            for (isPage, present) in [(true, night.page), (false, night.report)] where present {
                let path = folder + "/" + night.stem + (isPage ? ".html" : ".json")
                var status = stat()
                guard FileSystem.lstat(path, &status) == 0, RecordAuthority.problem(record: status, folder: folderStatus) == nil,
                      isPage ? BatchReport.isEarlierPage(path) : BatchReport.isEarlierReport(path) else { continue }
                FileSystem.unlink(path)
            }
        }
    }

    /// The runs kept in the history of the report at `report` (its page's or its JSON's path),
    /// newest first and at most `kept`, their pages linked relative to `base` (the folder of the
    /// page that lists them). Each night's report is read back as input: bounded, and only its
    /// start, status and counts taken, each checked.
    package static func nights(of report: String, base: String, kept: Int = keptRange.upperBound) -> [ReportPage.Night] {
        let folder = URL(fileURLWithPath: folder(for: report)).standardizedFileURL.path
        var status = stat()
        guard FileSystem.lstat(folder, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else { return [] }
        // Only pages slicevid wrote are listed: a file of someone else's named like a night is not one.
        return Array(listed(folder).lazy.filter { $0.page && BatchReport.isEarlierPage(folder + "/" + $0.stem + ".html") }.prefix(kept).map { night in
            let summary = night.report ? summary(of: folder + "/" + night.stem + ".json") : nil
            return ReportPage.Night(link: ReportPage.relative(folder + "/" + night.stem + ".html", from: base),
                                    started: summary?.started ?? nil, status: summary?.status, counts: summary?.counts ?? [:])
        })
    }

    /// A kept report's start, status and counts; nil when it cannot be read as a report.
    private static func summary(of path: String) -> (started: Date?, status: String, counts: [String: Int])? {
        guard let data = try? SettingsFile.read(path: path, limit: largestIndexed), let parsed = try? JSONText.parse(data),
              let object = parsed as? [String: Any], let status = object["status"] as? String, status.utf8.count <= 64 else { return nil }
        var counts: [String: Int] = [:]
        for (key, value) in object["counts"] as? [String: Any] ?? [:] where key.utf8.count <= 64 {
            if let count = ReportPage.count(value) { counts[key] = count }
        }
        return ((object["started"] as? String).flatMap(ReportPage.date), status, counts)
    }
}
