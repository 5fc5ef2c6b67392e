// A file opened for reading without ever blocking on it: only a regular file gets past the
// checks, and FFmpeg then reads that very descriptor through an AVIOContext, so nothing can swap
// a FIFO or a device in under the name between the check and the read.

import CFFmpeg
import Glibc
import SliceKit

/// A regular file open for reading, by us (headers) and by FFmpeg (everything else).
///
/// Not thread-safe: one decode at a time reads it.
final class InputFile {
    /// The name the file was opened by, for messages.
    let path: String
    /// The open file: read here, and handed to a decode helper as its input.
    let descriptor: Int32
    private let isCancelled: @Sendable () -> Bool
    /// Where FFmpeg's next read starts (reads go through `pread`, so header reads never move it).
    private var position: Int64 = 0
    /// Where FFmpeg's reading ends when the picture ends before the file does (a WebP's RIFF
    /// chunk): FFmpeg sees a file of this size, so bytes after the picture never reach a
    /// decoder (whose bit readers look a few bytes past a chunk's end). nil: the whole file.
    var pictureEnd: Int64?
    /// The AVIOContext FFmpeg reads through, made on first use and freed with the file.
    private var context: UnsafeMutablePointer<AVIOContext>?

    /// Opens `path` if it is a regular file this process may read.
    /// - Parameter isCancelled: polled before every read FFmpeg makes; a read after it says
    ///   yes fails with `AVERROR_EXIT`, which ends whatever FFmpeg was doing.
    /// - Throws: `MediaError(.inputMissing)` naming the file and what it is instead: missing,
    ///   unreadable, a folder, a FIFO, a device or a socket.
    init(path: String, isCancelled: @escaping @Sendable () -> Bool = { false }) throws(MediaError) {
        self.path = path
        self.isCancelled = isCancelled
        // The name is looked at first so that a FIFO or a device is never opened at all (opening
        // a tape drive rewinds it); the descriptor is checked again after the open, because the
        // name may have been replaced in between.
        var named = stat()
        guard FileSystem.stat(path, &named) == 0 else { throw Self.openError(path: path, errno: errno) }
        try Self.requireRegular(named.st_mode, path: path)
        let descriptor = FileSystem.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else { throw Self.openError(path: path, errno: errno) }
        var opened = stat()
        guard fstat(descriptor, &opened) == 0 else {
            let error = Self.openError(path: path, errno: errno)
            close(descriptor)
            throw error
        }
        do {
            try Self.requireRegular(opened.st_mode, path: path)
        } catch {
            close(descriptor)
            throw error
        }
        self.descriptor = descriptor
    }

