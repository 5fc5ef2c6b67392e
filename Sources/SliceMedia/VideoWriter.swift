// Encodes planar frames and muxes them into a file, in the order FFmpeg's doc/examples/muxing.c
// lays out: output context → encoder → stream → open → header → frames → flush → trailer.
// What to encode (codec, options, size, tags) comes from an EncodingPlan; this file only does it.

import CFFmpeg
import Foundation
import SliceKit
import Synchronization

/// One output file (or image sequence) being written.
///
/// Not thread-safe: a sink calls it from its own serial queue. Frees every FFmpeg resource in
/// `deinit`, whether or not `finish()` was reached.
public final class VideoWriter {
    private let path: String
    private let plan: EncodingPlan
    private let format: UnsafeMutablePointer<AVFormatContext>
    private var codec: UnsafeMutablePointer<AVCodecContext>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    /// A second AVFrame for lent pictures, so the writer's own (with its buffer) stays intact.
    private var lendingFrame: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private let stream: UnsafeMutablePointer<AVStream>
    private var converter: Scaler?
    private var quantizer: FrameQuantizer?
    private let inputLayout: PixelLayout
    private var fileOpen = false
    private var written = 0
    private let loans = Loans()

    /// Number of frames handed to the encoder so far.
    public var framesWritten: Int { written }

    /// Whether frames go to the encoder in place, wrapped rather than copied: when no
    /// conversion is needed and the encoder copies its input while it is being sent
    /// (`VideoCodec.copiesInputOnSend`). Saves a frame-sized copy per frame, which at 1080p is
    /// most of what slicevid itself spends beside the encoder. Tests turn it off to compare.
    var lendsFrames = false

    /// Opens an encoder and a file for `outputFormat` with `settings` as that output's own
    /// options, for callers that have no render plan (tests, one-off files).
    /// - Throws: `MediaError` (`.unavailable` if this libavcodec lacks the encoder, `.output`
    ///   for settings the codec refuses).
    public convenience init(path: String, outputFormat: OutputFormat, width: Int, height: Int, frameRate: FrameRate,
                            inputLayout: PixelLayout, settings: EncoderSettings) throws(MediaError) {
        let clip = Clip(width: width, height: height, frameRate: frameRate, frameCount: 1 << 30,
                        isTransparent: inputLayout.hasAlpha && outputFormat.defaultCodec.carriesAlpha)
        // `write(_:)` numbers frames 0, 1, 2…: a GIF must then keep every one of them.
        var own = settings
        if outputFormat == .gif, own.gifFrameRate == nil, frameRate.value <= 50 { own.gifFrameRate = frameRate }
        let plan: EncodingPlan
        do {
            plan = try EncodingPlan.resolve(path: path, format: outputFormat, own: own, clip: clip)
        } catch {
            throw MediaError(error.kind == .unavailable ? .unavailable : .output, subject: path, message: error.message)
        }
        try self.init(plan: plan, path: path, inputLayout: inputLayout)
    }

