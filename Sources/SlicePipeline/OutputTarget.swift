// Atomic outputs: every output is written under a hidden temporary name beside its final
// path and renamed into place only when complete. A failed or interrupted run leaves no
// partial file under the final name and never replaces a good earlier output.

import Foundation
import SliceMedia
import Synchronization

/// One requested output path, its format, and the temporary place it is written first.
public final class OutputTarget: @unchecked Sendable {
    // @unchecked: immutable after init except `committed`, which only the job's thread touches.
    /// The path the user asked for (a printf pattern for sequences).
    public let path: String
    public let format: OutputFormat
    /// Where the writer writes: a hidden file beside `path`, or for sequences the same
    /// pattern inside a hidden folder beside the frames.
    public let temporaryPath: String
    private let temporaryFolder: String?
    /// Whether an existing output may be replaced (and, for a sequence, its extra frames removed).
    private let force: Bool
    private var committed = false

    /// The `-o` value that streams YUV4MPEG2 to standard output.
    public static let standardOutput = "-"
    /// The `-o` value that renders without writing anything (for benchmarks and checks).
    public static let discard = "null"

    /// Whether this output streams to stdout, where there is nothing to rename or remove.
    public var isStream: Bool { path == OutputTarget.standardOutput }

    /// Checks the path and reserves a temporary name.
    /// - Parameters:
    ///   - path: the `-o` value.
    ///   - force: whether an existing output may be replaced.
    /// - Throws: `SlicevidError` (usage for an unknown extension; outputBlocked when the folder
    ///   is missing or read-only, or the output exists without `force`).
    public init(path: String, force: Bool) throws(SlicevidError) {
        let format = try OutputTarget.check(path: path, force: force)
        self.path = path
        self.format = format
        self.force = force
        if path == OutputTarget.standardOutput {
            temporaryFolder = nil
            temporaryPath = "pipe:1"
            return
        }
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        let name = url.lastPathComponent
        let tag = ".slicevid-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        if format.isSequence {
            let tempFolder = folder + "/" + tag
            guard (try? FileManager.default.createDirectory(atPath: tempFolder, withIntermediateDirectories: false)) != nil else {
                throw SlicevidError(.outputBlocked, "-o \(path): cannot create a temporary folder in \(folder)")
            }
            temporaryFolder = tempFolder
            temporaryPath = tempFolder + "/" + name
        } else {
            temporaryFolder = nil
            temporaryPath = folder + "/." + name + tag + ".partial"
        }
        OutputTarget.unfinished.withLock { $0[ObjectIdentifier(self)] = temporaryFolder ?? temporaryPath }
    }

    /// Every temporary file or folder not yet committed or discarded, in this process.
    private static let unfinished = Mutex<[ObjectIdentifier: String]>([:])

    /// Removes every temporary file and folder of every output still being written, then ends
    /// the process without unwinding (a second SIGINT/SIGTERM). Waits for a commit or a
    /// discard under way, so an output is either wholly in place or wholly gone; exits while
    /// still holding the lock, so no commit can start on files that were just removed.
    public static func discardAllUnfinishedAndExit(status: Int32) -> Never {
        unfinished.withLock { places -> Never in
            for place in places.values { remove(place) }
            places.removeAll()
            _exit(status)
        }
    }

    /// Deletes a temporary file, or a temporary folder and its frames. A folder is first
    /// renamed away, so an encoder still writing frames into it by path (the render has not
    /// stopped when a second signal arrives) cannot refill it while it is being emptied.
    private static func remove(_ place: String) {
        if unlink(place) == 0 || errno == ENOENT { return }
        let doomed = place + ".removing"
        let target = rename(place, doomed) == 0 ? doomed : place
        try? FileManager.default.removeItem(atPath: target)
    }

    /// Checks that `path` could be written, without reserving or creating anything (what
    /// `make --dry-run` needs).
    /// - Returns: the format the path asks for.
    /// - Throws: `SlicevidError` (usage for an unknown extension; outputBlocked when the folder
    ///   is missing or read-only, or the output exists without `force`).
    @discardableResult
    public static func check(path: String, force: Bool) throws(SlicevidError) -> OutputFormat {
        guard let format = OutputFormat(path: path) else {
            throw SlicevidError(.usage, "-o \(path): unknown output type; accepted: \(OutputFormat.acceptedForms)")
        }
        if path == OutputTarget.standardOutput { return format }
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw SlicevidError(.outputBlocked, "-o \(path): folder \(folder) does not exist")
        }
        guard access(folder, W_OK) == 0 else {
            throw SlicevidError(.outputBlocked, "-o \(path): folder \(folder) is not writable")
        }
        if format.isSequence {
            // Any frame of an earlier sequence counts, not just frame 0: they would be mixed.
            if !force, let existing = OutputTarget.existingFrames(pattern: url.path).first {
                throw SlicevidError(.outputBlocked, "-o \(path): \(existing) already exists; pass --force to replace the sequence")
            }
        } else {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) {
                guard !isDirectory.boolValue else {
                    throw SlicevidError(.outputBlocked, "-o \(path): is a folder; give a file name")
                }
                guard force else {
                    throw SlicevidError(.outputBlocked, "-o \(path): already exists; pass --force to replace it")
                }
            }
        }
        return format
    }

    deinit { if !committed && !isStream { discard() } }

    /// Moves the finished output into place (replacing an older one only now).
    /// - Throws: `SlicevidError(.outputFailed)` if the rename fails.
    public func commit() throws(SlicevidError) {
        if isStream { committed = true; return }
        // Under the registry's lock: an exit on a second signal waits for the move to finish.
        try OutputTarget.unfinished.withLock { (places: inout [ObjectIdentifier: String]) throws(SlicevidError) in
            // Never move what is no longer there: with --force, an empty sequence would
            // otherwise count as zero new frames and the old ones would be removed as its tail.
            guard places[ObjectIdentifier(self)] != nil else {
                throw SlicevidError(.outputFailed, "-o \(path): its temporary files are gone; nothing was moved into place")
            }
            try moveIntoPlace()
            places[ObjectIdentifier(self)] = nil
        }
        committed = true
    }

    private func moveIntoPlace() throws(SlicevidError) {
        if let temporaryFolder {
            let finalFolder = URL(fileURLWithPath: path).deletingLastPathComponent().path
            guard let listed = try? FileManager.default.contentsOfDirectory(atPath: temporaryFolder) else {
                throw SlicevidError(.outputFailed, "-o \(path): cannot read its temporary folder \(temporaryFolder)")
            }
            let files = listed.sorted()
            for file in files where rename(temporaryFolder + "/" + file, finalFolder + "/" + file) != 0 {
                throw SlicevidError(.outputFailed, "-o \(path): cannot move \(file) into place: \(String(cString: strerror(errno)))")
            }
            rmdir(temporaryFolder)
            // A longer sequence replaced with --force would otherwise keep its tail, and readers
            // take every consecutive number: remove the old frames that follow the new last one.
            if force {
                var index = files.count
                while unlink(OutputTarget.frameName(pattern: URL(fileURLWithPath: path).path, index: index)) == 0 { index += 1 }
            }
        } else if rename(temporaryPath, path) != 0 {
            throw SlicevidError(.outputFailed, "-o \(path): cannot move the finished file into place: \(String(cString: strerror(errno)))")
        }
    }

    /// Removes whatever was written to the temporary place. Safe to call more than once.
    public func discard() {
        guard !isStream else { return }
        // Under the registry's lock, like a commit: a second signal arriving meanwhile waits
        // for the files to be gone instead of exiting with them half deleted.
        OutputTarget.unfinished.withLock { places in
            OutputTarget.remove(temporaryFolder ?? temporaryPath)
            places[ObjectIdentifier(self)] = nil
        }
    }

    /// Files in the pattern's folder that the pattern could have written (`%05d` matches five
    /// or more digits, as printf pads), sorted.
    static func existingFrames(pattern: String) -> [String] {
        let url = URL(fileURLWithPath: pattern)
        let name = url.lastPathComponent
        guard let percent = name.lastIndex(of: "%"), let d = name[percent...].firstIndex(of: "d") else { return [] }
        let prefix = String(name[..<percent]), suffix = String(name[name.index(after: d)...])
        let width = Int(name[name.index(after: percent)..<d]) ?? 1
        let folder = url.deletingLastPathComponent().path
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return files.filter { file in
            guard file.hasPrefix(prefix), file.hasSuffix(suffix), file.count >= prefix.count + suffix.count + width else { return false }
            let digits = file.dropFirst(prefix.count).dropLast(suffix.count)
            return digits.allSatisfy { $0.isASCII && $0.isNumber }
        }.sorted().map { folder + "/" + $0 }
    }

    /// The file frame 0 of a sequence pattern is written to.
    static func firstFrameName(pattern: String) -> String { frameName(pattern: pattern, index: 0) }

    /// The file frame `index` of a sequence pattern is written to (`%05d` → zero-padded to 5).
    static func frameName(pattern: String, index: Int) -> String {
        guard let percent = pattern.lastIndex(of: "%"),
              let d = pattern[percent...].firstIndex(of: "d") else { return pattern }
        let width = Int(pattern[pattern.index(after: percent)..<d]) ?? 1
        let digits = String(index)
        let number = String(repeating: "0", count: max(0, width - digits.count)) + digits
        return String(pattern[..<percent]) + number + String(pattern[pattern.index(after: d)...])
    }
}