    /// Takes over `descriptor` (a decode helper's input, already checked by its parent; an
    /// SVGZ's inflated text), if it is a regular file.
    /// - Throws: `MediaError(.inputMissing)` naming `path` when it is not.
    init(descriptor: Int32, path: String) throws(MediaError) {
        self.path = path
        isCancelled = { false }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw Self.openError(path: path, errno: errno) }
        try Self.requireRegular(info.st_mode, path: path)
        self.descriptor = descriptor
    }

    deinit {
        if let context {
            // avio may have replaced the buffer it was given; free the one it holds now.
            av_freep(&context.pointee.buffer)
            var freed: UnsafeMutablePointer<AVIOContext>? = context
            avio_context_free(&freed)
            self.context = nil
        }
        close(descriptor)
    }

    /// The file's size in bytes now.
    var size: Int64 {
        var info = stat()
        return fstat(descriptor, &info) == 0 ? Int64(info.st_size) : 0
    }

    /// Up to `count` bytes from `offset` (fewer at the end of the file), for header checks.
    func bytes(at offset: Int64, count: Int) -> [UInt8] {
        guard offset >= 0, count > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let read = bytes.withUnsafeMutableBytes { buffer in
                pread(descriptor, buffer.baseAddress! + filled, count - filled, off_t(offset) + off_t(filled))
            }
            if read < 0 && errno == EINTR { continue }
            guard read > 0 else { break }
            filled += read
        }
        return Array(bytes.prefix(filled))
    }

    /// The AVIOContext that reads this file for libavformat, made on first use.
    /// - Throws: `MediaError` when out of memory.
    func ioContext() throws(MediaError) -> UnsafeMutablePointer<AVIOContext> {
        if let context { return context }
        let size: Int32 = 64 << 10
        guard let buffer = av_malloc(Int(size)) else { throw MediaError.outOfMemory(subject: path) }
        // Unretained: the context is freed in this object's deinit, so it never outlives it.
        let opaque = Unmanaged.passUnretained(self).toOpaque()
        guard let made = avio_alloc_context(buffer.assumingMemoryBound(to: UInt8.self), size, 0, opaque,
                                            { opaque, buffer, size in InputFile.from(opaque).read(into: buffer, size: size) },
                                            nil,
                                            { opaque, offset, whence in InputFile.from(opaque).seek(to: offset, whence: whence) }) else {
            av_free(buffer)
            throw MediaError.outOfMemory(subject: path)
        }
        context = made
        return made
    }

    /// Starts FFmpeg's reading over from the first byte (for a second decode of the same file).
    /// - Throws: `MediaError` when the context cannot seek.
    func rewind() throws(MediaError) {
        position = 0
        guard let context else { return }
        try check(Int32(truncatingIfNeeded: avio_seek(context, 0, SEEK_SET)), "avio_seek", subject: path)
    }

    /// Whether the decode this file feeds should stop.
    var cancelled: Bool { isCancelled() }

    /// Where the next `readFully` starts (libheif's reader moves it with seeks).
    var readPosition: Int64 {
        get { position }
        set { position = newValue }
    }

    /// Reads exactly `count` bytes at `readPosition` and moves past them, whether or not the
    /// run was stopped: libheif, which reads this way, asserts that its reads succeed.
    /// - Returns: false when the file ends first or a read fails.
    func readFully(into buffer: UnsafeMutableRawPointer, count: Int) -> Bool {
        var filled = 0
        while filled < count {
            let read = pread(descriptor, buffer + filled, count - filled, off_t(position) + off_t(filled))
            if read < 0 && errno == EINTR { continue }
            guard read > 0 else { return false }
            filled += read
        }
        position += Int64(count)
        return true
    }

    /// The file behind a callback's opaque pointer (this object, unretained).
    static func from(_ opaque: UnsafeMutableRawPointer?) -> InputFile {
        Unmanaged<InputFile>.fromOpaque(opaque!).takeUnretainedValue()
    }

    private func read(into buffer: UnsafeMutablePointer<UInt8>?, size: Int32) -> Int32 {
        if isCancelled() { return AVStatus.exit }
        guard let buffer, size > 0 else { return 0 }
        var wanted = Int(size)
        if let pictureEnd {
            guard position < pictureEnd else { return AVStatus.endOfFile }
            wanted = Int(min(Int64(wanted), pictureEnd - position))
        }
        while true {
            let read = pread(descriptor, buffer, wanted, off_t(position))
            if read < 0 && errno == EINTR { continue }
            if read < 0 { return cffmpeg_error_from_errno(errno) }
            if read == 0 { return AVStatus.endOfFile }
            position += Int64(read)
            return Int32(read)
        }
    }

    private func seek(to offset: Int64, whence: Int32) -> Int64 {
        let whence = whence & ~Int32(AVSEEK_FORCE)
        let size = pictureEnd.map { min($0, self.size) } ?? self.size
        if whence & Int32(AVSEEK_SIZE) != 0 { return size }
        let target: Int64
        switch whence {
        case SEEK_SET: target = offset
        case SEEK_CUR: target = position.addingReportingOverflow(offset).overflow ? -1 : position + offset
        case SEEK_END: target = size.addingReportingOverflow(offset).overflow ? -1 : size + offset
        default: return Int64(cffmpeg_error_from_errno(EINVAL))
        }
        guard target >= 0 else { return Int64(cffmpeg_error_from_errno(EINVAL)) }
        position = target
        return target
    }

    /// Refuses anything but a regular file, naming what it is.
    private static func requireRegular(_ mode: mode_t, path: String) throws(MediaError) {
        let what: String
        switch mode & S_IFMT {
        case S_IFREG: return
        case S_IFDIR: what = "is a folder"
        case S_IFIFO: what = "is a named pipe (FIFO)"
        case S_IFCHR: what = "is a character device"
        case S_IFBLK: what = "is a block device"
        case S_IFSOCK: what = "is a socket"
        default: what = "is not a regular file"
        }
        // Stills and songs alike: the message says what the file is, not what it should have held.
        throw MediaError(.inputMissing, subject: path, message: "\(what); only regular files are read")
    }

    private static func openError(path: String, errno code: Int32) -> MediaError {
        switch code {
        case ENOENT, ENOTDIR: MediaError(.inputMissing, subject: path, message: "no such file")
        case ENAMETOOLONG: MediaError(.inputMissing, subject: InputText.quoted(path), message: SettingsFile.Failure.nameTooLong.reason)
        case EACCES, EPERM: MediaError(.inputMissing, subject: path, message: "cannot be read (permission denied)")
        default: MediaError(.inputMissing, subject: path, message: "cannot be opened (\(String(cString: strerror(code))))")
        }
    }
}
