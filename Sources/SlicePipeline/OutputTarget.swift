// Atomic outputs: every output is written under a hidden temporary name beside its final
// path and renamed into place only when complete. A failed or interrupted run leaves no
// partial file under the final name and never replaces a good earlier output.

import Foundation
import SliceMedia

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
    private var committed = false

    /// Checks the path and reserves a temporary name.
    /// - Parameters:
    ///   - path: the `-o` value.
    ///   - force: whether an existing output may be replaced.
    /// - Throws: `SlicevidError` (usage for an unknown extension; outputBlocked when the folder
    ///   is missing or read-only, or the output exists without `force`).
    public init(path: String, force: Bool) throws(SlicevidError) {
        guard let format = OutputFormat(path: path) else {
            throw SlicevidError(.usage, "-o \(path): unknown output type; accepted: \(OutputFormat.acceptedForms)")
        }
        self.path = path
        self.format = format
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        let name = url.lastPathComponent
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw SlicevidError(.outputBlocked, "-o \(path): folder \(folder) does not exist")
        }
        guard access(folder, W_OK) == 0 else {
            throw SlicevidError(.outputBlocked, "-o \(path): folder \(folder) is not writable")
        }
        let existing = format.isSequence ? OutputTarget.firstFrameName(pattern: url.path) : url.path
        if !force, FileManager.default.fileExists(atPath: existing) {
            throw SlicevidError(.outputBlocked, "-o \(path): \(existing) already exists; pass --force to replace it")
        }
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
    }

    deinit { if !committed { discard() } }

    /// Moves the finished output into place (replacing an older one only now).
    /// - Throws: `SlicevidError(.outputFailed)` if the rename fails.
    public func commit() throws(SlicevidError) {
        if let temporaryFolder {
            let finalFolder = URL(fileURLWithPath: path).deletingLastPathComponent().path
            let files = ((try? FileManager.default.contentsOfDirectory(atPath: temporaryFolder)) ?? []).sorted()
            for file in files where rename(temporaryFolder + "/" + file, finalFolder + "/" + file) != 0 {
                throw SlicevidError(.outputFailed, "-o \(path): cannot move \(file) into place: \(String(cString: strerror(errno)))")
            }
            rmdir(temporaryFolder)
        } else if rename(temporaryPath, path) != 0 {
            throw SlicevidError(.outputFailed, "-o \(path): cannot move the finished file into place: \(String(cString: strerror(errno)))")
        }
        committed = true
    }

    /// Removes whatever was written to the temporary place. Safe to call more than once.
    public func discard() {
        if let temporaryFolder {
            try? FileManager.default.removeItem(atPath: temporaryFolder)
        } else {
            unlink(temporaryPath)
        }
    }

    /// The file frame 0 of a sequence pattern is written to.
    static func firstFrameName(pattern: String) -> String { frameName(pattern: pattern, index: 0) }

    /// The file frame `index` of a sequence pattern is written to (`%05d` → `00042`).
    static func frameName(pattern: String, index: Int) -> String {
        guard let percent = pattern.lastIndex(of: "%"),
              let d = pattern[percent...].firstIndex(of: "d") else { return pattern }
        let width = Int(pattern[pattern.index(after: percent)..<d]) ?? 1
        let digits = String(index)
        return String(pattern[..<percent]) + String(repeating: "0", count: max(0, width - digits.count)) + digits
            + String(pattern[pattern.index(after: d)...])
    }
}
