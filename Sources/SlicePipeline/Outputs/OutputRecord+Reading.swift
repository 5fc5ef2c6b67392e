// A sidecar read back is input, like a still from a stranger: opened without following a link,
// bounded in size, strict JSON, every number checked against what a record slicevid writes can
// hold before any arithmetic, and trusted only when `RecordAuthority` says nobody else could
// have written it. A sidecar that fails is evidence of nothing and licenses nothing.

import CPlatform
import Foundation
import Glibc
import SliceKit
import SliceMedia

extension OutputRecord {
    /// What is at an output's sidecar name.
    package enum Reading: Sendable {
        /// Nothing (or no folder) there.
        case none
        /// A record of the running user's: evidence that the output is up to date, and the
        /// licence to replace or delete the files it stamps.
        case record(OutputRecord)
        /// Something that is no record of the running user's: `why` says why, as a clause
        /// (`it is owned by uid 65534, not this user (uid 0)`). The manifest and job it names,
        /// when it is JSON that names them, let the orphan list say it was kept.
        case refused(why: String, manifest: String?, job: String?)

        /// The record, when it is one.
        package var record: OutputRecord? {
            if case .record(let record) = self { return record }
            return nil
        }

        /// Why the sidecar licenses nothing, when something is there that is no record.
        package var refusal: String? {
            if case .refused(let why, _, _) = self { return why }
            return nil
        }

        /// What a batch may replace or delete at `output` (of `format`) on this sidecar's word:
        /// the files the record stamps, or nothing, with the reason when a sidecar is there.
        package func licence(output: String, format: OutputFormat) -> Replacement {
            switch self {
            case .none: return .recorded([])
            case .refused(let why, _, _): return .recorded([], refusal: "its sidecar \(OutputRecord.named(output)) licenses nothing: \(why)")
            case .record(let record): return record.licence(output: output, format: format)
            }
        }
    }

    /// The most bytes of a sidecar read: a few hundred per frame of a sequence.
    static let maximumSize = 64 << 20
    /// The largest size a record states, of one file or of all: as exact as a JSON number is.
    static let maximumBytes = 1 << 53
    /// The most fingerprint lines a record holds.
    static let maximumLines = 1_000_000

