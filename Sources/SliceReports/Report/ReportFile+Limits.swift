// A report read back is input: every field `report merge` and `report html` read is checked
// against what a report slicevid writes can hold — a number in its range before any arithmetic
// (a `manifest_jobs` of 1e9 once made merge build a billion-element list), a list no longer
// than a manifest allows, a string no longer than a path or a line can be — before either
// command looks at it.

import Foundation
import SliceCampaign
import SliceKit
import SlicePipeline

extension ReportFile {
    /// The longest path a report names: the kernel's PATH_MAX.
    static let longestPath = 4096
    /// The longest text (an id, an error, a reason) a report holds.
    static let longestText = 1 << 20
    /// The longest short word (a status, a version, a shard, a time).
    static let longestWord = 256
    /// The most orphans or problems a report lists.
    static let mostEntries = 1_000_000
    /// The largest size a report states, as exact as a JSON number is.
    static let largestBytes = 1 << 53
    /// The most seconds a run, or a job, can take: far beyond 100 000 jobs of three hours.
    static let mostRunSeconds = 1e10

    /// Refuses a report with a field no report slicevid writes could hold.
    /// - Throws: `SlicevidError(.inputInvalid)` naming the file, the field and what is accepted.
    static func checkLimits(_ object: [String: Any], name: String) throws(SlicevidError) {
        let check = LimitCheck(name: name)
        try check.text(object["slicevid"], "slicevid", longest: longestWord)
        try check.text(object["manifest"], "manifest", longest: longestPath)
        try check.text(object["description"], "description", longest: longestText)
        for key in ["manifest_sha256", "manifest_ids_sha256", "shard", "started", "status", "signal"] {
            try check.text(object[key], key, longest: longestWord)
        }
        try check.whole(object["schema"], "schema", 0...1_000)
        try check.whole(object["manifest_jobs"], "manifest_jobs", 0...Manifest.maximumJobs)
        try check.number(object["seconds"], "seconds", 0...mostRunSeconds)
        let counts = object["counts"] as? [String: Any] ?? [:]
        guard counts.count <= 64 else { throw check.fail("counts", "holds \(counts.count) counts; a report holds one per status") }
        for (key, value) in counts { try check.whole(value, "counts.\(InputText.excerpt(key))", 0...largestBytes) }
        for key in ["shards", "missing_shards"] { _ = try check.list(object[key], key, most: Shard.maximumCount) }
        for (index, problem) in try check.list(object["problems"], "problems", most: mostEntries).enumerated() {
            try check.text(problem, "problems[\(index)]", longest: longestText)
        }
        for (index, entry) in try check.list(object["orphans"], "orphans", most: mostEntries).enumerated() {
            guard let orphan = entry as? [String: Any] else { continue }
            try check.text(orphan["path"], "orphans[\(index)].path", longest: longestPath)
            try check.text(orphan["job"], "orphans[\(index)].job", longest: longestText)
            try check.text(orphan["kept"], "orphans[\(index)].kept", longest: longestText)
            try check.whole(orphan["bytes"], "orphans[\(index)].bytes", 0...largestBytes)
        }
        let jobs = try check.list(object["jobs"], "jobs", most: Manifest.maximumJobs)
        for (index, entry) in jobs.enumerated() {
            // Not an object: the reader names it as not a job.
            guard let job = entry as? [String: Any] else { continue }
            try checkJob(job, at: "jobs[\(index)]", check)
        }
    }

