// Temporaries a killed run left behind (SIGKILL, a power cut): hidden `.partial` files and
// `.slicevid-PID-N` frame folders that no signal handler got to remove. A later run on the
// same output removes those whose process is gone, and nothing else.

import Foundation
import Glibc
import SliceKit
import SliceMedia

/// Finds and removes the stale temporaries of one output.
///
/// A temporary is stale when its name carries the pid of a process that no longer exists
/// (`kill(pid, 0)` fails with ESRCH). Only names that exactly match slicevid's temporaries for
/// that output are considered: for `clip.mp4`, `.clip.mp4.slicevid-PID-N` followed by
/// `.partial`, `.replaced` or `.json`; for `frames/%05d.png`, folders `.slicevid-PID-N` (or
/// `….removing`) beside the frames holding nothing but frames of that pattern, a `replaced`
/// folder of them and a `sidecar.json`. Nothing is followed through a symlink, and nothing of
/// a live process, this one included, is touched, nor anything of another user's.
enum StaleTemporaries {
    /// The stale temporaries of `output` (a sequence's pattern, with its `frames`), as full paths.
    static func find(output: String, frames: FramePattern?) -> [String] {
        let url = URL(fileURLWithPath: output)
        let folder = url.deletingLastPathComponent().path
        let names = FileSystem.names(inFolder: folder) ?? []
        if let pattern = frames {
            return names.filter { name in
                guard let pid = owner(name, prefix: ".slicevid-", suffixes: ["", ".removing"]), isGone(pid) else { return false }
                return isOwn(folder + "/" + name, type: S_IFDIR) && holdsOnlyFrames(folder + "/" + name, of: pattern)
            }.map { folder + "/" + $0 }
        }
        return names.filter { name in
            guard let pid = owner(name, prefix: "." + url.lastPathComponent + ".slicevid-", suffixes: [".partial", ".replaced", ".json"]),
                  isGone(pid) else { return false }
            return isOwn(folder + "/" + name, type: S_IFREG)
        }.map { folder + "/" + $0 }
    }

    /// Removes the stale temporaries of `output`.
    /// - Returns: what was removed.
    @discardableResult
    static func remove(output: String, frames: FramePattern?) -> [String] {
        let stale = find(output: output, frames: frames)
        for place in stale {
            // unlink never follows a link; a folder was seen as a real folder just now, and
            // Links inside it are removed as links.
            if FileSystem.unlink(place) != 0 { FileSystem.remove(place) }
        }
        return stale
    }

    /// The pid in `name` when it is exactly `prefix` + PID + `-` + N + one of `suffixes`.
    static func owner(_ name: String, prefix: String, suffixes: [String]) -> Int32? {
        guard name.hasPrefix(prefix) else { return nil }
        let rest = name.dropFirst(prefix.count)
        for suffix in suffixes where rest.hasSuffix(suffix) {
            let numbers = rest.dropLast(suffix.count).split(separator: "-", omittingEmptySubsequences: false)
            guard numbers.count == 2, numbers.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
                  let pid = Int32(numbers[0]), pid > 0, UInt32(numbers[1]) != nil else { continue }
            return pid
        }
        return nil
    }

    /// Whether no process has `pid` (a live one, even of another user, answers EPERM).
    static func isGone(_ pid: Int32) -> Bool {
        pid != getpid() && kill(pid, 0) != 0 && errno == ESRCH
    }

    /// Whether `path` is of `type` (never a link) and the running user's: a name alone licenses
    /// nothing, and another user's file named like a temporary is that user's (`RecordAuthority`).
    private static func isOwn(_ path: String, type: mode_t) -> Bool {
        var info = stat()
        return FileSystem.lstat(path, &info) == 0 && info.st_mode & S_IFMT == type && RecordAuthority.problem(licensed: info) == nil
    }

    /// Whether `folder` is a real folder (not a link) holding only what a sequence's temporary
    /// folder holds: frames of `pattern`, a `replaced` folder of them, a `sidecar.json`.
    private static func holdsOnlyFrames(_ folder: String, of pattern: FramePattern) -> Bool {
        func isFolder(_ path: String) -> Bool {
            var info = stat()
            return FileSystem.lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
        }
        guard isFolder(folder), let names = FileSystem.names(inFolder: folder) else { return false }
        return names.allSatisfy { name in
            if pattern.index(of: name) != nil || name == "sidecar.json" { return true }
            guard name == "replaced", isFolder(folder + "/replaced"),
                  let inner = FileSystem.names(inFolder: folder + "/replaced") else { return false }
            return inner.allSatisfy { pattern.index(of: $0) != nil }
        }
    }
}