    /// The sidecar of `output`, read and judged.
    package static func reading(for output: String) -> Reading {
        let path = sidecarPath(for: output)
        let url = URL(fileURLWithPath: path)
        let folder = PathBytes.withCString(url.deletingLastPathComponent().path) { cplatform_open_folder($0) }
        guard folder >= 0 else { return .none }
        defer { close(folder) }
        // Never through a link, and never waiting on a FIFO.
        let descriptor = FileSystem.openat(folder, url.lastPathComponent, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            switch errno {
            case ENOENT: return .none
            case ELOOP: return .refused(why: "it is a symbolic link", manifest: nil, job: nil)
            default: return .refused(why: "it cannot be read (\(String(cString: strerror(errno))))", manifest: nil, job: nil)
            }
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var record = stat(), place = stat()
        guard fstat(descriptor, &record) == 0, fstat(folder, &place) == 0 else {
            return .refused(why: "it cannot be examined (\(String(cString: strerror(errno))))", manifest: nil, job: nil)
        }
        guard record.st_mode & S_IFMT == S_IFREG else { return .refused(why: "it is not a regular file", manifest: nil, job: nil) }
        guard record.st_size <= maximumSize else {
            return .refused(why: "it is \(record.st_size) bytes; a record slicevid writes is at most \(maximumSize >> 20) MiB", manifest: nil, job: nil)
        }
        guard let data = try? handle.read(upToCount: maximumSize + 1), data.count <= maximumSize else {
            return .refused(why: "it cannot be read whole", manifest: nil, job: nil)
        }
        guard let object = (try? JSONText.parse(data)) as? [String: Any] else {
            return .refused(why: "it is not a JSON object", manifest: nil, job: nil)
        }
        let manifest = object["manifest"] as? String, job = object["job"] as? String
        if let why = RecordAuthority.problem(record: record, folder: place) { return .refused(why: why, manifest: manifest, job: job) }
        do throws(Malformed) {
            return .record(try OutputRecord(object: object))
        } catch {
            return .refused(why: "it is not a record slicevid writes (\(error.what))", manifest: manifest, job: job)
        }
    }

    /// The sidecar's path of `output`, whole and quoted, for a message: a path cut short
    /// would not say which file to look at.
    static func named(_ output: String) -> String {
        "'" + InputText.escaped(sidecarPath(for: output)) + "'"
    }

    /// The sidecar of `output` when it is a record of the running user's (`reading(for:)`);
    /// nil when there is none, or what is there is not one.
    package static func read(for output: String) -> OutputRecord? {
        reading(for: output).record
    }

    /// A field a record slicevid writes could not hold.
    struct Malformed: Error {
        /// `frames is -1; a record holds 0…2592001`.
        let what: String
    }

    /// Reads the record's fields from its JSON object, each checked against what slicevid writes.
    /// - Throws: `Malformed` naming the first field that is missing or out of range.
    init(object: [String: Any]) throws(Malformed) {
        func whole(_ key: String, _ range: ClosedRange<Int>) throws(Malformed) -> Int {
            guard let value = Self.whole(object[key], in: range) else {
                throw Malformed(what: "\(key) is \(Self.shown(object[key])); a record holds a whole number \(range.lowerBound)…\(range.upperBound)")
            }
            return value
        }
        guard let fingerprint = object["fingerprint"] as? String, fingerprint.utf8.count == 64,
              fingerprint.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else {
            throw Malformed(what: "fingerprint is \(Self.shown(object["fingerprint"])); a record holds a SHA-256 in hex")
        }
        let bytes = try whole("bytes", 0...Self.maximumBytes)
        let frames = try whole("frames", 0...SequenceSpec.maximumFrames)
        var frameRate: String?
        switch object["fps"] {
        case nil, is NSNull: break
        // A still has no rate (sidecars of slicevid 0.2.0 gave it the clip's).
        case let text as String where FrameRate(parsing: text) != nil: frameRate = text
        case let other: throw Malformed(what: "fps is \(Self.shown(other)); a record holds a frame rate 1…240 or null")
        }
        let mostSeconds = 2 * SequenceSpec.maximumSeconds
        guard let seconds = (object["seconds"] as? NSNumber)?.doubleValue, seconds.isFinite, (0...mostSeconds).contains(seconds) else {
            throw Malformed(what: "seconds is \(Self.shown(object["seconds"])); a record holds 0…\(Int(mostSeconds))")
        }
        var producedBy: [String] = []
        if let lines = object["producedBy"] {
            guard let strings = lines as? [String], strings.count <= Self.maximumLines else {
                throw Malformed(what: "producedBy is not a list of at most \(Self.maximumLines) lines")
            }
            producedBy = strings
        }
        var loudness: Double?
        switch object["loudness"] {
        case nil, is NSNull: break
        case let number as NSNumber where number.doubleValue.isFinite && (-200...200).contains(number.doubleValue): loudness = number.doubleValue
        case let other: throw Malformed(what: "loudness is \(Self.shown(other)); a record holds -200…200 LUFS or null")
        }
        for key in ["manifest", "job"] where object[key] != nil && !(object[key] is String) {
            throw Malformed(what: "\(key) is \(Self.shown(object[key])); a record holds a string")
        }
        self.init(fingerprint: fingerprint, bytes: bytes, frames: frames, frameRate: frameRate, seconds: seconds, producedBy: producedBy,
                  files: [])
        manifest = object["manifest"] as? String
        job = object["job"] as? String
        self.loudness = loudness
        files = try Self.stamps(object, bytes: bytes, frames: frames, namesManifest: manifest != nil)
    }

    /// The stamps a record's `files` holds: each one full (size, inode, time), their sizes
    /// adding up to `bytes`. A record without `files` is one of slicevid 0.2.0 (sizes only),
    /// unless it names a manifest: those were all written with full stamps, and a record that
    /// names one but stamps no file would license any file of the recorded size.
    private static func stamps(_ object: [String: Any], bytes: Int, frames: Int, namesManifest: Bool) throws(Malformed) -> [FileStamp] {
        guard let listed = object["files"] else {
            if namesManifest { throw Malformed(what: "it names a manifest but stamps no file; a record stamps each file it licenses") }
            return []
        }
        guard let entries = listed as? [Any], (1...max(1, frames)).contains(entries.count) else {
            throw Malformed(what: "files is not a list of 1…\(max(1, frames)) stamps (one per file written)")
        }
        var stamps: [FileStamp] = []
        var total = 0
        for (index, entry) in entries.enumerated() {
            guard let stamp = FileStamp(json: entry) else {
                throw Malformed(what: "files[\(index)] is not a full stamp (bytes, inode and modified, as slicevid writes them)")
            }
            total += stamp.bytes
            stamps.append(stamp)
        }
        // Each at most 2⁵³ and at most `maximumFrames` of them: the sum cannot overflow.
        guard total == bytes else { throw Malformed(what: "its files add up to \(total) bytes, not the \(bytes) it records") }
        return stamps
    }

    /// The whole number `value` holds when it is one within `range`: checked as a double
    /// first, so a fraction, `1e30` or a string is nil and never converted.
    static func whole(_ value: Any?, in range: ClosedRange<Int>) -> Int? {
        guard let number = value as? NSNumber else { return nil }
        let double = number.doubleValue
        guard double.isFinite, double == double.rounded(), double >= Double(range.lowerBound), double <= Double(range.upperBound) else { return nil }
        return Int(double)
    }

    /// A value from a record, short, for a message.
    private static func shown(_ value: Any?) -> String {
        switch value {
        case nil: "missing"
        case is NSNull: "null"
        case let text as String: InputText.quoted(text)
        case let number as NSNumber: InputText.quoted(number.description)
        default: "not a number or a string"
        }
    }

    /// What this record lets a batch replace or delete at `output`: the stamps of the files
    /// slicevid wrote. A sidecar of slicevid 0.2.0 kept only the total size; while the files on
    /// disk still add up to it, their present stamps stand in (such a sidecar names no
    /// manifest, so it is never taken for an orphan's).
    package func licence(output: String, format: OutputFormat) -> Replacement {
        if !files.isEmpty {
            guard format.isSequence ? files.count == frames : files.count == 1 else {
                return .recorded([], refusal: "its sidecar \(OutputRecord.named(output)) licenses nothing: it stamps \(files.count) files for \(format.isSequence ? "\(frames) frames" : "one file")")
            }
            return .recorded(files)
        }
        guard describesDisk(output: output, format: format) else { return .recorded([]) }
        let paths = format.isSequence ? (0..<frames).map { OutputTarget.frameName(pattern: output, index: $0) } : [output]
        let present = paths.compactMap(FileStamp.init(path:))
        return .recorded(present.count == paths.count ? present : [])
    }
}