    /// Opens the encoder and the file and writes the container header.
    /// - Parameters:
    ///   - plan: what to write.
    ///   - path: where to write (for sequences, a printf pattern); normally a temporary path.
    ///   - inputLayout: the layout of the `PlanarImage`s that `write` will receive, at the
    ///     plan's render size.
    ///   - palette: a GIF's colours (by default a fixed palette that suits any picture).
    /// - Throws: `MediaError` (`.unavailable` if this libavcodec lacks the encoder).
    public init(plan: EncodingPlan, path: String, inputLayout: PixelLayout, palette: Palette? = nil) throws(MediaError) {
        self.path = path
        self.plan = plan
        self.inputLayout = inputLayout
        if plan.format.isSequence {
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
        try check(avformat_alloc_output_context2(&formatPointer, nil, plan.format.muxerName, path),
                  "avformat_alloc_output_context2", subject: path)
        guard let formatPointer else { throw MediaError(.output, subject: path, message: "cannot create muxer") }
        format = formatPointer
        // Same inputs, same bytes: without this Matroska/WebM write random segment and track
        // UIDs, and muxers stamp their library version.
        formatPointer.pointee.flags |= AVFMT_FLAG_BITEXACT
        guard let encoder = avcodec_find_encoder_by_name(plan.encoder) else {
            avformat_free_context(formatPointer)
            throw MediaError(.unavailable, subject: plan.encoder,
                             message: "this libavcodec has no such encoder (install a build with it)")
        }
        guard let stream = avformat_new_stream(formatPointer, nil) else {
            avformat_free_context(formatPointer)
            throw MediaError(.output, subject: path, message: "cannot add a video stream")
        }
        self.stream = stream
        let pixelFormat = av_get_pix_fmt(plan.pixelFormat)
        let rate = plan.frameRate
        let timeBase = plan.ticksPerSecond.map { AVRational(num: 1, den: Int32($0)) }
            ?? AVRational(num: Int32(plan.selection.renderRate.denominator), den: Int32(plan.selection.renderRate.numerator))

        // From here on, deinit cleans up whatever was allocated.
        codec = avcodec_alloc_context3(encoder)
        frame = av_frame_alloc()
        lendingFrame = av_frame_alloc()
        packet = av_packet_alloc()
        guard let codec, let frame, lendingFrame != nil, packet != nil else {
            throw MediaError(.output, subject: path, message: "out of memory")
        }
        codec.pointee.codec_id = encoder.pointee.id
        codec.pointee.width = Int32(plan.width)
        codec.pointee.height = Int32(plan.height)
        codec.pointee.pix_fmt = pixelFormat
        codec.pointee.time_base = timeBase
        codec.pointee.framerate = AVRational(num: Int32(rate.numerator), den: Int32(rate.denominator))
        codec.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)
        // libavcodec's default is one thread; 0 lets each encoder use every core (libvpx and
        // libaom otherwise run single-threaded whatever row-mt says).
        codec.pointee.thread_count = 0
        switch plan.colorTags {
        case .bt709Limited:
            // Playback-safe tags: BT.709 primaries, transfer and matrix, limited range.
            codec.pointee.color_primaries = AVCOL_PRI_BT709
            codec.pointee.color_trc = AVCOL_TRC_BT709
            codec.pointee.colorspace = AVCOL_SPC_BT709
            codec.pointee.color_range = AVCOL_RANGE_MPEG
        case .sRGB:
            codec.pointee.color_primaries = AVCOL_PRI_BT709
            codec.pointee.color_trc = AVCOL_TRC_IEC61966_2_1
            codec.pointee.colorspace = AVCOL_SPC_RGB
            codec.pointee.color_range = AVCOL_RANGE_JPEG
        case .none:
            break
        }
        if [.h264, .hevc, .vp9, .av1].contains(plan.codec) {
            // A keyframe every two seconds keeps scrubbing snappy in editors and browsers.
            codec.pointee.gop_size = Int32(max(1, (2 * rate.numerator) / rate.denominator))
        }
        if formatPointer.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 {
            codec.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER
        }

        var options: OpaquePointer?
        defer { av_dict_free(&options) }
        try set(plan.codecOptions, in: &options)
        if plan.encoder == "libx265" {
            // x265 prints its banner and settings straight to stderr unless told not to.
            try set([("x265-params", "log-level=" + (FFmpegLog.isVerbose ? "warning" : "none"))], in: &options)
        }
        try check(avcodec_open2(codec, encoder, &options), "avcodec_open2", subject: "\(path) (\(plan.encoder))")
        try refuseLeftovers(options, of: plan.encoder)
        try check(avcodec_parameters_from_context(stream.pointee.codecpar, codec),
                  "avcodec_parameters_from_context", subject: path)
        if let tag = plan.codecTag {
            stream.pointee.codecpar.pointee.codec_tag = tag.utf8.reversed().reduce(0) { $0 << 8 | UInt32($1) }
        }
        stream.pointee.time_base = timeBase
        stream.pointee.avg_frame_rate = codec.pointee.framerate
        stream.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)

