// The folder an output goes in is created when it is missing (`-o frames/%05d.png`,
// `out/{product}/{id}.mp4`), one level at a time and never through a symlink: each new level is
// made with mkdirat in the level above, opened without following links, and only then is the
// next one made inside it. Folders that already exist are the user's and are used as they are.

import Foundation
import Glibc
import SliceKit

/// Finds and creates the missing folders above an output.
package enum OutputFolder {
    /// Held while folders are made and a temporary put in them, and while empty ones a failed
    /// run made are removed: one job never removes a folder another is about to fill. Taken
    /// after `WholeWrites.lock` and before `OutputTarget.unfinished` when more than one is held.
    static let changes = ConcernLock("folders")

    /// What creating an output's folder takes.
    struct Plan: Equatable {
        /// The deepest part of the path that exists (`.` for a relative path none of which does).
        let existing: String
        /// The folders to make inside it, outermost first; empty when the folder exists.
        let missing: [String]
    }

    /// Finds which folders of `folder` exist and which are to be made.
    /// - Parameter output: the `-o` value, which errors name.
    /// - Throws: `SlicevidError(.outputBlocked)` when the folder cannot be made: something that
    ///   is not a folder is in the way, a link leads nowhere, or the deepest existing folder
    ///   is not writable.
    static func plan(_ folder: String, for output: String, subject: ErrorText? = nil) throws(SlicevidError) -> Plan {
        func blocked(_ output: String, _ folder: String, _ why: String) -> SlicevidError {
            OutputFolder.blocked(output, folder, why, subject: subject)
        }
        let parts = folder.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        var existing = folder.hasPrefix("/") ? "/" : "."
        func joined(_ base: String, _ name: String) -> String { base == "." ? name : base == "/" ? "/" + name : base + "/" + name }
        for (index, part) in parts.enumerated() {
            let path = joined(existing, part)
            // The name itself first, then (for a link) what it leads to: another job making
            // the same folder meanwhile is seen as a folder, never as a link to nothing (which
            // stat-then-lstat took it for, when the folder appeared between the two calls).
            var info = stat()
            if FileSystem.lstat(path, &info) == 0 {
                if info.st_mode & S_IFMT == S_IFLNK, FileSystem.stat(path, &info) != 0 {
                    guard errno == ENOENT else { throw blocked(output, folder, "\(path): \(String(cString: strerror(errno)))") }
                    throw blocked(output, folder, "\(path) is a symlink to nothing; slicevid creates folders only where no link is")
                }
                guard (info.st_mode & S_IFMT) == S_IFDIR else { throw blocked(output, folder, "\(path) is not a folder") }
                existing = path
                continue
            }
            let reason = errno
            if reason == ENAMETOOLONG {
                let name: ErrorText = subject ?? "\(output: InputText.quoted(output))"
                throw SlicevidError(.outputBlocked, "\(name): \(SettingsFile.Failure.nameTooLong.reason)")
            }
            guard reason == ENOENT else { throw blocked(output, folder, "\(path): \(String(cString: strerror(reason)))") }
            if parts[index...].contains(where: { $0 == "." || $0 == ".." }) {
                throw blocked(output, folder, "'.' or '..' after the missing folder \(path); write the path without them")
            }
            guard FileSystem.access(existing, W_OK) == 0 else { throw blocked(output, folder, "\(existing) is not writable") }
            var missing: [String] = []
            for name in parts[index...] { missing.append(joined(missing.last ?? existing, name)) }
            return Plan(existing: existing, missing: missing)
        }
        return Plan(existing: existing, missing: [])
    }

    /// Creates the missing folders of `folder`.
    /// - Returns: the folders this call made, outermost first (one that another process or
    ///   job made meanwhile is used, not listed).
    /// - Throws: `SlicevidError(.outputBlocked)` naming the folder and why.
    /// - Parameter subject: what errors name, when it is not the output (`--report 'x.html'`).
    package static func create(_ folder: String, for output: String, subject: ErrorText? = nil) throws(SlicevidError) -> [String] {
        try create(try plan(folder, for: output, subject: subject), folder: folder, for: output, subject: subject)
    }

    /// Makes the folders `plan` found missing. Between the plan and each mkdirat, another
    /// process may have put something there: a folder is used, anything else (a link) refused.
    static func create(_ plan: Plan, folder: String, for output: String, subject: ErrorText? = nil) throws(SlicevidError) -> [String] {
        guard !plan.missing.isEmpty else { return [] }
        func blocked(_ output: String, _ folder: String, _ why: String) -> SlicevidError {
            OutputFolder.blocked(output, folder, why, subject: subject)
        }
        var level = FileSystem.open(plan.existing, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard level >= 0 else { throw blocked(output, folder, "\(plan.existing): \(String(cString: strerror(errno)))") }
        defer { close(level) }
        var made: [String] = []
        for path in plan.missing {
            let name = String(path.split(separator: "/").last ?? "")
            if FileSystem.mkdirat(level, name, 0o777) == 0 {
                made.append(path)
            } else if errno != EEXIST {
                throw blocked(output, folder, "\(path): \(String(cString: strerror(errno)))")
            }
            // Whatever is there now is entered only if it is a real folder, never a link.
            let next = FileSystem.openat(level, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard next >= 0 else {
                let reason = errno == ELOOP || errno == ENOTDIR ? "appeared as something other than a folder" : String(cString: strerror(errno))
                throw blocked(output, folder, "\(path) \(reason)")
            }
            close(level)
            level = next
        }
        return made
    }

    /// Removes `folders` (innermost first) where they are still empty: what a failed run made
    /// and nothing else filled.
    static func removeEmpty(_ folders: [String]) {
        for folder in folders.reversed() { FileSystem.rmdir(folder) }
    }

    private static func blocked(_ output: String, _ folder: String, _ why: String, subject: ErrorText? = nil) -> SlicevidError {
        let name: ErrorText = subject ?? "\(output: output)"
        return SlicevidError(.outputBlocked, "\(name): cannot create folder \(folder): \(why)")
    }
}
