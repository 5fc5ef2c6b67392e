// The bytes of a data feed, a chunk at a time: a regular file (a FIFO or a device is refused by
// its name, as settings files are) or standard input for pipelines, never more than a cap, and
// a read from a pipe that a stop signal can end.

import Foundation
import Glibc

/// Reads a feed's bytes in chunks, up to `limit` in all.
package final class FeedInput {
    /// The most bytes read from one feed: far above any product sheet (a million rows of 60
    /// bytes), and a bound on a pipe that never ends.
    package static let maximumSize = 256 << 20

    private let descriptor: Int32
    private let ownsDescriptor: Bool
    private let limit: Int
    private let stop: () -> Bool
    private var total = 0
    private var chunk = [UInt8](repeating: 0, count: 1 << 16)

    /// Opens the regular file at `path`.
    /// - Throws: `FeedError` saying why it cannot be read (missing, not a regular file, too large).
    package init(path: String, limit: Int = maximumSize) throws(FeedError) {
        var named = stat()
        guard stat(path, &named) == 0 else { throw FeedInput.failure(errno) }
        guard named.st_mode & S_IFMT == S_IFREG else { throw FeedError(SettingsFile.Failure.notRegular(FileKind.described(named.st_mode)).reason) }
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else { throw FeedInput.failure(errno) }
        // Checked again on what was opened: the name may have been swapped meanwhile.
        var opened = stat()
        guard fstat(descriptor, &opened) == 0, opened.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw FeedError(SettingsFile.Failure.notRegular(FileKind.described(opened.st_mode)).reason)
        }
        if Int(opened.st_size) > limit {
            close(descriptor)
            throw FeedError(FeedInput.tooLarge(limit))
        }
        self.descriptor = descriptor
        ownsDescriptor = true
        self.limit = limit
        stop = { false }
    }

    /// Reads standard input (or any descriptor) until its end, `limit` or `stop` says so; a
    /// pipe is waited on in short polls so a stop signal ends the wait.
    package init(descriptor: Int32 = STDIN_FILENO, limit: Int = maximumSize, stop: @escaping () -> Bool) {
        self.descriptor = descriptor
        ownsDescriptor = false
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
            if count == 0 { return nil }
            total += count
            guard total <= limit else { throw FeedError(FeedInput.tooLarge(limit)) }
            return chunk[..<count]
        }
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
        "is larger than \(limit >> 20) MiB; split the feed into several manifests"
    }

    private static func failure(_ code: Int32) -> FeedError {
        switch code {
        case ENOENT, ENOTDIR: FeedError("no such file")
        case EACCES, EPERM: FeedError("cannot be read (permission denied)")
        case ENAMETOOLONG: FeedError(SettingsFile.Failure.nameTooLong.reason)
        default: FeedError("cannot be opened (\(String(cString: strerror(code))))")
        }
    }
}
