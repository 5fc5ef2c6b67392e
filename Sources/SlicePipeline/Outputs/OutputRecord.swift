// The sidecar beside each batch output (`.name.mp4.slicevid.json`): the fingerprint it was
// made from and its facts, so a re-run can skip it, and report its size and length, without
// opening the video; and the stamps of the files slicevid wrote, its only licence to replace
// or delete them later.

import Foundation
import Glibc
import SliceKit
import SliceMedia

/// What a batch knows about an output it wrote.
package struct OutputRecord: Sendable, Equatable {
    /// `Fingerprint.value` of what produced the output.
    package var fingerprint: String
    /// Bytes on disk (for a PNG sequence, of all its frames).
    package var bytes: Int
    /// Frames the output holds (a GIF's own count, 1 for a still).
    package var frames: Int
    /// Frames per second in text form (`30`, `30000/1001`, a GIF's `15`); nil for a still.
    package var frameRate: String?
    /// Seconds it plays (0 for a still).
    package var seconds: Double
    /// The fingerprint's lines, for a user asking why a job re-rendered.
    package var producedBy: [String]
    /// The stamp of each file written, in frame order (one for a single file); empty in
    /// sidecars of slicevid 0.2.0.
    package var files: [FileStamp]
    /// The manifest that wrote it (its absolute path, `-` for standard input) and the job's id:
    /// what tells an output a manifest no longer makes (`batch --prune`). nil in sidecars of
    /// slicevid 0.3 and earlier, whose outputs are never taken for orphans.
    package var manifest: String?
    package var job: String?
    /// The integrated loudness (LUFS) of the music bed it carries, when the bed was levelled.
    package var loudness: Double?

    /// Describes an output being committed.
    /// - Parameters:
    ///   - files: the stamps of its files, in frame order (one for a single file).
    ///   - fingerprint: the hash of what produced it (a campaign's `Fingerprint.value`).
    ///   - producedBy: the lines the hash was taken of.
    ///   - written: what it holds: frames, rate and seconds as written.
    ///   - manifest: the manifest that wrote it, as its report names it.
    ///   - job: the id of the job that wrote it.
    package init(files: [FileStamp], fingerprint: String, producedBy: [String], written: WrittenOutput, manifest: String? = nil,
                 job: String? = nil) {
        self.fingerprint = fingerprint
        bytes = files.reduce(0) { $0 + $1.bytes }
        frames = written.frames
        frameRate = written.frameRate?.description
        seconds = written.seconds
        self.producedBy = producedBy
        self.files = files
        self.manifest = manifest
        self.job = job
        loudness = written.loudness
    }

    /// Where the sidecar of `output` lives: a hidden file beside it.
    package static func sidecarPath(for output: String) -> String {
        let url = URL(fileURLWithPath: output)
        return url.deletingLastPathComponent().path + "/." + url.lastPathComponent + ".slicevid.json"
    }

    /// Refuses an output whose sidecar's name holds what no record may replace: a FIFO, a
    /// device, a socket, a folder, or a file or link of another user's. An older record (a
    /// regular file) is replaced; so is a link, as a name, never followed.
    /// - Throws: `SlicevidError(.outputBlocked)` naming the output and its sidecar.
    package static func checkPlace(for output: String) throws(SlicevidError) {
        let sidecar = sidecarPath(for: output)
        guard let problem = placeProblem(sidecar) else { return }
        throw SlicevidError(.outputBlocked, "\(output: output): its record \(InputText.quoted(sidecar)) \(problem.what); \(problem.remedy)")
    }

    /// What keeps a record from being moved to `path` (`is a named pipe (FIFO)`), and what to
    /// do; nil when nothing does. Something other than a file or a link, or another user's file
    /// (a record planted there), is never replaced.
    static func placeProblem(_ path: String) -> (what: String, remedy: String)? {
        var info = stat()
        guard FileSystem.lstat(path, &info) == 0 else { return nil }
        let type = info.st_mode & S_IFMT
        guard type == S_IFREG || type == S_IFLNK else {
            return (FileKind.described(info.st_mode), "a record is written to a regular file, and this is never replaced (remove it)")
        }
        return RecordAuthority.problem(licensed: info).map { ($0, "another user's file is never replaced (remove it, or write the output elsewhere)") }
    }

    /// A record of these fields, as `init(object:)` reads them back.
    init(fingerprint: String, bytes: Int, frames: Int, frameRate: String?, seconds: Double, producedBy: [String],
                 files: [FileStamp]) {
        self.fingerprint = fingerprint
        self.bytes = bytes
        self.frames = frames
        self.frameRate = frameRate
        self.seconds = seconds
        self.producedBy = producedBy
        self.files = files
    }

    /// The sidecar's bytes: JSON, keys sorted.
    var json: Data {
        var object: [String: Any] = ["fingerprint": fingerprint, "bytes": bytes, "frames": frames, "fps": frameRate ?? NSNull(),
                                     "seconds": seconds, "producedBy": producedBy, "files": files.map(\.json)]
        if let manifest { object["manifest"] = manifest }
        if let job { object["job"] = job }
        if let loudness, loudness.isFinite { object["loudness"] = (loudness * 10).rounded() / 10 }
        // Only JSON types go in, so serialisation cannot fail.
        return (try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data()
    }

    /// Writes the sidecar to `path`, a new name (a commit's temporary), never through a symlink,
    /// writable by its owner alone whatever the umask: a record others may write licenses
    /// nothing (`RecordAuthority`).
    /// - Throws: `SlicevidError(.outputFailed)` naming the file.
    func writeNew(at path: String) throws(SlicevidError) {
        let descriptor = FileSystem.open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw SlicevidError(.outputFailed, "\(path): cannot record the output (\(String(cString: strerror(errno)))); nothing was replaced")
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        do {
            try handle.write(contentsOf: json)
        } catch {
            FileSystem.unlink(path)
            throw SlicevidError(.outputFailed, "\(path): cannot record the output (\(error.localizedDescription)); nothing was replaced")
        }
    }

    /// Whether `output` is still what this record describes: present with the recorded size
    /// (every frame, for a sequence). Cheap: a `stat` per file, no decoding.
    package func describesDisk(output: String, format: OutputFormat) -> Bool {
        OutputRecord.bytesOnDisk(output: output, format: format, frames: frames) == bytes
    }

    /// Whether the files at `output` are still the very files this record stamps (size, inode
    /// and time, frame by frame): an earlier render still live, untouched since slicevid wrote
    /// it. A record without stamps (slicevid 0.2.0) proves nothing.
    package func stampsDisk(output: String, format: OutputFormat) -> Bool {
        let paths = format.isSequence ? (0..<frames).map { OutputTarget.frameName(pattern: output, index: $0) } : [output]
        guard !files.isEmpty, files.count == paths.count else { return false }
        return zip(files, paths).allSatisfy { stamp, path in FileStamp(path: path).map(stamp.matches) ?? false }
    }

    /// The size of `output` on disk, or nil when it (or any frame of a sequence) is missing.
    package static func bytesOnDisk(output: String, format: OutputFormat, frames: Int) -> Int? {
        bytesOnDisk(files: format.isSequence ? (0..<frames).map { OutputTarget.frameName(pattern: output, index: $0) } : [output])
    }

    /// The size of `files` on disk together, or nil when any is missing.
    static func bytesOnDisk(files: [String]) -> Int? {
        var total = 0
        for file in files {
            guard let stamp = FileStamp(path: file) else { return nil }
            total += stamp.bytes
        }
        return total
    }
}
