// What moving an output into place may replace or delete: nothing (`make`), anything
// (`--force`), or in a batch only the files its own sidecar records slicevid wrote.

import Foundation
import Glibc
import SliceKit

/// The licence an output commits under.
package enum Replacement: Sendable {
    /// Nothing: a file at an output path is an error (`make` without `--force`).
    case nothing
    /// Anything (`--force`): existing files are replaced, and a sequence's old frames past
    /// the new last one are deleted.
    case anything
    /// Only the files a sidecar records slicevid wrote, frame by frame (one stamp for a
    /// single file), while they still match their stamps and are the running user's (`batch`
    /// without `--force`). `refusal` says why a sidecar that is there licenses nothing (its
    /// owner, its folder, a field no record holds), for the message about a file it would have
    /// covered. Made from a sidecar by `OutputRecord.Reading.licence(output:format:)`.
    case recorded([FileStamp], refusal: String? = nil)

    /// What is at a path an output is about to take.
    package enum Verdict: Equatable {
        /// Nothing is there.
        case free
        /// A file this licence lets the output replace or delete.
        case ours
        /// Something else; the text says what, to follow the path in an error.
        case foreign(String)
    }

    /// Judges what is at `file`, frame `index` of the output (0 for a single file). Never
    /// follows a symlink: a link at an output path is judged as the link.
    package func verdict(_ file: String, index: Int) -> Verdict {
        var info = stat()
        guard FileSystem.lstat(file, &info) == 0 else {
            return errno == ENOENT ? .free : .foreign("cannot be examined (\(String(cString: strerror(errno))))")
        }
        let type = info.st_mode & S_IFMT
        if type == S_IFDIR { return .foreign("is a folder") }
        switch self {
        case .nothing:
            return .foreign("already exists")
        case .anything:
            // A link is replaced as a name, never followed; devices and the like are no outputs.
            return type == S_IFREG || type == S_IFLNK ? .ours : .foreign("is not a regular file")
        case .recorded(let stamps, let refusal):
            guard type == S_IFREG else { return .foreign("is not a regular file slicevid wrote") }
            if let refusal { return .foreign("exists, and \(refusal)") }
            guard index < stamps.count, let actual = FileStamp(path: file) else { return .foreign("exists and was not written by slicevid") }
            guard stamps[index].matches(actual) else {
                return .foreign("has changed since slicevid wrote it (its sidecar records another size, inode or time)")
            }
            // The stamps match, but a record never vouches for another user's file.
            if let owner = RecordAuthority.problem(licensed: info) { return .foreign("\(owner); a record licenses only this user's files") }
            return .ours
        }
    }

    /// Whether nothing may be replaced (`make` without `--force`).
    var isNothing: Bool {
        if case .nothing = self { return true }
        return false
    }

    /// Whether this is `--force`.
    var isAnything: Bool {
        if case .anything = self { return true }
        return false
    }

    /// How to end an error about a foreign file: what would let it be replaced.
    var remedy: ErrorText {
        switch self {
        case .nothing, .recorded: "pass \(setting: .force) to replace it"
        case .anything: "remove it first"
        }
    }
}
