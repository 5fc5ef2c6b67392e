// Encodes planar frames and muxes them into a file, in the order FFmpeg's doc/examples/muxing.c
// lays out: output context → encoder → stream → open → header → frames → flush → trailer.

import CFFmpeg
import Foundation
import SliceKit

/// One output file (or image sequence) being written.
///
/// Not thread-safe: a sink calls it from its own serial queue. Frees every FFmpeg resource in
/// `deinit`, whether or not `finish()` was reached.
public final class VideoWriter {
    private let path: String
    private let format: UnsafeMutablePointer<AVFormatContext>
    private var codec: UnsafeMutablePointer<AVCodecContext>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private let stream: UnsafeMutablePointer<AVStream>
    private var converter: Scaler?
    private let inputLayout: PixelLayout
    private var fileOpen = false
    private var headerWritten = false
    private var nextPTS: Int64 = 0

    /// Number of frames handed to the encoder so far.
    public var framesWritten: Int { Int(nextPTS) }

    /// Opens the encoder and the file and writes the container header.
    /// - Parameters:
    ///   - path: where to write (for sequences, a printf pattern); normally a temporary path.
    ///   - outputFormat: the container, codec and pixel format.
    ///   - width: frame width in pixels.
    ///   - height: frame height in pixels.
    ///   - frameRate: frames per second; the codec time base is its inverse.
    ///   - inputLayout: the layout of the `PlanarImage`s that `write` will receive.
    ///   - settings: quality and speed.
    /// - Throws: `MediaError` (`.unavailable` if this libavcodec lacks the encoder).
    public init(path: String, outputFormat: OutputFormat, width: Int, height: Int, frameRate: FrameRate,
                inputLayout: PixelLayout, settings: EncoderSettings) throws(MediaError) {
        self.path = path
        self.inputLayout = inputLayout
        if outputFormat.isSequence {
            // image2 opens each file only when its frame arrives; check the directory now, so a
            // bad path fails before anything is rendered rather than at the first frame.
            let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue,
                  FileManager.default.isWritableFile(atPath: directory) else {
                throw MediaError(.output, subject: path, message: "the directory \(directory) does not exist or is not writable")
            }
        }
        var formatPointer: UnsafeMutablePointer<AVFormatContext>?
        try check(avformat_alloc_output_context2(&formatPointer, nil, outputFormat.muxerName, path),
                  "avformat_alloc_output_context2", subject: path)
        guard let formatPointer else { throw MediaError(.output, subject: path, message: "cannot create muxer") }
        format = formatPointer
        guard let encoder = avcodec_find_encoder_by_name(outputFormat.encoderName) else {
            avformat_free_context(formatPointer)
            throw MediaError(.unavailable, subject: outputFormat.encoderName,
                             message: "this libavcodec has no such encoder (install a build with it)")
        }
        guard let stream = avformat_new_stream(formatPointer, nil) else {
            avformat_free_context(formatPointer)
            throw MediaError(.output, subject: path, message: "cannot add a video stream")
        }
        self.stream = stream
        let pixelFormat = outputFormat.encoderPixelFormat(alpha: inputLayout.hasAlpha)
        let timeBase = AVRational(num: Int32(frameRate.denominator), den: Int32(frameRate.numerator))

        // From here on, deinit cleans up whatever was allocated.
        codec = avcodec_alloc_context3(encoder)
        frame = av_frame_alloc()
        packet = av_packet_alloc()
        guard let codec, let frame, packet != nil else {
            throw MediaError(.output, subject: path, message: "out of memory")
        }
        codec.pointee.codec_id = encoder.pointee.id
        codec.pointee.width = Int32(width)
        codec.pointee.height = Int32(height)
        codec.pointee.pix_fmt = pixelFormat
        codec.pointee.time_base = timeBase
        codec.pointee.framerate = AVRational(num: Int32(frameRate.numerator), den: Int32(frameRate.denominator))
        codec.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)
        if outputFormat.colorEncoding == .videoBT709 {
            // Playback-safe tags: BT.709 primaries, transfer and matrix, limited range.
            codec.pointee.color_primaries = AVCOL_PRI_BT709
            codec.pointee.color_trc = AVCOL_TRC_BT709
            codec.pointee.colorspace = AVCOL_SPC_BT709
            codec.pointee.color_range = AVCOL_RANGE_MPEG
            // A keyframe every two seconds keeps scrubbing snappy in editors and browsers.
            codec.pointee.gop_size = Int32(max(1, (2 * frameRate.numerator) / frameRate.denominator))
        }
        if formatPointer.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 {
            codec.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER
        }

