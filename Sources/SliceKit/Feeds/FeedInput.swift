// The bytes of a data feed, a chunk at a time: a regular file (a FIFO or a device is refused by
// its name, as settings files are) or standard input for pipelines, never more than a cap, and
// a read from a pipe that a stop signal can end. A file is read as one version or not at all:
// one rewritten, truncated or swapped while it was read says so at its end, as its size, times
// or inode then differ from what was opened, so that no run (and no prune) acts on half a feed.

import Foundation
import Glibc

/// Reads a feed's bytes in chunks, up to `limit` in all.
package final class FeedInput {
    /// The most bytes read from one feed: far above any product sheet (a million rows of 60
    /// bytes), and a bound on a pipe that never ends.
    package static let maximumSize = 256 << 20

    /// Called after each chunk of a file is read, with the file's path and the chunk's number
    /// (from 1): where a test rewrites a feed mid-read, as an export running beside a nightly
    /// run does. Bound to a task, so one test's rewrite never reaches another's read.
    @TaskLocal package static var afterChunk: (@Sendable (String, Int) -> Void)?

    /// What identifies one version of a file: a change to any of it between the open and the
    /// end of a read means the bytes read may mix two versions.
    package struct Stamp: Sendable, Equatable {
        let device: UInt64
        let inode: UInt64
        let size: Int
        /// Modification and status-change times, seconds and nanoseconds.
        let times: [Int]

        init(_ status: stat) {
            (device, inode, size) = (UInt64(status.st_dev), UInt64(status.st_ino), Int(status.st_size))
            times = [status.st_mtim.tv_sec, status.st_mtim.tv_nsec, status.st_ctim.tv_sec, status.st_ctim.tv_nsec].map { Int($0) }
        }
    }

    private let descriptor: Int32
    private let ownsDescriptor: Bool
    /// The file's path and its version as opened; nil for standard input.
    private let path: String?
    /// The version of the file as opened (nil for standard input): what its end is checked against.
    package let opened: Stamp?
    private var chunks = 0
    private let limit: Int
    private let stop: () -> Bool
    private var total = 0
    private var chunk = [UInt8](repeating: 0, count: 1 << 16)

    /// Opens the regular file at `path`.
    /// - Throws: `FeedError` saying why it cannot be read (missing, not a regular file, too large).
    /// - Throws: `FeedError` saying why it cannot be read: missing, unreadable or not a regular
    ///   file (`isMissing`), or larger than `limit`.
    package init(path: String, limit: Int = maximumSize) throws(FeedError) {
        var named = stat()
        guard FileSystem.stat(path, &named) == 0 else { throw FeedInput.failure(errno) }
        guard named.st_mode & S_IFMT == S_IFREG else { throw FeedInput.notRegular(named.st_mode) }
        let descriptor = FileSystem.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else { throw FeedInput.failure(errno) }
        // Checked again on what was opened: the name may have been swapped meanwhile.
        var opened = stat()
        guard fstat(descriptor, &opened) == 0, opened.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw FeedInput.notRegular(opened.st_mode)
        }
        if Int(opened.st_size) > limit {
            close(descriptor)
            throw FeedError(FeedInput.tooLarge(limit))
        }
        self.descriptor = descriptor
        ownsDescriptor = true
        self.path = path
        self.opened = Stamp(opened)
        self.limit = limit
        stop = { false }
    }

    /// Reads standard input (or any descriptor) until its end, `limit` or `stop` says so; a
    /// pipe is waited on in short polls so a stop signal ends the wait.
    package init(descriptor: Int32 = STDIN_FILENO, limit: Int = maximumSize, stop: @escaping () -> Bool) {
        self.descriptor = descriptor
        ownsDescriptor = false
        path = nil
        opened = nil
        self.limit = limit
        self.stop = stop
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
    }

    /// The next chunk of bytes, or nil at the end.
    /// - Throws: `FeedError` when the feed is larger than the limit, a read fails, or `stop`
    ///   said to stop (`isInterrupted`).
    package func next() throws(FeedError) -> ArraySlice<UInt8>? {
        while true {
            if stop() { throw FeedInput.interrupted }
            if !ownsDescriptor {
                // Wait for bytes a little at a time: a signal sets `stop`, and no read blocks past it.
                var wait = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                let ready = poll(&wait, 1, 50)
                if ready == 0 || (ready < 0 && errno == EINTR) { continue }
            }
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw FeedError("cannot be read (\(String(cString: strerror(errno))))")
            }
            if count == 0 {
                try checkUnchanged()
                return nil
            }
            total += count
            guard total <= limit else { throw FeedError(FeedInput.tooLarge(limit)) }
            chunks += 1
            if let path, let afterChunk = FeedInput.afterChunk { afterChunk(path, chunks) }
            return chunk[..<count]
        }
    }

    /// At a file's end: the file read must still be the one opened — the same size, times and
    /// inode through its descriptor and by its name — and every byte of it read.
    /// - Throws: `FeedError` with `isChanged` when it is not.
    private func checkUnchanged() throws(FeedError) {
        guard hasChanged || (opened.map { total != $0.size } ?? false) else { return }
        var error = FeedError("changed while it was read (its size, times or file differ between the start and the end of the read)")
        error.isChanged = true
        throw error
    }

    /// Whether the file is no longer the version opened, through its descriptor or by its name
    /// (a rename put another file there); false for standard input.
    package var hasChanged: Bool {
        guard let path, let opened else { return false }
        var now = stat(), named = stat()
        return fstat(descriptor, &now) != 0 || Stamp(now) != opened || FileSystem.stat(path, &named) != 0 || Stamp(named) != opened
    }

    /// Every byte left, for readers that want the whole (a manifest on standard input).
    package func readAll() throws(FeedError) -> [UInt8] {
        var bytes: [UInt8] = []
        while let chunk = try next() { bytes.append(contentsOf: chunk) }
        return bytes
    }

    private static var interrupted: FeedError {
        var error = FeedError("interrupted while reading")
        error.isInterrupted = true
        return error
    }

    private static func tooLarge(_ limit: Int) -> String {
        "is larger than \(limit >> 20) MiB, the most a feed may be; split the feed into several manifests"
    }

    private static func notRegular(_ mode: mode_t) -> FeedError {
        var error = FeedError(SettingsFile.Failure.notRegular(FileKind.described(mode)).reason)
        error.isMissing = true
        return error
    }

    private static func failure(_ code: Int32) -> FeedError {
        var error = switch code {
        case ENOENT, ENOTDIR: FeedError("no such file")
        case EACCES, EPERM: FeedError("cannot be read (permission denied)")
        case ENAMETOOLONG: FeedError(SettingsFile.Failure.nameTooLong.reason)
        default: FeedError("cannot be opened (\(String(cString: strerror(code))))")
        }
        error.isMissing = true
        return error
    }
}
