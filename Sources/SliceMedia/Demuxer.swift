// One input AVFormatContext, owned: opened over an InputFile's descriptor (or, for an image
// sequence's pattern, by name) and closed in deinit on every path.

import CFFmpeg

/// A container being read: its streams and their packets.
///
/// Not thread-safe: one reader at a time.
final class Demuxer {
    /// The context itself, for FFmpeg calls inside this module only.
    let pointer: UnsafeMutablePointer<AVFormatContext>
    /// The file FFmpeg reads through; kept alive until the context is closed.
    private let file: InputFile?
    /// What errors name.
    let subject: String

    /// Opens `file` for reading; libavformat picks the format from the content (and the name).
    /// - Parameter formats: the only demuxers allowed (FFmpeg's comma-separated names), or nil
    ///   for any. Other files are not opened by name from inside this one either: a still
    ///   that refers to other files (a playlist, a reference movie) is not read.
    /// - Throws: FFmpeg's code as a `MediaError` of kind `.inputInvalid`; the caller words it.
    init(file: InputFile, formats: String? = nil) throws(MediaError) {
        subject = file.path
        self.file = file
        guard var context = avformat_alloc_context() else { throw MediaError.outOfMemory(subject: file.path) }
        context.pointee.pb = try file.ioContext()
        // Checked by libavformat while it waits or loops, besides the reads themselves.
        context.pointee.interrupt_callback = AVIOInterruptCB(
            callback: { opaque in InputFile.from(opaque).cancelled ? 1 : 0 },
            opaque: Unmanaged.passUnretained(file).toOpaque())
        context.pointee.io_open = { _, _, _, _, _ in cffmpeg_error_from_errno(EPERM) }
        if let formats { context.pointee.format_whitelist = av_strdup(formats) }
        var opened: UnsafeMutablePointer<AVFormatContext>? = context
        // On failure avformat_open_input frees the context (but never a caller's AVIOContext).
        let code = avformat_open_input(&opened, file.path, nil, nil)
        guard code >= 0, let opened else {
            throw MediaError(.inputInvalid, subject: file.path, message: MediaError.text(for: code), code: code,
                             function: "avformat_open_input")
        }
        context = opened
        pointer = context
    }

    /// Opens `url` by name: for image sequence patterns (`frames/%05d.png`), which libavformat
    /// must open file by file itself.
    init(url: String) throws(MediaError) {
        subject = url
        file = nil
        var opened: UnsafeMutablePointer<AVFormatContext>?
        let code = avformat_open_input(&opened, url, nil, nil)
        guard code >= 0, let opened else {
            throw MediaError(.inputInvalid, subject: url, message: MediaError.text(for: code), code: code,
                             function: "avformat_open_input")
        }
        pointer = opened
    }

    deinit {
        var context: UnsafeMutablePointer<AVFormatContext>? = pointer
        avformat_close_input(&context)
    }

    /// Reads packets to learn the streams' parameters (which, for some formats, decodes a
    /// picture: not for stills, whose size is checked before anything is decoded).
    /// - Throws: `MediaError` of kind `.inputInvalid`.
    func findStreamInfo() throws(MediaError) {
        try check(avformat_find_stream_info(pointer, nil), "avformat_find_stream_info", kind: .inputInvalid, subject: subject)
    }

    /// The stream a player would show, and the decoder libavcodec has for it.
    func bestVideoStream() -> (index: Int32, stream: UnsafeMutablePointer<AVStream>, decoder: UnsafePointer<AVCodec>)? {
        var decoder: UnsafePointer<AVCodec>?
        let index = av_find_best_stream(pointer, AVMEDIA_TYPE_VIDEO, -1, -1, &decoder, 0)
        guard index >= 0, index < pointer.pointee.nb_streams, let decoder,
              let stream = pointer.pointee.streams[Int(index)] else { return nil }
        return (index, stream, decoder)
    }

    /// Reads the next packet into `packet`.
    /// - Returns: FFmpeg's code: ≥ 0 for a packet, EOF at the end, `AVERROR_EXIT` when
    ///   cancelled, another negative code on a read error.
    func read(into packet: Packet) -> Int32 {
        av_read_frame(pointer, packet.pointer)
    }

    /// libavformat's short name for the container.
    var formatName: String {
        pointer.pointee.iformat?.pointee.name.map { String(cString: $0) } ?? "unknown"
    }
}
