// Cron safety: a run holds a flock(2) on a lock file beside its manifest, so two overlapping
// runs never render the same jobs; the second one learns it at once instead of waiting.

import Foundation
import Glibc

/// The locks a batch run holds while it renders; released when the value is freed (or the
/// process ends, however it ends: the kernel drops flock locks with the file descriptor).
///
/// A whole-manifest run takes `.NAME.lock` exclusively. A shard run takes it shared, plus its
/// own `.NAME.shard-K-of-N.lock` exclusively: the shards of one campaign run side by side, but
/// never beside a whole run or a second copy of themselves. Lock files are left in place;
/// deleting a lock file another process may be about to lock would let two runs in.
public final class ManifestLock: Sendable {
    private let descriptors: [Int32]
    /// The descriptors locked exclusively, whose files carry this run's pid.
    private let exclusive: [Int32]

    /// What trying to lock found.
    public enum Outcome: Sendable {
        /// This run holds the locks until the `ManifestLock` is freed.
        case acquired(ManifestLock)
        /// Another run holds a conflicting lock; `holder` is its pid when it recorded one.
        case busy(lockFile: String, holder: Int32?)
    }

    private init(descriptors: [Int32], exclusive: [Int32]) {
        self.descriptors = descriptors
        self.exclusive = exclusive
    }

    deinit {
        // The pid is cleared first so a later refusal never names a run that has ended.
        for descriptor in exclusive { _ = ftruncate(descriptor, 0) }
        for descriptor in descriptors { close(descriptor) }
    }

    /// The lock file of a whole-manifest run.
    public static func path(manifest: String) -> String {
        let url = URL(fileURLWithPath: manifest)
        return url.deletingLastPathComponent().path + "/." + url.lastPathComponent + ".lock"
    }

    /// The lock file of one shard.
    public static func path(manifest: String, shard: Shard) -> String {
        let url = URL(fileURLWithPath: manifest)
        return url.deletingLastPathComponent().path + "/." + url.lastPathComponent + ".shard-\(shard.index)-of-\(shard.count).lock"
    }

    /// Tries to take the locks of `manifest` for `shard` without waiting.
    /// - Throws: `SlicevidError(.outputBlocked)` when a lock file cannot be created (the
    ///   manifest's folder is read-only, for instance).
    public static func acquire(manifest: String, shard: Shard) throws(SlicevidError) -> Outcome {
        var taken: [Int32] = []
        var wanted = [(path(manifest: manifest), shard == .all ? LOCK_EX : LOCK_SH)]
        if shard != .all { wanted.append((path(manifest: manifest, shard: shard), LOCK_EX)) }
        for (file, mode) in wanted {
            let descriptor = open(file, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                let reason = String(cString: strerror(errno))
                for held in taken { close(held) }
                throw SlicevidError(.outputBlocked, "\(file): cannot create the manifest's lock file (\(reason))")
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
        for descriptor in exclusive {
            let pid = Array("\(getpid())\n".utf8)
            if ftruncate(descriptor, 0) == 0 { _ = pwrite(descriptor, pid, pid.count, 0) }
        }
        return .acquired(ManifestLock(descriptors: taken, exclusive: exclusive))
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