        describe(frame)
        let resized = plan.width != plan.renderWidth || plan.height != plan.renderHeight
        // Area averaging for downscales: no ringing, so no colours the stills never had.
        let flags = (resized ? SWS_AREA : SWS_BICUBIC) | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT
        let source = (plan.renderWidth, plan.renderHeight, inputLayout.avPixelFormat, ColorEncoding.of(inputLayout))
        if plan.codec == .gif {
            converter = try plan.gifScaler(from: inputLayout)
            quantizer = FrameQuantizer(palette: palette ?? .uniform(transparent: plan.keepsAlpha), width: plan.width, height: plan.height)
        } else if pixelFormat != inputLayout.avPixelFormat || resized {
            let target: ColorEncoding = plan.colorTags == .bt709Limited ? .videoBT709 : .rgb
            converter = try Scaler(from: source, to: (plan.width, plan.height, pixelFormat, target), flags: flags)
        }
        lendsFrames = converter == nil && VideoCodec.copiesInputOnSend(encoder: plan.encoder)

        if formatPointer.pointee.oformat.pointee.flags & AVFMT_NOFILE == 0 {
            try check(avio_open(&formatPointer.pointee.pb, path, AVIO_FLAG_WRITE), "avio_open", subject: path)
            fileOpen = true
        }
        var muxOptions: OpaquePointer?
        defer { av_dict_free(&muxOptions) }
        try set(plan.muxerOptions, in: &muxOptions)
        try check(avformat_write_header(formatPointer, &muxOptions), "avformat_write_header", subject: path)
        try refuseLeftovers(muxOptions, of: plan.format.muxerName)
    }

    deinit {
        if fileOpen { avio_closep(&format.pointee.pb) }
        avformat_free_context(format)
        avcodec_free_context(&codec)
        av_frame_free(&frame)
        av_frame_free(&lendingFrame)
        av_packet_free(&packet)
    }

    /// Encodes the next frame, as if the frames written so far were rendered frames 0, 1, 2, ….
    /// - Throws: `MediaError` if encoding or writing fails.
    public func write(_ image: PlanarImage) throws(MediaError) {
        try write(image, index: written)
    }

    /// Encodes rendered frame `index`; frames must arrive in increasing order. Which frames an
    /// output keeps is the caller's choice (the plan's `selection`); the index sets the time.
    /// - Throws: `MediaError` if encoding or writing fails.
    public func write(_ image: PlanarImage, index: Int) throws(MediaError) {
        guard let codec, let frame else { return }
        precondition(image.layout == inputLayout, "frame layout changed mid-stream")
        if lendsFrames { return try lend(image, index: index) }
        // The writer's own picture is allocated at the first frame that needs it: a writer
        // that lends every frame never does.
        if frame.pointee.buf.0 == nil {
            try check(av_frame_get_buffer(frame, 0), "av_frame_get_buffer", subject: path)
        }
        try check(av_frame_make_writable(frame), "av_frame_make_writable", subject: path)
        let target = frame.planePointers(count: Int(av_pix_fmt_count_planes(codec.pointee.pix_fmt)))
        if let converter {
            let converted = quantizer.map { $0.quantize(image, with: converter, into: frame) }
                ?? converter.scale(image.planePointers, into: target)
            guard converted else { throw MediaError(.output, subject: path, message: "libswscale could not convert frame \(index)") }
        } else {
            for (p, plane) in image.planes.enumerated() {
                guard let to = target.data[p] else { continue }
                for y in 0..<plane.height {
                    (to + y * Int(target.strides[p])).update(from: plane.row(y), count: plane.width)
                }
            }
        }
        frame.pointee.pts = plan.timestamp(ofFrame: index)
        written += 1
        try send(frame)
    }

    /// Sends `image` itself, wrapped in a read-only AVBuffer whose free callback reports it
    /// back, and checks that the encoder let go of it before returning: the caller reuses the
    /// memory as soon as this returns, so an encoder still holding it would encode a later
    /// frame's pixels. That is refused loudly rather than written silently.
    private func lend(_ image: PlanarImage, index: Int) throws(MediaError) {
        guard let lent = lendingFrame else { return }
        let opaque = Unmanaged.passUnretained(loans).toOpaque()
        guard let buffer = av_buffer_create(image.storage.assumingMemoryBound(to: UInt8.self), image.byteCount,
                                            { opaque, _ in Unmanaged<Loans>.fromOpaque(opaque!).takeUnretainedValue().returned() },
                                            opaque, AV_BUFFER_FLAG_READONLY) else {
            throw MediaError(.output, subject: path, message: "out of memory")
        }
        loans.lend()
        describe(lent)
        lent.pointee.buf.0 = buffer
        withUnsafeMutableBytes(of: &lent.pointee.data) { data in
            withUnsafeMutableBytes(of: &lent.pointee.linesize) { linesize in
                for (p, plane) in image.planes.enumerated() {
                    data.storeBytes(of: plane.base, toByteOffset: p * MemoryLayout<UnsafeMutablePointer<UInt8>?>.stride,
                                    as: UnsafeMutablePointer<UInt8>?.self)
                    linesize.storeBytes(of: Int32(plane.stride), toByteOffset: p * MemoryLayout<Int32>.stride, as: Int32.self)
                }
            }
        }
        lent.pointee.pts = plan.timestamp(ofFrame: index)
        written += 1
        // Our reference goes whether or not the send worked; only then can the count say
        // whether the encoder still holds one.
        let sent = Result { () throws(MediaError) in try send(lent) }
        av_frame_unref(lent)
        try sent.get()
        guard loans.outstanding == 0 else {
            throw MediaError(.output, subject: path, message: "\(plan.encoder) kept a reference to a frame it was lent")
        }
    }

    /// Sets what every frame sent to this encoder says about itself.
    private func describe(_ frame: UnsafeMutablePointer<AVFrame>) {
        guard let codec else { return }
        frame.pointee.format = codec.pointee.pix_fmt.rawValue
        frame.pointee.width = codec.pointee.width
        frame.pointee.height = codec.pointee.height
        frame.pointee.color_primaries = codec.pointee.color_primaries
        frame.pointee.color_trc = codec.pointee.color_trc
        frame.pointee.colorspace = codec.pointee.colorspace
        frame.pointee.color_range = codec.pointee.color_range
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

    /// Adds `pairs` to an options dictionary.
    /// An option the encoder or muxer did not take would be a setting silently not applied
    /// (a crf the dry run promised, say): that is refused, not ignored.
    private func refuseLeftovers(_ dictionary: OpaquePointer?, of component: String) throws(MediaError) {
        guard av_dict_count(dictionary) > 0 else { return }
        var names: [String] = []
        var entry: UnsafeMutablePointer<AVDictionaryEntry>?
        while let next = av_dict_get(dictionary, "", entry, AV_DICT_IGNORE_SUFFIX) {
            names.append(String(cString: next.pointee.key))
            entry = next
        }
        throw MediaError(.output, subject: path, message: "\(component) did not take the option(s) \(names.joined(separator: ", "))")
    }

    private func set(_ pairs: [(String, String)], in dictionary: inout OpaquePointer?) throws(MediaError) {
        for (key, value) in pairs {
            try check(av_dict_set(&dictionary, key, value, 0), "av_dict_set(\(key))", subject: path)
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

/// Frames lent to the encoder and not yet given back (their AVBuffer not yet freed).
private final class Loans: Sendable {
    private let count = Atomic<Int>(0)
    func lend() { count.add(1, ordering: .relaxed) }
    func returned() { count.subtract(1, ordering: .releasing) }
    var outstanding: Int { count.load(ordering: .acquiring) }
}
