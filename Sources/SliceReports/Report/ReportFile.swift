// A `--report` file read back: strict JSON, bounded, a JSON object with a report's keys, of the
// schema this slicevid writes. `report merge` and `report html` both read reports this way.

import Foundation
import SliceKit
import SlicePipeline

/// Reading a batch report (a shard's, a whole run's, or a merged one) back from its file.
package enum ReportFile {
    /// The most bytes read from one report: 100 000 jobs with several outputs each.
    package static let maximumSize = 256 << 20

    /// The report at `path` as a JSON object with `slicevid`, `manifest` and `jobs`.
    /// - Throws: `SlicevidError` naming the file: `.inputMissing` when it cannot be read (or is
    ///   not a regular file), `.inputInvalid` when it is too large, not JSON, not a report, or
    ///   holds a field no report slicevid writes could hold (`checkLimits`).
    package static func object(at path: String) throws(SlicevidError) -> [String: Any] {
        let name = InputText.quoted(path)
        let data: Data
        do {
            data = try SettingsFile.read(path: path, limit: maximumSize)
        } catch .tooLarge(let bytes) {
            throw SlicevidError(.inputInvalid, "\(name): is \(bytes) bytes; a report of at most \(maximumSize >> 20) MiB is read")
        } catch {
            throw SlicevidError(.inputMissing, "\(name): \(error.reason)")
        }
        let parsed: Any
        do {
            parsed = try JSONText.parse(data)
        } catch {
            throw SlicevidError(.inputInvalid, "\(name): is not a slicevid report (not JSON: \(error))")
        }
        guard let object = parsed as? [String: Any], object["slicevid"] is String, object["manifest"] is String, object["jobs"] is [Any] else {
            throw SlicevidError(.inputInvalid, "\(name): is not a slicevid report (a JSON object with \"slicevid\", \"manifest\" and \"jobs\")")
        }
        try checkLimits(object, name: name)
        return object
    }

    /// Refuses a report of another schema than `BatchReport.schema`.
    /// - Parameters:
    ///   - reader: what reads it, for the message (`a merge`, `the page`).
    ///   - again: what to run again, for the message (`that shard`, `the batch`).
    /// - Throws: `SlicevidError(.usage)` naming the file, the schema and the version that wrote it.
    package static func requireSchema(_ object: [String: Any], path: String, reader: String, again: String) throws(SlicevidError) {
        guard let schema = object["schema"] as? Int, schema == BatchReport.schema else {
            let written = (object["schema"] as? Int).map { "schema \($0)" } ?? "no schema (version 1)"
            let version = object["slicevid"] as? String ?? "?"
            throw SlicevidError(.usage, "\(InputText.quoted(path)): a report of \(written) by slicevid \(InputText.quoted(version)); "
                + "\(reader) reads schema \(BatchReport.schema) (slicevid 0.4 and later): run \(again) again with this slicevid")
        }
    }
}
