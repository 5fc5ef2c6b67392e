// Renames for commits: one that never replaces what is at the destination, and its undo. A
// commit that finds its name taken fails instead of clobbering a file someone else made. Names
// are relative to a folder descriptor (AT_FDCWD for paths), so a single file's commit happens in
// the folder its temporary was made in, even if that folder's path is swapped for a link.

import CPlatform
import Glibc
import SliceKit

/// Moves files within one filesystem.
package enum FileMove {
    /// How a move ended.
    package enum Outcome: Equatable {
        case moved
        /// Something is already at the destination; nothing was moved or replaced.
        case taken
        /// Another failure, with strerror's text.
        case failed(String)
    }

    /// Moves `from` to `to` unless something is at `to`: renameat2(RENAME_NOREPLACE), or on
    /// filesystems that refuse it, link(2) then unlink(2), which fail the same way (EEXIST).
    package static func withoutReplacing(_ from: String, _ to: String, in folder: Int32 = AT_FDCWD) -> Outcome {
        let moved = PathBytes.withCString(from) { from in PathBytes.withCString(to) { cplatform_renameat_noreplace(folder, from, $0) } }
        if moved == 0 { return .moved }
        let refusal = errno
        if refusal == EEXIST { return .taken }
        // EINVAL/ENOSYS/EOPNOTSUPP: the filesystem or kernel cannot promise no-replace.
        guard refusal == EINVAL || refusal == ENOSYS || refusal == EOPNOTSUPP else { return .failed(text(refusal)) }
        return byLinking(from, to, in: folder)
    }

    /// The fallback of `withoutReplacing`: link(2) fails with EEXIST rather than replace.
    static func byLinking(_ from: String, _ to: String, in folder: Int32 = AT_FDCWD) -> Outcome {
        if FileSystem.linkat(folder, from, folder, to, 0) != 0 {
            let refusal = errno
            if refusal == EEXIST { return .taken }
            // No hard links here (FAT, some network and FUSE filesystems).
            return refusal == EPERM || refusal == EOPNOTSUPP ? byPlaceholder(from, to, in: folder) : .failed(text(refusal))
        }
        // The file now has both names; dropping the temporary one completes the move.
        _ = FileSystem.unlinkat(folder, from, 0)
        return .moved
    }

    /// Moves `from` to `to`, replacing whatever is at `to` (rename(2): atomic, never
    /// following a symlink at either end).
    package static func replacing(_ from: String, _ to: String, in folder: Int32 = AT_FDCWD) -> Outcome {
        FileSystem.renameat(folder, from, folder, to) == 0 ? .moved : .failed(text(errno))
    }

    private static func text(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// The last fallback, for filesystems without hard links: claim the name with an empty
    /// file (O_EXCL fails with EEXIST rather than replace), then rename over that claim. Only
    /// someone deleting the claim in the instant between could lose their file to the rename.
    static func byPlaceholder(_ from: String, _ to: String, in folder: Int32 = AT_FDCWD) -> Outcome {
        let claim = FileSystem.openat(folder, to, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard claim >= 0 else { return errno == EEXIST ? .taken : .failed(text(errno)) }
        close(claim)
        guard FileSystem.renameat(folder, from, folder, to) == 0 else {
            let reason = text(errno)
            FileSystem.unlinkat(folder, to, 0)
            return .failed(reason)
        }
        return .moved
    }
}