        var options: OpaquePointer?
        defer { av_dict_free(&options) }
        if outputFormat == .mp4 {
            av_dict_set(&options, "preset", settings.preset, 0)
            av_dict_set(&options, "crf", String(settings.crf), 0)
            // Capping the profile at High keeps every file playable on phones and in Safari. Only
            // an explicit --crf 0 asks for lossless, which needs High 4:4:4 Predictive instead.
            if settings.crf > 0 { av_dict_set(&options, "profile", "high", 0) }
        }
        try check(avcodec_open2(codec, encoder, &options), "avcodec_open2", subject: "\(path) (\(outputFormat.encoderName))")
        try check(avcodec_parameters_from_context(stream.pointee.codecpar, codec),
                  "avcodec_parameters_from_context", subject: path)
        stream.pointee.time_base = timeBase
        stream.pointee.avg_frame_rate = codec.pointee.framerate

        frame.pointee.format = pixelFormat.rawValue
        frame.pointee.width = Int32(width)
        frame.pointee.height = Int32(height)
        frame.pointee.color_primaries = codec.pointee.color_primaries
        frame.pointee.color_trc = codec.pointee.color_trc
        frame.pointee.colorspace = codec.pointee.colorspace
        frame.pointee.color_range = codec.pointee.color_range
        try check(av_frame_get_buffer(frame, 0), "av_frame_get_buffer", subject: path)
        if pixelFormat != inputLayout.avPixelFormat {
            let targetColor = outputFormat.colorEncoding
            converter = try Scaler(from: (width, height, inputLayout.avPixelFormat, .of(inputLayout)),
                                   to: (width, height, pixelFormat, targetColor),
                                   flags: SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT)
        }

        if formatPointer.pointee.oformat.pointee.flags & AVFMT_NOFILE == 0 {
            try check(avio_open(&formatPointer.pointee.pb, path, AVIO_FLAG_WRITE), "avio_open", subject: path)
            fileOpen = true
        }
        var muxOptions: OpaquePointer?
        defer { av_dict_free(&muxOptions) }
        if outputFormat == .mp4 { av_dict_set(&muxOptions, "movflags", "+faststart", 0) }
        if outputFormat == .pngSequence { av_dict_set(&muxOptions, "start_number", "0", 0) }
        try check(avformat_write_header(formatPointer, &muxOptions), "avformat_write_header", subject: path)
        headerWritten = true
    }

    deinit {
        if fileOpen { avio_closep(&format.pointee.pb) }
        avformat_free_context(format)
        avcodec_free_context(&codec)
        av_frame_free(&frame)
        av_packet_free(&packet)
    }

    /// Encodes one frame; frames must arrive in presentation order.
    /// - Throws: `MediaError` if encoding or writing fails.
    public func write(_ image: PlanarImage) throws(MediaError) {
        guard let codec, let frame else { return }
        precondition(image.layout == inputLayout, "frame layout changed mid-stream")
        try check(av_frame_make_writable(frame), "av_frame_make_writable", subject: path)
        let target = frame.planePointers(count: Int(av_pix_fmt_count_planes(codec.pointee.pix_fmt)))
        if let converter {
            converter.scale(image.planePointers, into: target)
        } else {
            for (p, plane) in image.planes.enumerated() {
                guard let to = target.data[p] else { continue }
                for y in 0..<plane.height {
                    (to + y * Int(target.strides[p])).update(from: plane.row(y), count: plane.width)
                }
            }
        }
        frame.pointee.pts = nextPTS
        nextPTS += 1
        try send(frame)
    }

    /// Flushes the encoder and writes the trailer. The file is complete when this returns.
    /// - Throws: `MediaError` if flushing or writing fails.
    public func finish() throws(MediaError) {
        try send(nil)
        try check(av_write_trailer(format), "av_write_trailer", subject: path)
        if fileOpen {
            try check(avio_closep(&format.pointee.pb), "avio_closep", subject: path)
            fileOpen = false
        }
    }

    /// Sends a frame (nil flushes) and writes every packet the encoder has ready.
    private func send(_ frame: UnsafeMutablePointer<AVFrame>?) throws(MediaError) {
        guard let codec, let packet else { return }
        try check(avcodec_send_frame(codec, frame), "avcodec_send_frame", subject: path)
        while true {
            switch try receivePacket(codec, packet) {
            case .needsInput, .drained:
                return
            case .packet:
                av_packet_rescale_ts(packet, codec.pointee.time_base, stream.pointee.time_base)
                packet.pointee.stream_index = stream.pointee.index
                try check(av_interleaved_write_frame(format, packet), "av_interleaved_write_frame", subject: path)
            }
        }
    }

    /// `avcodec_receive_packet`'s outcomes: EAGAIN and EOF are results, not errors.
    private enum Received { case packet, needsInput, drained }

    private func receivePacket(_ codec: UnsafeMutablePointer<AVCodecContext>,
                               _ packet: UnsafeMutablePointer<AVPacket>) throws(MediaError) -> Received {
        let result = avcodec_receive_packet(codec, packet)
        if result == AVStatus.again { return .needsInput }
        if result == AVStatus.endOfFile { return .drained }
        try check(result, "avcodec_receive_packet", subject: path)
        return .packet
    }
}
