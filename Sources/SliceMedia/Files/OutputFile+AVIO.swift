// FFmpeg's view of an OutputFile: a custom AVIOContext whose callbacks write, seek and read
// through the descriptor, so a muxer (MP4's moov rewrite and faststart included) never opens
// the output by name.

import CFFmpeg
import Glibc

/// One AVIOContext over an `OutputFile`, for writing, or for reading back what was written.
/// Freed in deinit with its buffer.
final class FileIO {
    let file: OutputFile
    let writing: Bool
    /// Where the next read starts (reads use pread, leaving the writer's offset alone).
    private var position: Int64 = 0
    /// Read-back contexts a muxer opened with `io_open` and has not closed yet.
    private var readers: [UnsafeMutableRawPointer: FileIO] = [:]
    private(set) var context: UnsafeMutablePointer<AVIOContext>?

    /// - Throws: `MediaError` when out of memory.
    init(file: OutputFile, writing: Bool, subject: String) throws(MediaError) {
        self.file = file
        self.writing = writing
        // A stream takes small buffers, so what it writes is never stuck behind a big one.
        let size: Int32 = file.isStream ? 4096 : 65536
        guard let buffer = av_malloc(Int(size)) else { throw MediaError.outOfMemory(subject: subject) }
        let opaque = Unmanaged.passUnretained(self).toOpaque()
        context = avio_alloc_context(buffer.assumingMemoryBound(to: UInt8.self), size, writing ? 1 : 0, opaque,
                                     writing ? nil : FileIO.readPacket, writing ? FileIO.writePacket : nil,
                                     file.isStream ? nil : FileIO.seek)
        guard context != nil else {
            av_free(buffer)
            throw MediaError.outOfMemory(subject: subject)
        }
    }

    deinit {
        guard context != nil else { return }
        // The context may have replaced its buffer: free the one it holds now.
        av_freep(&context!.pointee.buffer)
        avio_context_free(&context)
    }

    private static func io(_ opaque: UnsafeMutableRawPointer?) -> FileIO {
        Unmanaged<FileIO>.fromOpaque(opaque!).takeUnretainedValue()
    }

    private static let writePacket: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int32) -> Int32 = { opaque, bytes, count in
        guard let bytes, count > 0 else { return 0 }
        let result = io(opaque).file.write(UnsafeRawBufferPointer(start: bytes, count: Int(count)))
        return result == 0 ? count : cffmpeg_error_from_errno(-result)
    }

    private static let readPacket: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int32) -> Int32 = { opaque, bytes, count in
        let reader = io(opaque)
        guard let bytes, count > 0 else { return 0 }
        let read = reader.file.read(into: bytes, count: Int(count), at: reader.position)
        if read < 0 { return cffmpeg_error_from_errno(Int32(-read)) }
        if read == 0 { return cffmpeg_error_eof() }
        reader.position += Int64(read)
        return Int32(read)
    }

    private static let seek: @convention(c) (UnsafeMutableRawPointer?, Int64, Int32) -> Int64 = { opaque, offset, whence in
        let io = io(opaque)
        let how = whence & ~AVSEEK_FORCE
        if how == AVSEEK_SIZE { return io.file.size < 0 ? Int64(cffmpeg_error_from_errno(Int32(-io.file.size))) : io.file.size }
        if io.writing {
            let moved = lseek(io.file.descriptor, off_t(offset), how)
            return moved < 0 ? Int64(cffmpeg_error_from_errno(errno)) : Int64(moved)
        }
        let base: Int64
        switch how {
        case SEEK_SET: base = 0
        case SEEK_CUR: base = io.position
        case SEEK_END: base = io.file.size
        default: return Int64(cffmpeg_error_from_errno(EINVAL))
        }
        guard base >= 0, offset <= Int64.max - base, base + offset >= 0 else { return Int64(cffmpeg_error_from_errno(EINVAL)) }
        io.position = base + offset
        return io.position
    }

    /// Makes `muxer` write through this context, and read back through new ones over the same
    /// file (never by name) when it asks to reopen its output (MP4's faststart does).
    func install(in muxer: UnsafeMutablePointer<AVFormatContext>) {
        muxer.pointee.pb = context
        muxer.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        muxer.pointee.opaque = Unmanaged.passUnretained(self).toOpaque()
        muxer.pointee.io_open = FileIO.open
        muxer.pointee.io_close2 = FileIO.close
    }

    private static let open: @convention(c) (UnsafeMutablePointer<AVFormatContext>?, UnsafeMutablePointer<UnsafeMutablePointer<AVIOContext>?>?, UnsafePointer<CChar>?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Int32 = { format, pb, _, flags, _ in
        guard let format, let pb, let opaque = format.pointee.opaque else { return cffmpeg_error_from_errno(EINVAL) }
        // Only reading back the output itself: anything else would be a file by name.
        guard flags & AVIO_FLAG_WRITE == 0 else { return cffmpeg_error_from_errno(EPERM) }
        let writer = io(opaque)
        guard let reader = try? FileIO(file: writer.file, writing: false, subject: ""), let context = reader.context else {
            return cffmpeg_error_from_errno(ENOMEM)
        }
        writer.readers[UnsafeMutableRawPointer(context)] = reader
        pb.pointee = context
        return 0
    }

    private static let close: @convention(c) (UnsafeMutablePointer<AVFormatContext>?, UnsafeMutablePointer<AVIOContext>?) -> Int32 = { format, pb in
        guard let format, let pb, let opaque = format.pointee.opaque else { return 0 }
        io(opaque).readers[UnsafeMutableRawPointer(pb)] = nil
        return 0
    }
}
