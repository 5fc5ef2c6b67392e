// Atomic outputs: every output is written under a hidden temporary name beside its final
// path and moved into place only when complete, replacing only what its licence allows. A
// failed or interrupted run leaves no partial file under the final name and never replaces a
// good earlier output.

import CPlatform
import Foundation
import Glibc
import SliceKit
import SliceMedia
import Synchronization

/// One requested output, its format, and the temporary place it is written first.
package final class OutputTarget: Sendable {
    /// Where the output goes: a file, a sequence's frames, or standard output.
    package let destination: Output.Destination
    /// The path the user asked for (the pattern for sequences; empty for standard output).
    package let path: String
    package let format: OutputFormat
    /// A sequence's frame names, and the same names in its temporary folder; nil otherwise.
    let frames: (final: FramePattern, temporary: FramePattern)?
    /// Where the writer writes: a hidden file beside `path`, or for sequences the same
    /// pattern inside a hidden folder beside the frames.
    package let temporaryPath: String
    /// The hidden folder a sequence's frames are written to; nil for a single file.
    let temporaryFolder: String?
    /// `.slicevid-PID-N`: names every temporary of this target, so a later run can tell
    /// whose they were.
    let tag: String
    /// What moving into place may replace or delete.
    let replacing: Replacement
    /// The folders above the output this target created, outermost first; a failed run
    /// removes those still empty.
    package let createdFolders: [String]
    /// The open temporary file (standard output for `-o -`) writers write through; nil for a
    /// sequence, whose frames image2 writes by name into its private folder.
    package let file: OutputFile?
    /// The output's folder, opened once: a single file's temporary is made and committed
    /// relative to it, so the folder's path swapped for a link meanwhile changes nothing.
    /// -1 for sequences and streams.
    let folderDescriptor: Int32

    /// Whether this output streams to stdout, where there is nothing to rename or remove.
    package var isStream: Bool { destination == .standardOutput }

    /// Checks the destination, removes temporaries of it that crashed runs left behind, and
    /// creates the temporary file (or folder) it is written to, never through a symlink.
    /// - Parameters:
    ///   - destination: a file, a sequence or standard output (nothing is written for `.discard`).
    ///   - replacing: what the output may replace (`.anything` for `--force`).
    /// Missing folders above the output are created first (`createdFolders`).
    /// - Throws: `SlicevidError` (usage for an unknown extension or `.discard`; outputBlocked
    ///   when the folder cannot be created or is read-only, or something the licence does not
    ///   cover is at the path).
    package init(_ destination: Output.Destination, replacing: Replacement) throws(SlicevidError) {
        let format = try OutputTarget.check(destination, replacing: replacing)
        let path = destination.path ?? ""
        self.destination = destination
        self.path = path
        self.format = format
        self.replacing = replacing
        if destination == .standardOutput {
            frames = nil
            temporaryFolder = nil
            temporaryPath = "pipe:1"
            tag = ""
            createdFolders = []
            file = OutputFile.standardOutput
            folderDescriptor = -1
            return
        }
        let pattern: FramePattern? = if case .frames(let pattern) = destination { pattern } else { nil }
        StaleTemporaries.remove(output: path, frames: pattern)
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        let name = url.lastPathComponent
        var created: [String] = []
        var opened: (folder: Int32, file: Int32) = (-1, -1)
        // O_EXCL and mkdir never follow a symlink: a name planted in advance is skipped, not
        // written through. A few tries, since each name is random. Made and registered under
        // the registry's lock, so a second signal never finds one made but not yet registered,
        // and under the folders' lock, so a failed job removing the empty folders it made never
        // removes one another job has just found and is about to fill.
        for _ in 0..<8 {
            let tag = ".slicevid-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            let place = pattern != nil ? folder + "/" + tag : folder + "/." + name + tag + ".partial"
            let made = try OutputFolder.changes.withLock { (_: inout Void) throws(SlicevidError) -> Int32 in
                created += try OutputFolder.create(OutputTarget.folder(of: path), for: path)
                return OutputTarget.unfinished.withLock { places -> Int32 in
                    if pattern != nil {
                        let made = OutputTarget.makeFolder(place)
                        if made == 0 { places[place] = created }
                        return made
                    }
                    if opened.folder < 0 {
                        opened.folder = PathBytes.withCString(folder) { cplatform_open_folder($0) }
                        if opened.folder < 0 { return errno }
                    }
                    opened.file = FileSystem.openat(opened.folder, "." + name + tag + ".partial",
                                                    O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o666)
                    guard opened.file >= 0 else { return errno }
                    places[place] = created
                    return 0
                }
            }
            if made == EEXIST { continue }
            guard made == 0 else {
                if opened.folder >= 0 { close(opened.folder) }
                OutputTarget.removeEmpty(created)
                let what = pattern != nil ? "folder" : "file"
                throw SlicevidError(.outputBlocked, "\(output: path): cannot create a temporary \(what) in \(folder) (\(String(cString: strerror(made))))")
            }
            self.tag = tag
            frames = pattern.map { ($0, $0.inFolder(place)) }
            temporaryFolder = pattern != nil ? place : nil
            temporaryPath = pattern != nil ? place + "/" + name : place
            createdFolders = created
            file = pattern != nil ? nil : OutputFile(adopting: opened.file)
            folderDescriptor = opened.folder
            return
        }
        if opened.folder >= 0 { close(opened.folder) }
        OutputTarget.removeEmpty(created)
        throw SlicevidError(.outputBlocked, "\(output: path): cannot find a free temporary name in \(folder)")
    }

    /// The folder an output path names, as written (`frames` for `frames/%05d.png`, `.` for a
    /// bare name), so messages about creating it read as the user wrote it.
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The folders `destination` needs that do not exist yet, outermost first: what a run
    /// would create (`make --dry-run`, `batch --check`). Empty when they exist or cannot be
    /// made (which `check(_:replacing:)` reports).
    package static func missingFolders(of destination: Output.Destination) -> [String] {
        guard let path = destination.path else { return [] }
        return (try? OutputFolder.plan(folder(of: path), for: path).missing) ?? []
    }

    /// Removes `folders` (made by a run that failed) where they are still empty, under the
    /// folders' lock, so no other job finds one, and fills it, while it is being removed.
    package static func removeEmpty(_ folders: [String]) {
        guard !folders.isEmpty else { return }
        OutputFolder.changes.withLock { _ in OutputFolder.removeEmpty(folders) }
    }

    /// Creates a sequence's temporary folder, private to this user; 0 or the errno.
    private static func makeFolder(_ place: String) -> Int32 {
        FileSystem.mkdir(place, 0o700) == 0 ? 0 : errno
    }

    /// `init(_:replacing:)` with `force` choosing between replacing anything and nothing.
    package convenience init(_ destination: Output.Destination, force: Bool) throws(SlicevidError) {
        try self.init(destination, replacing: force ? .anything : .nothing)
    }

    /// The target of the file or sequence `path` names (a batch's poster, tests).
    package convenience init(path: String, replacing: Replacement) throws(SlicevidError) {
        try self.init(Output.Destination(path: path), replacing: replacing)
    }

    /// `init(path:replacing:)` with `force` choosing between replacing anything and nothing.
    package convenience init(path: String, force: Bool) throws(SlicevidError) {
        try self.init(Output.Destination(path: path), replacing: force ? .anything : .nothing)
    }

    /// Every temporary file or folder not yet committed or discarded, in this process, with
    /// the folders made for it (outermost first). Its lock is held across every creation,
    /// commit and discard of a temporary, so a second signal's exit waits for them. The only
    /// state a target changes, so reads across threads are locked. Taken after
    /// `WholeWrites.lock` and `OutputFolder.changes` when more than one is held.
    static let unfinished = ConcernLock<[String: [String]]>("temporaries", [:])

    /// Runs `body` holding every lock a process end needs, in their one order: no whole write,
    /// folder change, or creation, commit or discard of a temporary is under way meanwhile.
    private static func withEveryLock<Result>(_ body: (inout [String: [String]]) -> Result) -> Result {
        WholeWrites.lock.withLock { _ -> Result in
            OutputFolder.changes.withLock { _ -> Result in
                unfinished.withLock { places -> Result in body(&places) }
            }
        }
    }

    /// This target's entry in `unfinished`.
    var place: String { temporaryFolder ?? temporaryPath }

    /// For the process host ending the process at once (a second SIGINT/SIGTERM): the runs'
    /// last words (a batch writes its report), then `last` (the host's own line), then every
    /// temporary file and folder of every output still being written is removed, then `end`
    /// (which exits without unwinding). Waits for a commit or a discard under way, so an
    /// output is either wholly in place or wholly gone; `end` runs while the lock is still
    /// held, so no commit can start on files that were just removed. The words come first
    /// because the render goes on meanwhile: an encoder opening its file by name right after
    /// the removal would make it again, so nothing slow may come between the removal and the
    /// end.
    package static func discardAllUnfinished(signal: Int32, last: () -> Void = {}, then end: () -> Never) -> Never {
        withEveryLock { places -> Never in
            LastWords.sayAll(signal: signal)
            last()
            for place in places.keys { remove(place) }
            // Then the folders the run made, where nothing else has filled them (one made for
            // one output may hold another output's temporary, removed just above).
            for folders in places.values { OutputFolder.removeEmpty(folders) }
            places.removeAll()
            end()
        }
    }

    /// Runs `end` (the process host exiting at a run's own end) once no commit, discard, whole
    /// write or second-signal exit is under way, and holds them off while it runs: a second signal whose
    /// last words (a batch's report) are half-written when the run finishes gets to finish them
    /// and exit with its own status, instead of the process vanishing under them and leaving
    /// their temporary file (seen by make fuzz: SIGINT twice as a batch ended).
    package static func whenIdle(_ end: () -> Never) -> Never {
        withEveryLock { _ -> Never in end() }
    }

    /// Deletes a temporary file, or a temporary folder and its frames. A folder is first
    /// renamed away, so an encoder still writing frames into it by path (the render has not
    /// stopped when a second signal arrives) cannot refill it while it is being emptied.
    static func remove(_ place: String) {
        if FileSystem.unlink(place) == 0 || errno == ENOENT { return }
        let doomed = place + ".removing"
        let target = FileSystem.rename(place, doomed) == 0 ? doomed : place
        FileSystem.remove(target)
    }

    /// Checks that `destination` could be written, without reserving, creating or removing
    /// anything (what `make --dry-run` needs).
    /// - Returns: the format it is written in.
    /// - Throws: `SlicevidError` (usage for an unknown extension or `.discard`; outputBlocked
    ///   when the folder is missing or read-only, or something `replacing` does not cover is at
    ///   the path).
    @discardableResult
    package static func check(_ destination: Output.Destination, replacing: Replacement) throws(SlicevidError) -> OutputFormat {
        let path: String, pattern: FramePattern?
        switch destination {
        case .standardOutput: return .y4m
        case .discard: throw SlicevidError(.usage, "\(setting: .outputs): an output that writes nothing has no file to make")
        case .file(let file): (path, pattern) = (file, nil)
        case .frames(let frames): (path, pattern) = (frames.pattern, frames)
        }
        guard let format = OutputFormat(path: path), format.isSequence == (pattern != nil) else {
            throw SlicevidError(.usage, "\(output: path): \(OutputFormat.refusal(path))")
        }
        let url = URL(fileURLWithPath: path)
        // A sequence's longest frame name, as written: its number padded, up to the last frame
        // of the longest video.
        let name = pattern?.name(SequenceSpec.maximumFrames - 1) ?? url.lastPathComponent
        let nameBytes = PathBytes.bytes(name).count
        guard nameBytes <= longestName else {
            throw SlicevidError(.outputBlocked, "\(output: InputText.quoted(path)): the file name is \(nameBytes) bytes"
                + (pattern == nil ? "" : " with its frame number") + "; at most \(longestName), "
                + "because slicevid writes a hidden temporary beside it whose name must fit the folder's \(NAME_MAX)-byte limit")
        }
        if pattern != nil {
            // FFmpeg's image2 muxer forms each frame's path in 1024 bytes; a longer one is cut
            // short and written there (outside the temporary folder) before the muxer fails.
            let framePath = url.deletingLastPathComponent().path + "/" + longestTag + "/" + name
            let framePathBytes = PathBytes.bytes(framePath).count
            guard framePathBytes <= longestFramePath else {
                throw SlicevidError(.outputBlocked, "\(output: InputText.quoted(path)): its frames' paths could reach \(framePathBytes) bytes in slicevid's "
                    + "temporary folder; FFmpeg writes image sequences to paths of at most \(longestFramePath) bytes (use a folder with a shorter path)")
            }
        }
        // A folder that will be created holds nothing yet: nothing there to judge.
        guard try OutputFolder.plan(OutputTarget.folder(of: path), for: path).missing.isEmpty else { return format }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        guard FileSystem.access(folder, W_OK) == 0 else {
            throw SlicevidError(.outputBlocked, "\(output: path): folder \(folder) is not writable")
        }
        if let pattern {
            // Any frame of an earlier sequence counts, not just frame 0: they would be mixed.
            for frame in pattern.existing() {
                if case .foreign(let why) = replacing.verdict(pattern.path(frame.index), index: frame.index) {
                    throw blocked(path, file: pattern.path(frame.index), why, remedy: replacing.remedy)
                }
            }
        } else if case .foreign(let why) = replacing.verdict(path, index: 0) {
            if why == "is a folder" { throw SlicevidError(.outputBlocked, "\(output: path): is a folder; give a file name") }
            throw blocked(path, file: path, why, remedy: replacing.remedy)
        }
        return format
    }

    /// The longest output file name accepted: the hidden temporary written beside it,
    /// `.NAME.slicevid-PID-N.replaced` at its longest, must still fit NAME_MAX (a longer name
    /// would fail mid-run with an I/O error instead of being refused up front).
    package static let longestName = Int(NAME_MAX) - ".".utf8.count - (longestTag + ".replaced").utf8.count

    /// A temporary's tag (`.slicevid-PID-N`) at its longest.
    static let longestTag = ".slicevid-\(Int32.max)-\(UInt32.max)"

    /// The longest path of a sequence frame: libavformat's image2 muxer forms it in a
    /// 1024-byte buffer.
    package static let longestFramePath = 1023

    /// `check(_:replacing:)` with `force` choosing between replacing anything and nothing.
    @discardableResult
    package static func check(_ destination: Output.Destination, force: Bool) throws(SlicevidError) -> OutputFormat {
        try check(destination, replacing: force ? .anything : .nothing)
    }

    /// The error for something at an output path the licence does not cover: the output,
    /// then the file when it is one frame of a sequence.
    static func blocked(_ path: String, file: String, _ why: String, remedy: ErrorText) -> SlicevidError {
        SlicevidError(.outputBlocked, "\(output: path): \(file == path ? "" : file + " ")\(why); \(remedy)")
    }

    // Uncommitted work is removed; the registry is the only record of what is unfinished.
    deinit {
        discard()
        if folderDescriptor >= 0 { close(folderDescriptor) }
    }

    /// Removes whatever was written to the temporary place. Safe to call more than once.
    package func discard() {
        guard !isStream else { return }
        // Under the registry's lock, like a commit: a second signal arriving meanwhile waits
        // for the files to be gone instead of exiting with them half deleted. Then the folders
        // made for it, under theirs.
        let removed = OutputTarget.unfinished.withLock { places -> Bool in
            guard places.removeValue(forKey: place) != nil else { return false }
            OutputTarget.remove(place)
            return true
        }
        if removed { OutputTarget.removeEmpty(createdFolders) }
    }

    /// Bytes at the output's final path now (all `frames` files of a sequence); 0 when any is
    /// missing or it is a stream.
    func bytesOnDisk(frames count: Int) -> Int {
        guard !isStream else { return 0 }
        let files = frames.map { frames in (0..<count).map { frames.final.path($0) } } ?? [path]
        return OutputRecord.bytesOnDisk(files: files) ?? 0
    }

    /// The file frame `index` of a sequence recorded by its pattern (a sidecar's, read back)
    /// is written to (`%05d` → zero-padded to 5), in the folder as written.
    package static func frameName(pattern: String, index: Int) -> String {
        guard case .frames(let frames) = Output.Destination(path: pattern) else { return pattern }
        let folder = pattern.lastIndex(of: "/").map { String(pattern[...$0]) } ?? ""
        return folder + frames.name(index)
    }
}
