// One input AVFormatContext, owned: opened over an InputFile's descriptor (or, for an image
// sequence's pattern, over one InputFile per frame) and closed in deinit on every path.

import CFFmpeg
import Glibc
import SliceKit

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
    /// - Throws: FFmpeg's code as a `MediaError` of kind `.inputInvalid`, which the caller
    ///   words; or, with no code, a refusal already worded for the user (a compressed movie
    ///   header past its limit, see `CompressedMovieHeader`; no memory).
    init(file: InputFile, formats: String? = nil) throws(MediaError) {
        // libavformat would inflate it while opening, to whatever size it declares.
        if let problem = CompressedMovieHeader.problem(in: file) { throw MediaError(.inputInvalid, subject: file.path, message: problem) }
        subject = file.path
        self.file = file
        frames = SequenceFrames()
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
        let code = PathBytes.withCString(file.path) { avformat_open_input(&opened, $0, nil, nil) }
        guard code >= 0, let opened else {
            throw MediaError(.inputInvalid, subject: file.path, message: MediaError.text(for: code), code: code,
                             function: "avformat_open_input")
        }
        context = opened
        pointer = context
    }

    /// Opens an image sequence's pattern (`frames/%05d.png`), whose frames libavformat must
    /// open one by one: only local files (the file protocol, `file:` prefixed so no pattern
    /// reaches another protocol), only the image2 demuxer, and each frame only if it is a
    /// regular file, read through an `InputFile` (a FIFO frame would hang the read).
    /// - Throws: `MediaError`: `.inputMissing` naming a frame that is not a regular file,
    ///   `.inputInvalid` with FFmpeg's code otherwise.
    init(pattern: String) throws(MediaError) {
        subject = pattern
        file = nil
        let frames = SequenceFrames()
        self.frames = frames
        guard let context = avformat_alloc_context() else { throw MediaError.outOfMemory(subject: pattern) }
        context.pointee.opaque = Unmanaged.passUnretained(frames).toOpaque()
        context.pointee.io_open = SequenceFrames.open
        context.pointee.io_close2 = SequenceFrames.close
        var options: OpaquePointer?
        defer { av_dict_free(&options) }
        av_dict_set(&options, "protocol_whitelist", "file", 0)
        av_dict_set(&options, "format_whitelist", "image2", 0)
        // image2 named outright: libavformat then never opens the pattern itself as one file to
        // probe it. That file would be opened through `SequenceFrames.open` and, when the probe
        // failed, closed with avio_closep, which takes our AVIOContext for one of its own and
        // crashes (any existing file with a `%` in its name did, before MediaReader stopped
        // sending names that are files here).
        guard let image2 = av_find_input_format("image2") else {
            avformat_free_context(context)
            throw MediaError(.unavailable, subject: pattern, message: "this libavformat has no image2 demuxer to read a sequence")
        }
        var opened: UnsafeMutablePointer<AVFormatContext>? = context
        // The pattern's own bytes: image2 numbers and opens frames from them.
        let code = PathBytes.withCString("file:" + pattern) { avformat_open_input(&opened, $0, image2, &options) }
        guard code >= 0, let opened else {
            if let refusal = frames.refusal { throw refusal }
            // image2 finds no first frame: nothing by that name, and no sequence either.
            if code == cffmpeg_error_from_errno(ENOENT) {
                throw MediaError(.inputMissing, subject: pattern, message: "no such file, nor frames numbered by it as a sequence pattern")
            }
            throw MediaError(.inputInvalid, subject: pattern, message: MediaError.text(for: code), code: code, function: "avformat_open_input")
        }
        pointer = opened
    }

    /// The frames of a sequence open now, and the first one refused (none for a file).
    let frames: SequenceFrames

    deinit {
        var context: UnsafeMutablePointer<AVFormatContext>? = pointer
        avformat_close_input(&context)
    }

    /// Reads packets to learn the streams' parameters (which, for some formats, decodes a
    /// picture: not for stills, whose size is checked before anything is decoded; and JPEG XL,
    /// through libjxl, only in a decode helper).
    /// - Throws: `MediaError` of kind `.inputInvalid`.
    func findStreamInfo() throws(MediaError) {
        if holdsJPEGXL, lacksJPEGXLSignature {
            throw MediaError(.inputInvalid, subject: subject, message: "is not a JPEG XL file (no JPEG XL signature)")
        }
        try check(avformat_find_stream_info(pointer, nil), "avformat_find_stream_info", kind: .inputInvalid, subject: subject)
    }

    /// The codec of each stream, as the container (or the file's name) says before anything
    /// is decoded.
    var codecs: [AVCodecID] {
        UnsafeBufferPointer(start: pointer.pointee.streams, count: Int(pointer.pointee.nb_streams))
            .compactMap { $0?.pointee.codecpar.pointee.codec_id }
    }

    /// Whether a stream is JPEG XL (image2 says so from a `.jxl` name alone).
    private var holdsJPEGXL: Bool {
        UnsafeBufferPointer(start: pointer.pointee.streams, count: Int(pointer.pointee.nb_streams))
            .contains { $0?.pointee.codecpar.pointee.codec_id == AV_CODEC_ID_JPEGXL }
    }

    /// Whether the file does not start as a JPEG XL codestream or container does: libjxl (as
    /// FFmpeg 5.1 drives it) spins forever on a one-byte file, so only a file that is JPEG XL
    /// by its first bytes reaches it.
    private var lacksJPEGXLSignature: Bool {
        guard let file else { return false }
        return StillHeader(reading: file).format != .jpegXL
    }

    /// The stream a player would show, and the decoder libavcodec has for it; none for a
    /// "JPEG XL" stream whose file lacks the signature (see `lacksJPEGXLSignature`).
    func bestVideoStream() -> (index: Int32, stream: UnsafeMutablePointer<AVStream>, decoder: UnsafePointer<AVCodec>)? {
        if holdsJPEGXL, lacksJPEGXLSignature { return nil }
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

/// The frames of an image sequence libavformat has open, each an `InputFile`, by the
/// AVIOContext it reads through; and the first frame refused, for the error.
final class SequenceFrames {
    private var open: [UnsafeMutableRawPointer: InputFile] = [:]
    /// Why a frame was not opened (not a regular file, missing, unreadable).
    private(set) var refusal: MediaError?

    private static func frames(_ format: UnsafeMutablePointer<AVFormatContext>?) -> SequenceFrames? {
        format?.pointee.opaque.map { Unmanaged<SequenceFrames>.fromOpaque($0).takeUnretainedValue() }
    }

    fileprivate static let open: @convention(c) (UnsafeMutablePointer<AVFormatContext>?, UnsafeMutablePointer<UnsafeMutablePointer<AVIOContext>?>?, UnsafePointer<CChar>?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Int32 = { format, pb, url, flags, _ in
        guard let frames = frames(format), let pb, let url, flags & AVIO_FLAG_WRITE == 0 else { return cffmpeg_error_from_errno(EPERM) }
        var path = PathBytes.text(UnsafeRawBufferPointer(start: url, count: strlen(url)))
        if path.hasPrefix("file:") { path.removeFirst("file:".count) }
        do throws(MediaError) {
            let file = try InputFile(path: path)
            let context = try file.ioContext()
            frames.open[UnsafeMutableRawPointer(context)] = file
            pb.pointee = context
            return 0
        } catch {
            if frames.refusal == nil { frames.refusal = error }
            return cffmpeg_error_from_errno(ENOENT)
        }
    }

    fileprivate static let close: @convention(c) (UnsafeMutablePointer<AVFormatContext>?, UnsafeMutablePointer<AVIOContext>?) -> Int32 = { format, pb in
        // The InputFile frees its AVIOContext.
        if let frames = frames(format), let pb { frames.open[UnsafeMutableRawPointer(pb)] = nil }
        return 0
    }
}
