// One output AVFormatContext, owned: the container being written and, unless the format writes
// its own files (image sequences), the file it writes to. Both are closed in deinit on every path.

import CFFmpeg

/// A container being written.
///
/// Not thread-safe: the writer that owns it calls it from one queue.
final class Muxer {
    /// The context itself, for FFmpeg calls inside this module only.
    let pointer: UnsafeMutablePointer<AVFormatContext>
    /// What errors name: the file (or sequence pattern) being written.
    let subject: String
    private var fileOpen = false

    /// A muxer for `formatName` writing to `path`; nothing is opened yet.
    /// - Throws: `MediaError` when libavformat has no such muxer or is out of memory.
    init(formatName: String, path: String) throws(MediaError) {
        subject = path
        var context: UnsafeMutablePointer<AVFormatContext>?
        try check(avformat_alloc_output_context2(&context, nil, formatName, path), "avformat_alloc_output_context2", subject: path)
        guard let context else { throw MediaError(.output, subject: path, message: "cannot create muxer") }
        pointer = context
    }

    deinit {
        if fileOpen { avio_closep(&pointer.pointee.pb) }
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

    /// Opens the file for writing, unless the format opens its own (an image sequence).
    /// - Throws: `MediaError` naming `avio_open` and FFmpeg's reason.
    func openFile() throws(MediaError) {
        guard formatFlags & AVFMT_NOFILE == 0, !fileOpen else { return }
        try check(avio_open(&pointer.pointee.pb, subject, AVIO_FLAG_WRITE), "avio_open", subject: subject)
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
        if fileOpen {
            fileOpen = false
            try check(avio_closep(&pointer.pointee.pb), "avio_closep", subject: subject)
        }
    }
}
