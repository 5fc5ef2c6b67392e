// The file descriptor an output is written through. A temporary is opened once, O_EXCL and
// O_NOFOLLOW, and written only through that descriptor: nothing reopens it by name, so a link
// planted at the name meanwhile is never followed. Standard output is written the same way, but
// waits for room with poll(2) beside a wake pipe, so a stalled reader cannot outlast a signal.

import Glibc
import SliceKit
import Synchronization

/// An open file (or standard output) that writers write to through a descriptor.
package final class OutputFile: Sendable {
    /// The descriptor written to.
    let descriptor: Int32
    /// Whether this owns `descriptor` (closed in deinit) or only borrows it (standard output).
    private let owned: Bool
    /// A pipe or terminal: writes wait for room with poll(2) and the wake pipe, no seeking.
    let isStream: Bool

    /// Takes over `descriptor` (an open, writable regular file), closing it in deinit.
    package init(adopting descriptor: Int32) {
        self.descriptor = descriptor
        owned = true
        isStream = false
    }

    private init(stream descriptor: Int32) {
        self.descriptor = descriptor
        owned = false
        isStream = true
    }

    /// Standard output, written in pieces a stalled reader cannot block past `wakeAll()`.
    package static let standardOutput = OutputFile(stream: STDOUT_FILENO)

    deinit { if owned { close(descriptor) } }

    /// The process-wide wake pipe: once a byte is in it (a stop signal), every stream write
    /// waiting for room gives up, now and from then on.
    private static let wakePipe: (read: Int32, write: Int32) = {
        var ends: [Int32] = [-1, -1]
        // pipe2 is hidden from Swift's Glibc (no _GNU_SOURCE): the flags are set one by one.
        guard pipe(&ends) == 0 else { return (-1, -1) }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
        }
        return (ends[0], ends[1])
    }()

    /// Ends every stream write waiting for a reader, and every later one: what a stop signal
    /// does, so `-o -` to a stalled reader ends the run instead of blocking it forever.
    package static func wakeAll() {
        let end = wakePipe.write
        guard end >= 0 else { return }
        var byte: UInt8 = 1
        _ = Glibc.write(end, &byte, 1)
    }

    /// Whether `wakeAll()` was called.
    static var isAwake: Bool {
        var ready = pollfd(fd: wakePipe.read, events: Int16(POLLIN), revents: 0)
        return wakePipe.read >= 0 && poll(&ready, 1, 0) == 1
    }

    /// Writes all of `bytes`; 0 or a negative errno. A stream write waits with poll(2) for
    /// room and gives up with ECANCELED once `wakeAll()` is called; pieces of at most
    /// PIPE_BUF bytes then never block, since POLLOUT on a pipe means a page is free.
    func write(_ bytes: UnsafeRawBufferPointer) -> Int32 {
        var done = 0
        while done < bytes.count {
            var piece = bytes.count - done
            if isStream {
                var waits = [pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0),
                             pollfd(fd: OutputFile.wakePipe.read, events: Int16(POLLIN), revents: 0)]
                let ready = poll(&waits, nfds_t(waits[1].fd >= 0 ? 2 : 1), -1)
                if ready < 0 {
                    if errno == EINTR { continue }
                    return -errno
                }
                if waits[1].revents != 0 { return -ECANCELED }
                piece = min(piece, Int(PIPE_BUF))
            }
            let wrote = Glibc.write(descriptor, bytes.baseAddress! + done, piece)
            if wrote < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return -errno
            }
            done += wrote
        }
        return 0
    }

    /// Reads up to `count` bytes at `offset` into `buffer` (for a muxer reading back what it
    /// wrote, such as MP4's faststart); the count read, or a negative errno.
    func read(into buffer: UnsafeMutableRawPointer, count: Int, at offset: Int64) -> Int {
        while true {
            let read = pread(descriptor, buffer, count, off_t(offset))
            if read < 0 && errno == EINTR { continue }
            return read < 0 ? -Int(errno) : read
        }
    }

    /// Whether `name` in the open folder `folder` is this very file (not a link, not a file
    /// put in its place): what a commit checks before it moves that name into place.
    package func isNamed(_ name: String, in folder: Int32) -> Bool {
        var mine = stat(), named = stat()
        guard fstat(descriptor, &mine) == 0, FileSystem.fstatat(folder, name, &named, AT_SYMLINK_NOFOLLOW) == 0 else { return false }
        return mine.st_dev == named.st_dev && mine.st_ino == named.st_ino
    }

    /// The file's size in bytes, or a negative errno.
    var size: Int64 {
        var status = stat()
        return fstat(descriptor, &status) == 0 ? Int64(status.st_size) : -Int64(errno)
    }
}
