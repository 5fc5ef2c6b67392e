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
package final class VideoWriter {
    private let path: String
    private let plan: EncodingPlan
    // Each FFmpeg object is owned by its own class and freed in its deinit, so a writer that
    // fails half-way through `init` leaks nothing.
    private let muxer: Muxer
    private let codec: CodecContext
    private let frame: Frame
    /// A second AVFrame for lent pictures, so the writer's own (with its buffer) stays intact.
    private let lendingFrame: Frame
    private let packet: Packet
    /// Owned by `muxer`'s context.
    private let stream: UnsafeMutablePointer<AVStream>
    private var converter: Scaler?
    private var quantizer: FrameQuantizer?
    private let inputLayout: PixelLayout
    /// Where a 16-bit frame is reduced to 8 bits first, for an output of 8 bits or fewer: in
    /// our own code, which rounds exactly (libswscale's reduction is off by one level in half
    /// the samples).
    private var reduced: PlanarImage?
    private var written = 0
    private let loans = Loans()
    /// The music bed's stream and packets, written in step with the video.
    private var audio: AudioMux?

    /// Asked between packets while the encoder is flushed: true ends the flush with an error
    /// (a signal), instead of draining a long lookahead first.
    public var stopRequested: @Sendable () -> Bool = { false }

    /// Number of frames handed to the encoder so far.
    package var framesWritten: Int { written }

    /// The opened encoder's `thread_count`, as libavcodec kept it.
    package var encoderThreadCount: Int { Int(codec.pointer.pointee.thread_count) }

    /// Whether frames go to the encoder in place, wrapped rather than copied: when no
    /// conversion is needed and the encoder copies its input while it is being sent
    /// (`VideoCodec.copiesInputOnSend`). Saves a frame-sized copy per frame, which at 1080p is
    /// most of what slicevid itself spends beside the encoder. Tests turn it off to compare.
    var lendsFrames = false

    /// Opens an encoder and a file for `outputFormat` with `settings` as that output's own
    /// options, for callers that have no render plan (tests, one-off files).
    /// - Throws: `MediaError` (`.unavailable` if this libavcodec lacks the encoder, `.output`
    ///   for settings the codec refuses).
    package convenience init(path: String, outputFormat: OutputFormat, width: Int, height: Int, frameRate: FrameRate,
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

    /// Opens the encoder and the file and writes the container header, in the order FFmpeg's
    /// doc/examples/muxing.c uses.
    /// - Parameters:
    ///   - plan: what to write.
    ///   - path: where to write (for sequences, a printf pattern); normally a temporary path.
    ///   - file: the open file to write through instead of opening `path` by name.
    ///   - inputLayout: the layout of the `PlanarImage`s that `write` will receive, at the
    ///     plan's render size.
    ///   - palette: a GIF's colours (by default a fixed palette that suits any picture).
    ///   - audio: the music bed, encoded, for outputs whose plan carries audio.
    /// - Throws: `MediaError` (`.unavailable` if this libavcodec lacks the encoder).
    package init(plan: EncodingPlan, path: String, file: OutputFile? = nil, inputLayout: PixelLayout, palette: Palette? = nil,
                audio track: AudioTrack? = nil) throws(MediaError) {
        self.path = path
        self.plan = plan
        self.inputLayout = inputLayout
        if plan.format.isSequence {
            // image2 opens each file only when its frame arrives; check the directory now, so a
            // bad path fails before anything is rendered rather than at the first frame.
            let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
            var info = stat()
            guard FileSystem.stat(directory, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, FileSystem.access(directory, W_OK) == 0 else {
                throw MediaError(.output, subject: path, message: "the directory \(directory) does not exist or is not writable")
            }
        }
        muxer = try Muxer(formatName: plan.format.muxerName, path: path)
        // Same inputs, same bytes: without this Matroska/WebM write random segment and track
        // UIDs, and muxers stamp their library version.
        muxer.pointer.pointee.flags |= AVFMT_FLAG_BITEXACT
        guard let encoder = avcodec_find_encoder_by_name(plan.encoder) else {
            throw MediaError(.unavailable, subject: plan.encoder,
                             message: "this libavcodec has no such encoder (install a build with it)")
        }
        stream = try muxer.addStream()
        let pixelFormat = av_get_pix_fmt(plan.pixelFormat)
        let rate = plan.frameRate
        let timeBase = plan.ticksPerSecond.map { AVRational(num: 1, den: Int32($0)) }
            ?? AVRational(num: Int32(plan.selection.renderRate.denominator), den: Int32(plan.selection.renderRate.numerator))

        codec = try CodecContext(codec: encoder, subject: path)
        frame = try Frame(subject: path)
        lendingFrame = try Frame(subject: path)
        packet = try Packet(subject: path)
        let settings = codec.pointer
        settings.pointee.codec_id = encoder.pointee.id
        settings.pointee.width = Int32(plan.width)
        settings.pointee.height = Int32(plan.height)
        settings.pointee.pix_fmt = pixelFormat
        settings.pointee.time_base = timeBase
        settings.pointee.framerate = AVRational(num: Int32(rate.numerator), den: Int32(rate.denominator))
        settings.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)
        // The plan's count, never 0 ("every core"): jobs side by side would each take the whole
        // machine (x264's own choice is 1.5 threads a core, each holding frames), and x264, x265
        // and libvpx write other bytes with another count.
        settings.pointee.thread_count = plan.threadCount
        switch plan.colorTags {
        case .bt709Limited:
            // Playback-safe tags: BT.709 primaries, transfer and matrix, limited range.
            settings.pointee.color_primaries = AVCOL_PRI_BT709
            settings.pointee.color_trc = AVCOL_TRC_BT709
            settings.pointee.colorspace = AVCOL_SPC_BT709
            settings.pointee.color_range = AVCOL_RANGE_MPEG
        case .sRGB:
            settings.pointee.color_primaries = AVCOL_PRI_BT709
            settings.pointee.color_trc = AVCOL_TRC_IEC61966_2_1
            settings.pointee.colorspace = AVCOL_SPC_RGB
            settings.pointee.color_range = AVCOL_RANGE_JPEG
        case .none:
            break
        }
        if [.h264, .hevc, .vp9, .av1].contains(plan.codec) {
            // A keyframe every two seconds keeps scrubbing snappy in editors and browsers.
            settings.pointee.gop_size = Int32(max(1, (2 * rate.numerator) / rate.denominator))
        }
        if muxer.formatFlags & AVFMT_GLOBALHEADER != 0 {
            settings.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER
        }

        var options: OpaquePointer?
        defer { av_dict_free(&options) }
        try set(plan.codecOptions, in: &options)
        // x265 prints its banner and settings straight to stderr unless told not to.
        let logging = plan.encoder == "libx265" ? [("log-level", plan.verbose ? "warning" : "none")] : []
        let parameters = logging + plan.threadParameters
        if !parameters.isEmpty {
            let key = plan.encoder == "libx265" ? "x265-params" : "svtav1-params"
            try set([(key, parameters.map { "\($0.0)=\($0.1)" }.joined(separator: ":"))], in: &options)
        }
        try codec.open(options: &options, subject: "\(path) (\(plan.encoder))")
        try refuseLeftovers(options, of: plan.encoder)
        try check(avcodec_parameters_from_context(stream.pointee.codecpar, settings),
                  "avcodec_parameters_from_context", subject: path)
        if let tag = plan.codecTag {
            stream.pointee.codecpar.pointee.codec_tag = tag.utf8.reversed().reduce(0) { $0 << 8 | UInt32($1) }
        }
        stream.pointee.time_base = timeBase
        stream.pointee.avg_frame_rate = settings.pointee.framerate
        stream.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)

        describe(frame)
        let resized = plan.width != plan.renderWidth || plan.height != plan.renderHeight
        // Area averaging for downscales: no ringing, so no colours the stills never had.
        let flags = Scaler.qualityFlags(resizing: resized)
        let shallow = plan.codec == .gif || (av_pix_fmt_desc_get(pixelFormat)?.pointee.comp.0.depth ?? 8) <= 8
        if inputLayout.isDeep && shallow {
            reduced = PlanarImage(width: plan.renderWidth, height: plan.renderHeight, layout: inputLayout.eightBit)
        }
        let fed = reduced?.layout ?? inputLayout
        let source = (plan.renderWidth, plan.renderHeight, fed.avPixelFormat, ColorEncoding.of(fed))
        if plan.codec == .gif {
            converter = try plan.gifScaler(from: fed)
            quantizer = FrameQuantizer(palette: palette ?? .uniform(transparent: plan.keepsAlpha), width: plan.width, height: plan.height)
        } else if pixelFormat != fed.avPixelFormat || resized {
            let target: ColorEncoding = plan.colorTags == .bt709Limited ? .videoBT709 : .rgb
            converter = try Scaler(from: source, to: (plan.width, plan.height, pixelFormat, target), flags: flags)
        }
        lendsFrames = converter == nil && VideoCodec.copiesInputOnSend(encoder: plan.encoder)

        if let track, plan.audio == track.codec {
            audio = try AudioMux(track: track, muxer: muxer, format: plan.format)
        }

        try muxer.openFile(file)
        var muxOptions: OpaquePointer?
        defer { av_dict_free(&muxOptions) }
        try set(plan.muxerOptions, in: &muxOptions)
        try muxer.writeHeader(options: &muxOptions)
        try refuseLeftovers(muxOptions, of: plan.format.muxerName)
    }

    /// Encodes the next frame, as if the frames written so far were rendered frames 0, 1, 2, ….
    /// - Throws: `MediaError` if encoding or writing fails.
    package func write(_ image: PlanarImage) throws(MediaError) {
        try write(image, index: written)
    }

    /// Encodes rendered frame `index`; frames must arrive in increasing order. Which frames an
    /// output keeps is the caller's choice (the plan's `selection`); the index sets the time.
    /// - Throws: `MediaError` if encoding or writing fails.
    package func write(_ image: PlanarImage, index: Int) throws(MediaError) {
        precondition(image.layout == inputLayout, "frame layout changed mid-stream")
        let image = reduced.map { image.reducedToEightBit(into: $0) } ?? image
        if lendsFrames { return try lend(image, index: index) }
        // The writer's own picture is allocated at the first frame that needs it: a writer
        // that lends every frame never does.
        if !frame.hasBuffer { try frame.allocateBuffer(subject: path) }
        try check(av_frame_make_writable(frame.pointer), "av_frame_make_writable", subject: path)
        let target = frame.planes(count: Int(av_pix_fmt_count_planes(codec.pointer.pointee.pix_fmt)))
        if let converter {
            do {
                if let quantizer {
                    try quantizer.quantize(image, with: converter, into: frame)
                } else {
                    try converter.scale(image.planePointers, into: target)
                }
            } catch {
                throw MediaError(.output, subject: path, message: "frame \(index): \(error.message)")
            }
        } else {
            for (p, plane) in image.planes.enumerated() {
                guard let to = target.data[p] else { continue }
                for y in 0..<plane.height {
                    (to + y * Int(target.strides[p])).update(from: plane.row(y), count: plane.rowBytes)
                }
            }
        }
        frame.pointer.pointee.pts = plan.timestamp(ofFrame: index)
        written += 1
        try send(frame)
    }

    /// Sends `image` itself, wrapped in a read-only AVBuffer whose free callback reports it
    /// back, and checks that the encoder let go of it before returning: the caller reuses the
    /// memory as soon as this returns, so an encoder still holding it would encode a later
    /// frame's pixels. That is refused loudly rather than written silently.
    private func lend(_ image: PlanarImage, index: Int) throws(MediaError) {
        let lent = lendingFrame
        // The buffer keeps the image alive while any reference to it lasts, so an encoder that
        // holds the frame never reads freed memory; the count says whether one did.
        let loans = self.loans
        try lent.lend(image, subject: path) { loans.returned() }
        loans.lend()
        describe(lent)
        lent.pointer.pointee.pts = plan.timestamp(ofFrame: index)
        written += 1
        // Our reference goes whether or not the send worked; only then can the count say
        // whether the encoder still holds one.
        let sent = Result { () throws(MediaError) in try send(lent) }
        lent.unref()
        try sent.get()
        guard loans.outstanding == 0 else {
            throw MediaError(.output, subject: path, message: "\(plan.encoder) kept a reference to a frame it was lent")
        }
    }

    /// Sets what every frame sent to this encoder says about itself.
    private func describe(_ frame: Frame) {
        let codec = codec.pointer.pointee
        frame.pointer.pointee.format = codec.pix_fmt.rawValue
        frame.pointer.pointee.width = codec.width
        frame.pointer.pointee.height = codec.height
        frame.pointer.pointee.color_primaries = codec.color_primaries
        frame.pointer.pointee.color_trc = codec.color_trc
        frame.pointer.pointee.colorspace = codec.colorspace
        frame.pointer.pointee.color_range = codec.color_range
    }

    /// Flushes the encoder and writes the trailer. The file is complete when this returns.
    /// - Throws: `MediaError` if flushing or writing fails.
    package func finish() throws(MediaError) {
        try send(nil)
        try audio?.write(upTo: nil, in: stream.pointee.time_base)
        try muxer.finish()
    }

    /// Refuses the options an encoder or muxer left in `dictionary`: an option it did not take
    /// would be a setting silently not applied (a crf the dry run promised, say).
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

    /// Adds `pairs` to an options dictionary.
    private func set(_ pairs: [(String, String)], in dictionary: inout OpaquePointer?) throws(MediaError) {
        for (key, value) in pairs {
            try check(av_dict_set(&dictionary, key, value, 0), "av_dict_set(\(key))", subject: path)
        }
    }

    /// Sends a frame (nil flushes) and writes every packet the encoder has ready.
    private func send(_ frame: Frame?) throws(MediaError) {
        try codec.sendFrame(frame)
        while try codec.receivePacket(packet) == .ready {
            if frame == nil, stopRequested() {
                packet.unref()
                throw MediaError(.output, subject: path, message: "stopped while the encoder was flushed")
            }
            av_packet_rescale_ts(packet.pointer, codec.pointer.pointee.time_base, stream.pointee.time_base)
            packet.streamIndex = stream.pointee.index
            // The audio that plays up to this picture goes first: the file is interleaved as it
            // is written, and the muxer never holds more than a packet or two back.
            try audio?.write(upTo: packet.pointer.pointee.dts, in: stream.pointee.time_base)
            try muxer.write(packet)
        }
    }
}

/// Frames lent to the encoder and not yet given back (their AVBuffer not yet freed).
private final class Loans: Sendable {
    private let count = Atomic<Int>(0)
    func lend() { count.add(1, ordering: .relaxed) }
    func returned() { count.subtract(1, ordering: .releasing) }
    var outstanding: Int { count.load(ordering: .acquiring) }
}