    /// Checks the fields of one job of a report.
    private static func checkJob(_ job: [String: Any], at place: String, _ check: LimitCheck) throws(SlicevidError) {
        try check.text(job["id"], "\(place).id", longest: longestText)
        try check.text(job["status"], "\(place).status", longest: longestWord)
        try check.whole(job["index"], "\(place).index", 0...(Manifest.maximumJobs - 1))
        try check.number(job["seconds"], "\(place).seconds", 0...mostRunSeconds)
        try check.text(job["fingerprint"], "\(place).fingerprint", longest: longestWord)
        for key in ["error", "why", "poster_error"] { try check.text(job[key], "\(place).\(key)", longest: longestText) }
        try check.text(job["poster"], "\(place).poster", longest: longestPath)
        try check.text(job["previous_poster"], "\(place).previous_poster", longest: longestPath)
        _ = try check.list(job["reasons"], "\(place).reasons", most: mostEntries)
        // `report merge` decides its exit status by it: never guessed from another type, and
        // only a failure can be worth a retry.
        if try check.flag(job["retryable"], "\(place).retryable") == true, let status = job["status"] as? String, status != JobStatus.failed.rawValue {
            throw check.fail("\(place).retryable", "is true for a job whose status is \(InputText.quoted(status)); only a failed job is worth a retry")
        }
        for (index, warning) in try check.list(job["warnings"], "\(place).warnings", most: mostEntries).enumerated() {
            try check.text(warning, "\(place).warnings[\(index)]", longest: longestText)
        }
        if let row = job["row"] as? [String: Any] {
            try check.text(row["key"], "\(place).row.key", longest: longestText)
            try check.text(row["feed"], "\(place).row.feed", longest: longestPath)
            try check.whole(row["line"], "\(place).row.line", 1...(FeedInput.maximumSize + 1))
        }
        for (index, entry) in try check.list(job["outputs"], "\(place).outputs", most: MakeRequest.maxOutputs).enumerated() {
            let at = "\(place).outputs[\(index)]"
            guard let output = entry as? [String: Any] else { continue }
            try check.text(output["path"], "\(at).path", longest: longestPath)
            try check.whole(output["bytes"], "\(at).bytes", 0...largestBytes)
            try check.whole(output["frames"], "\(at).frames", 0...SequenceSpec.maximumFrames)
            try check.text(output["fps"], "\(at).fps", longest: 32)
            try check.number(output["seconds"], "\(at).seconds", 0...(2 * SequenceSpec.maximumSeconds))
            try check.number(output["loudness"], "\(at).loudness", -200...200)
            try check.text(output["fingerprint"], "\(at).fingerprint", longest: longestWord)
            if let live = output["live"] as? [String: Any] {
                try check.whole(live["bytes"], "\(at).live.bytes", 0...largestBytes)
                try check.whole(live["frames"], "\(at).live.frames", 0...SequenceSpec.maximumFrames)
                try check.text(live["fps"], "\(at).live.fps", longest: 32)
                try check.number(live["seconds"], "\(at).live.seconds", 0...(2 * SequenceSpec.maximumSeconds))
                try check.number(live["loudness"], "\(at).live.loudness", -200...200)
                try check.text(live["written"], "\(at).live.written", longest: longestWord)
            }
        }
    }
}

/// The checks of one report file's fields, each refusal naming the file and the field. A field
/// of another type than slicevid writes is left alone: the readers take only what has their
/// type, and pass the rest through untouched (a later report may carry more).
private struct LimitCheck {
    /// The file, quoted.
    let name: String

    func fail(_ field: String, _ what: String) -> SlicevidError {
        SlicevidError(.inputInvalid, "\(name): \(field) \(what); not a report slicevid writes")
    }

    /// A string of at most `longest` bytes, when it is one.
    func text(_ value: Any?, _ field: String, longest: Int) throws(SlicevidError) {
        guard let text = value as? String, text.utf8.count > longest else { return }
        throw fail(field, "is \(text.utf8.count) bytes long; a report holds at most \(longest)")
    }

    /// A whole number in `range`, when it is a number: compared as a double first, so `1e30`
    /// or `-1` is refused and never converted.
    func whole(_ value: Any?, _ field: String, _ range: ClosedRange<Int>) throws(SlicevidError) {
        guard let number = value as? NSNumber else { return }
        let double = number.doubleValue
        guard !double.isFinite || double != double.rounded() || double < Double(range.lowerBound) || double > Double(range.upperBound) else { return }
        throw fail(field, "is \(InputText.quoted(number.description)); a report holds a whole number \(range.lowerBound)…\(range.upperBound)")
    }

    /// A finite number in `range`, when it is a number.
    func number(_ value: Any?, _ field: String, _ range: ClosedRange<Double>) throws(SlicevidError) {
        guard let number = value as? NSNumber, !(number.doubleValue.isFinite && range.contains(number.doubleValue)) else { return }
        throw fail(field, "is \(InputText.quoted(number.description)); a report holds a number \(plain(range.lowerBound))…\(plain(range.upperBound))")
    }

    /// `true` or `false` when present (absent in reports written before the field was): a
    /// field a reader decides by, so any other type is refused rather than passed over.
    func flag(_ value: Any?, _ field: String) throws(SlicevidError) -> Bool? {
        guard let value else { return nil }
        guard SpecField.isJSONBoolean(value), let flag = value as? Bool else {
            let given = value is NSNull ? "null" : (value as? String).map(InputText.quoted) ?? (value as? NSNumber)?.description ?? (value is [Any] ? "a list" : "an object")
            throw fail(field, "is \(given); a report holds true or false")
        }
        return flag
    }

    /// A list of at most `most` entries, when it is one; empty otherwise.
    func list(_ value: Any?, _ field: String, most: Int) throws(SlicevidError) -> [Any] {
        guard let list = value as? [Any] else { return [] }
        guard list.count <= most else { throw fail(field, "holds \(list.count) entries; a report holds at most \(most)") }
        return list
    }

    /// `10000000000` rather than `1e+10`.
    private func plain(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
