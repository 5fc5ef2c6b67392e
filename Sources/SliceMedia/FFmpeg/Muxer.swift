// One output AVFormatContext, owned: the container being written and, unless the format writes
// its own files (image sequences), the file it writes to: an OutputFile's descriptor through a
// custom AVIOContext, or (fixtures) a file opened by name. Both are closed in deinit on every path.

import CFFmpeg
import SliceKit

/// A container being written.
///
/// Not thread-safe: the writer that owns it calls it from one queue.
final class Muxer {
    /// The context itself, for FFmpeg calls inside this module only.
    let pointer: UnsafeMutablePointer<AVFormatContext>
    /// What errors name: the file (or sequence pattern) being written.
    let subject: String
    private var fileOpen = false
    /// The custom AVIOContext over an `OutputFile`, when writing through one.
    private var io: FileIO?

    /// A muxer for `formatName` writing to `path`; nothing is opened yet.
    /// - Throws: `MediaError` when libavformat has no such muxer or is out of memory.
    init(formatName: String, path: String) throws(MediaError) {
        subject = path
        var context: UnsafeMutablePointer<AVFormatContext>?
        // The name's own bytes: an image sequence's muxer opens its frames by it.
        let made = PathBytes.withCString(path) { avformat_alloc_output_context2(&context, nil, formatName, $0) }
        try check(made, "avformat_alloc_output_context2", subject: path)
        guard let context else { throw MediaError(.output, subject: path, message: "cannot create muxer") }
        pointer = context
    }

    deinit {
        if fileOpen, io == nil { avio_closep(&pointer.pointee.pb) }
        pointer.pointee.pb = nil
        avformat_free_context(pointer)
    }

    /// The output format's flags (`AVFMT_GLOBALHEADER`, `AVFMT_NOFILE`, …).
    var formatFlags: Int32 { pointer.pointee.oformat.pointee.flags }

    /// Adds a stream.
    /// - Throws: `MediaError` when out of memory.
    func addStream() throws(MediaError) -> UnsafeMutablePointer<AVStream> {
        guard let stream = avformat_new_stream(pointer, nil) else {
            throw MediaError(.output, subject: subject, message: "cannot add a video stream")
        }
        return stream
    }

    /// Opens the output for writing, unless the format opens its own (an image sequence):
    /// through `file`'s descriptor when given (never reopening it by name), else by name.
    /// - Throws: `MediaError` naming `avio_open` and FFmpeg's reason.
    func openFile(_ file: OutputFile? = nil) throws(MediaError) {
        guard formatFlags & AVFMT_NOFILE == 0, !fileOpen else { return }
        if let file {
            let io = try FileIO(file: file, writing: true, subject: subject)
            io.install(in: pointer)
            self.io = io
        } else {
            try check(PathBytes.withCString(subject) { avio_open(&pointer.pointee.pb, $0, AVIO_FLAG_WRITE) }, "avio_open", subject: subject)
        }
        fileOpen = true
    }

    /// Writes the container header; `options` keeps what the muxer did not take.
    func writeHeader(options: inout OpaquePointer?) throws(MediaError) {
        try check(avformat_write_header(pointer, &options), "avformat_write_header", subject: subject)
    }

    /// Writes one packet, interleaved (the muxer takes its reference).
    func write(_ packet: Packet) throws(MediaError) {
        try check(av_interleaved_write_frame(pointer, packet.pointer), "av_interleaved_write_frame", subject: subject)
    }

    /// Writes the trailer and closes the file: the output is complete once this returns.
    func finish() throws(MediaError) {
        try check(av_write_trailer(pointer), "av_write_trailer", subject: subject)
        guard fileOpen else { return }
        fileOpen = false
        if io != nil {
            // A failed write shows in the context's error once the rest is flushed.
            avio_flush(pointer.pointee.pb)
            try check(pointer.pointee.pb.pointee.error, "avio_write", subject: subject)
        } else {
            try check(avio_closep(&pointer.pointee.pb), "avio_closep", subject: subject)
        }
    }
}
