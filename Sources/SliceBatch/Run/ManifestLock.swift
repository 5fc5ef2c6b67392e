// Cron safety: a run holds a flock(2) on a lock file beside its manifest, so two overlapping
// runs never render the same jobs; the second one learns it at once instead of waiting. The
// lock file is never followed through a symlink and never truncated: cron runs as root, and
// a link planted at the lock's name must not let a run write anywhere else.

import Foundation
import Glibc
import SliceCampaign
import SliceKit
import SlicePipeline

/// The locks a batch run holds while it renders; released when the value is freed (or the
/// process ends, however it ends: the kernel drops flock locks with the file descriptor).
///
/// A whole-manifest run takes `.NAME.lock` exclusively. A shard run takes it shared, plus its
/// own `.NAME.shard-K-of-N.lock` exclusively: the shards of one campaign run side by side, but
/// never beside a whole run or a second copy of themselves. Lock files are left in place;
/// deleting a lock file another process may be about to lock would let two runs in.
///
/// The manifest file itself is also flocked (exclusively by a whole run, shared by a shard):
/// a manifest hard-linked under a second name has a second lock file but the same inode, so
/// the two names cannot run at once. (Two copies of one shard through two such names can.)
///
/// A lock file holds at most one line: an exclusive holder's pid, space-padded to a fixed
/// width, written with pwrite (never ftruncate) and blanked on release. A lock file that is a
/// symlink, not a regular file, hard-linked elsewhere, or holds anything else is refused.
package final class ManifestLock: Sendable {
    private let descriptors: [Int32]
    /// The descriptors locked exclusively, whose files carry this run's pid.
    private let exclusive: [Int32]

    /// What trying to lock found.
    package enum Outcome: Sendable {
        /// This run holds the locks until the `ManifestLock` is freed.
        case acquired(ManifestLock)
        /// Another run holds a conflicting lock; `holder` is its pid when it recorded one.
        case busy(lockFile: String, holder: Int32?)
        /// Another run holds the manifest's file through another name (a hard link of it).
        case busyUnderAnotherName
    }

    private init(descriptors: [Int32], exclusive: [Int32]) {
        self.descriptors = descriptors
        self.exclusive = exclusive
    }

    /// The bytes of the pid field: enough for any pid, and a newline.
    static let recordWidth = 16

    deinit {
        // The pid is blanked first so a later refusal never names a run that has ended.
        let blank = Array(String(repeating: " ", count: ManifestLock.recordWidth - 1).utf8) + [0x0A]
        for descriptor in exclusive { _ = pwrite(descriptor, blank, blank.count, 0) }
        for descriptor in descriptors { close(descriptor) }
    }

    /// The lock file of a whole-manifest run, beside the manifest's real file.
    package static func path(manifest: String) -> String {
        let url = real(manifest)
        return url.deletingLastPathComponent().path + "/." + url.lastPathComponent + ".lock"
    }

    /// The lock file of one shard, beside the manifest's real file.
    package static func path(manifest: String, shard: Shard) -> String {
        let url = real(manifest)
        return url.deletingLastPathComponent().path + "/." + url.lastPathComponent + ".shard-\(shard.index)-of-\(shard.count).lock"
    }

    /// The manifest with every link resolved (realpath): one reached through a symlink, or
    /// through a linked folder, shares the real file's lock. As given when it cannot be resolved.
    private static func real(_ manifest: String) -> URL {
        URL(fileURLWithPath: FileSystem.realpath(manifest) ?? manifest)
    }

    /// Tries to take the locks of `manifest` for `shard` without waiting.
    /// - Throws: `SlicevidError(.outputBlocked)` when a lock file cannot be created (the
    ///   manifest's folder is read-only, for instance) or is not a lock file slicevid made (a
    ///   symlink, a FIFO, a file with other contents): someone has to look, so not 75.
    package static func acquire(manifest: String, shard: Shard) throws(SlicevidError) -> Outcome {
        var taken: [Int32] = []
        var wanted = [(path(manifest: manifest), shard == .all ? LOCK_EX : LOCK_SH)]
        if shard != .all { wanted.append((path(manifest: manifest, shard: shard), LOCK_EX)) }
        for (file, mode) in wanted {
            let descriptor: Int32
            do {
                descriptor = try openLockFile(file)
            } catch {
                for held in taken { close(held) }
                throw error
            }
            if flock(descriptor, mode | LOCK_NB) != 0 {
                let holder = readHolder(descriptor)
                close(descriptor)
                for held in taken { close(held) }
                return .busy(lockFile: file, holder: holder)
            }
            taken.append(descriptor)
        }
        // Exclusive holders note their pid so a refused run can say who holds the manifest.
        let exclusive = zip(wanted, taken).filter { $0.0.1 == LOCK_EX }.map(\.1)
        // The manifest's own inode is flocked too: a hard link gives it a second name, and so
        // a second lock file, but never a second inode. flock leaves the file's bytes alone.
        let real = real(manifest).path
        let inode = FileSystem.open(real, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        if inode >= 0 {
            if flock(inode, (shard == .all ? LOCK_EX : LOCK_SH) | LOCK_NB) != 0 {
                close(inode)
                for held in taken { close(held) }
                return .busyUnderAnotherName
            }
            taken.append(inode)
        }
        for descriptor in exclusive {
            let pid = String(getpid())
            let record = Array((pid + String(repeating: " ", count: max(0, recordWidth - 1 - pid.count))).utf8) + [0x0A]
            _ = pwrite(descriptor, record, record.count, 0)
        }
        return .acquired(ManifestLock(descriptors: taken, exclusive: exclusive))
    }

    /// Opens (creating if needed) the lock file at `file`: never through a symlink
    /// (O_NOFOLLOW), never truncating, never blocking on a FIFO (O_NONBLOCK); then checks
    /// that what was opened is a lock file slicevid could have made.
    /// - Throws: `SlicevidError(.outputBlocked)` naming the file and what is wrong with it.
    private static func openLockFile(_ file: String) throws(SlicevidError) -> Int32 {
        let descriptor = FileSystem.open(file, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            let problem = errno == ELOOP ? "is a symbolic link; the lock must be a regular file (remove the link)"
                                         : "cannot create the manifest's lock file (\(String(cString: strerror(errno))))"
            throw SlicevidError(.outputBlocked, "\(file): \(problem)")
        }
        var info = stat()
        let problem: String?
        if fstat(descriptor, &info) != 0 {
            problem = "cannot be examined (\(String(cString: strerror(errno))))"
        } else if (info.st_mode & S_IFMT) != S_IFREG {
            problem = "is not a regular file; the lock must be one (remove it)"
        } else if info.st_nlink != 1 {
            // A second name means writing the pid would change a file known by another name.
            problem = "has other hard links; the lock must be a file of its own (remove it)"
        } else if info.st_size > recordWidth || !holdsOnlyARecord(descriptor, size: Int(info.st_size)) {
            problem = "is not a slicevid lock file (it holds other data); remove it or move the manifest"
        } else {
            problem = nil
        }
        if let problem {
            close(descriptor)
            throw SlicevidError(.outputBlocked, "\(file): \(problem)")
        }
        return descriptor
    }

    /// Whether the file holds nothing but a pid record: digits, spaces and newlines (0.2.0
    /// wrote `PID\n`; this version a padded field).
    private static func holdsOnlyARecord(_ descriptor: Int32, size: Int) -> Bool {
        guard size > 0 else { return true }
        var buffer = [UInt8](repeating: 0, count: size)
        guard pread(descriptor, &buffer, size, 0) == size else { return false }
        return buffer.allSatisfy { (0x30...0x39).contains($0) || $0 == 0x20 || $0 == 0x0A }
    }

    /// The pid an exclusive holder wrote, if that process is still alive.
    private static func readHolder(_ descriptor: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = pread(descriptor, &buffer, buffer.count, 0)
        guard count > 0,
              let pid = Int32(String(decoding: buffer[0..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)),
              pid > 0, kill(pid, 0) == 0 || errno == EPERM else { return nil }
        return pid
    }
}
