// Reads back what was written: stream facts for `probe` and for tests, and decoded frames so
// tests can compare pixels. The check side of every media test.

import CFFmpeg
import Glibc
import SliceKit

/// Facts about the first video stream of a media file.
package struct MediaInfo: Sendable, Equatable {
    /// libavformat's short name for the container (`mov,mp4,m4a,3gp,3g2,mj2`, `image2`, …).
    package var containerName: String
    /// The codec's short name (`h264`, `png`, …).
    package var codecName: String
    /// The codec profile's name (`High`, …), when it has one.
    package var profileName: String?
    /// The stream's four-character code (`avc1`, `hvc1`, `apch`), or "" when the container has none.
    package var codecTag: String
    package var width: Int
    package var height: Int
    /// The pixel format frames decode to (`yuva420p` for VP9 with alpha, which WebM stores
    /// beside the colour planes).
    package var pixelFormat: String
    /// Whether decoded frames carry an alpha plane.
    package var hasAlpha: Bool
    /// Colour tags as FFmpeg names them (`bt709`, `tv`, …).
    package var colorPrimaries: String
    package var colorTransfer: String
    package var colorSpace: String
    package var colorRange: String
    /// Average frame rate as stored in the stream.
    package var frameRate: Double
    /// Frames counted by decoding the whole stream.
    package var frameCount: Int
    /// Seconds the stream plays: the container's duration, or frames ÷ rate when it has none.
    package var duration: Double
    /// The stream's average frame rate as the exact fraction it stores; nil when it has none.
    package var averageFrameRate: FrameRate? = nil
    /// The first audio stream, if the file has one.
    package var audio: AudioStreamFacts? = nil
}

/// Opens media files for reading.
package enum MediaReader {
    /// Reads a file's stream facts, decoding it to count its frames. SVG, HEIF and JPEG XL
    /// files are read in a decode helper, as `make` decodes them (see `StillRoute`).
    /// - Throws: `MediaError` (`.inputInvalid`) if the file is not readable media;
    ///   `.unavailable` when it needs a helper and none is set up.
    package static func info(path: String) throws(MediaError) -> MediaInfo {
        // A sequence pattern names files libavformat opens one by one; anything else is read
        // through one descriptor, after checking it is a regular file (a FIFO would hang).
        if isPattern(path) {
            guard let info = try info(of: .pattern(path), inHelper: false) else { throw MediaError(.inputInvalid, subject: path, message: "is not readable media") }
            return info
        }
        let file = try pictureFile(path)
        if case .helper(let format) = StillRoute(file, probing: true) { return try IsolatedDecode.facts(file, format: format) }
        if let info = try info(of: .file(file), inHelper: false) { return info }
        return try IsolatedDecode.facts(file, format: "image")
    }

    /// The facts of `file`, read in this process, which is a decode helper.
    static func infoInHelper(_ file: InputFile) throws(MediaError) -> MediaInfo {
        file.pictureEnd = StillHeader(reading: file).webp?.end
        guard let info = try info(of: .file(file), inHelper: true) else {
            throw MediaError(.inputInvalid, subject: file.path, message: "is not readable media")
        }
        return info
    }

    /// What libavformat opens: one file, or the pattern of a sequence.
    private enum Source {
        case file(InputFile)
        case pattern(String)
    }

    /// Facts of `source`; nil when reading it needs a decoder that runs only in a helper and
    /// this process is not one (`inHelper`).
    private static func info(of source: Source, inHelper: Bool) throws(MediaError) -> MediaInfo? {
        let path = switch source {
        case .file(let file): file.path
        case .pattern(let pattern): pattern
        }
        var info: MediaInfo?
        var count = 0
        let decoded = try decode(source, layout: nil, inHelper: inHelper) { facts, _ in
            info = facts
            count += 1
        }
        guard decoded else { return nil }
        guard var info else { throw MediaError(.inputInvalid, subject: path, message: "has no decodable video frames") }
        info.frameCount = count
        if info.duration <= 0, info.frameRate > 0 { info.duration = Double(count) / info.frameRate }
        return info
    }

    /// Decodes every frame of a file, converted to `layout` at the stream's size.
    /// Meant for tests and short clips: all frames are kept in memory.
    package static func frames(path: String, layout: PixelLayout) throws(MediaError) -> [PlanarImage] {
        var frames: [PlanarImage] = []
        let source = isPattern(path) ? Source.pattern(path) : .file(try pictureFile(path))
        let decoded = try decode(source, layout: layout, inHelper: false) { _, image in
            if let image { frames.append(image) }
        }
        // Decoders that can abort run only in a helper, which answers with facts, not frames.
        guard decoded else { throw MediaError(.inputInvalid, subject: path, message: "needs a decode helper to be read") }
        return frames
    }

    /// Whether `path` is read as a sequence's pattern: it has a `%` and names nothing itself. A
    /// file whose name holds a `%` (`a%%b.mp4`, `p%.png`) is that file, as it is to `make`.
    private static func isPattern(_ path: String) -> Bool {
        guard path.contains("%") else { return false }
        var info = stat()
        return FileSystem.lstat(path, &info) != 0 && errno == ENOENT
    }

    /// The file at `path`, read as `make` reads it: a WebP only up to its RIFF chunk's end, so
    /// the bytes after the picture (which FFmpeg's decoder would otherwise look at) never
    /// change what `probe` says of it.
    private static func pictureFile(_ path: String) throws(MediaError) -> InputFile {
        let file = try InputFile(path: path)
        file.pictureEnd = StillHeader(reading: file).webp?.end
        return file
    }

    /// Demuxes and decodes the first video stream, calling `body` once per frame.
    /// - Returns: false, having decoded nothing, when a stream needs a decoder that runs only
    ///   in a helper (librsvg, libjxl) and this process is not one (`inHelper`).
    private static func decode(_ source: Source, layout: PixelLayout?, inHelper: Bool,
                               body: (MediaInfo, PlanarImage?) -> Void) throws(MediaError) -> Bool {
        let path: String
        let demuxer: Demuxer
        do {
            switch source {
            case .file(let file):
                path = file.path
                demuxer = try Demuxer(file: file)
            case .pattern(let pattern):
                path = pattern
                demuxer = try Demuxer(pattern: pattern)
            }
        } catch {
            // Missing files, and the demuxer's own refusals (no FFmpeg code: a cmov header past
            // its limit), say why themselves.
            throw error.kind == .inputMissing || error.code == nil ? error : MediaError(.inputInvalid, subject: error.subject, message: "is not readable media")
        }
        let invalid = MediaError(.inputInvalid, subject: path, message: "is not readable media")
        // Looked at before the stream info is read, which decodes a picture of some formats.
        if !inHelper && demuxer.codecs.contains(where: StillRoute.needsHelperToProbe) {
            if case .pattern = source { throw invalid }
            return false
        }
        do {
            try demuxer.findStreamInfo()
        } catch {
            // Missing files, and the demuxer's own refusals (no FFmpeg code), say why themselves.
            throw error.kind == .inputMissing || error.code == nil ? error : invalid
        }
        guard let best = demuxer.bestVideoStream() else { throw invalid }
        let (index, stream) = (best.index, best.stream)
        var decoder = best.decoder
        // FFmpeg's own VP9 decoder ignores the alpha WebM keeps beside the picture; libvpx's reads it.
        if stream.pointee.codecpar.pointee.codec_id == AV_CODEC_ID_VP9,
           let alphaMode = av_dict_get(stream.pointee.metadata, "alpha_mode", nil, 0), String(cString: alphaMode.pointee.value) == "1",
           let withAlpha = avcodec_find_decoder_by_name("libvpx-vp9") {
            decoder = withAlpha
        }
        // An APNG's chunks before its first frame reach its decoder as extradata.
        if let problem = PNGPayloads.problem(inHeaderOf: stream, decoder: decoder) { throw MediaError(.inputInvalid, subject: path, message: problem) }
        let codec = try CodecContext(codec: decoder, subject: path)
        guard avcodec_parameters_to_context(codec.pointer, stream.pointee.codecpar) >= 0 else { throw invalid }
        do { try codec.open() } catch { throw invalid }
        let packet = try Packet(subject: path)
        let frame = try Frame(subject: path)

        let parameters = stream.pointee.codecpar.pointee
        func name(_ text: UnsafePointer<CChar>?) -> String { text.map { String(cString: $0) } ?? "unknown" }
        let rate = stream.pointee.avg_frame_rate
        let tag = withUnsafeBytes(of: parameters.codec_tag.littleEndian) { bytes in
            bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) ? String(decoding: bytes, as: UTF8.self) : ""
        }
        let format = demuxer.pointer.pointee
        var duration = 0.0
        if stream.pointee.duration > 0 && stream.pointee.duration != cffmpeg_nopts_value() {
            duration = Double(stream.pointee.duration) * av_q2d(stream.pointee.time_base)
        } else if format.duration > 0 && format.duration != cffmpeg_nopts_value() {
            duration = Double(format.duration) / Double(AV_TIME_BASE)
        }
        var facts = MediaInfo(
            containerName: demuxer.formatName,
            codecName: name(avcodec_get_name(parameters.codec_id)),
            profileName: avcodec_profile_name(parameters.codec_id, parameters.profile).map { String(cString: $0) },
            codecTag: tag,
            width: Int(parameters.width), height: Int(parameters.height),
            pixelFormat: pixelFormatName(AVPixelFormat(rawValue: parameters.format)),
            hasAlpha: false,
            colorPrimaries: name(av_color_primaries_name(parameters.color_primaries)),
            colorTransfer: name(av_color_transfer_name(parameters.color_trc)),
            colorSpace: name(av_color_space_name(parameters.color_space)),
            colorRange: name(av_color_range_name(parameters.color_range)),
            frameRate: rate.den == 0 ? 0 : Double(rate.num) / Double(rate.den),
            frameCount: 0,
            duration: duration)
        if rate.num > 0 && rate.den > 0 { facts.averageFrameRate = FrameRate(Int(rate.num), Int(rate.den)) }
        facts.audio = audioFacts(demuxer)
        var factsFromFrame = false
        // GIF decodes to BGRA whatever the file holds; its alpha is real only if a pixel uses it.
        let isGIF = parameters.codec_id == AV_CODEC_ID_GIF

        // RGB layouts are read as RGBA and de-interleaved in Swift: libswscale 5.1 turns
        // packed RGBA into GBRAP with alpha ≥ 128 one too high, and lossless checks must be exact.
        var scaler: Scaler?
        func emit() throws(MediaError) {
            if !factsFromFrame {
                // What the decoder delivers is what a user gets: it reveals VP9's alpha.
                facts.pixelFormat = pixelFormatName(frame.pixelFormat)
                facts.hasAlpha = !isGIF && frame.hasAlphaChannel
                factsFromFrame = true
            }
            if isGIF && !facts.hasAlpha && frame.hasTranslucentPixel { facts.hasAlpha = true }
            guard let layout else { body(facts, nil); return }
            let width = frame.width, height = frame.height
            if scaler == nil {
                let source = frame.scalerSource
                scaler = try Scaler(
                    from: (width, height, source.format, source.color),
                    to: (width, height, layout.isYUV ? layout.avPixelFormat : AV_PIX_FMT_RGBA, .of(layout)),
                    flags: SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT)
            }
            guard let scaler else { return }
            if layout.isYUV {
                let image = PlanarImage(width: width, height: height, layout: layout)
                try scaler.scale(frame.planes(), into: image.planePointers)
                body(facts, image)
            } else {
                var pixels = [UInt8](repeating: 255, count: width * height * 4)
                try pixels.withUnsafeMutableBufferPointer { (buffer) throws(MediaError) in
                    try scaler.scale(frame.planes(), into: PlanePointers(data: [buffer.baseAddress], strides: [Int32(width * 4)]))
                }
                body(facts, RGBAImage(width: width, height: height, pixels: pixels).planar(layout))
            }
        }

        var draining = false
        while true {
            switch codec.receiveFrame(frame) {
            case .ready:
                try emit()
                frame.unref()
                continue
            case .drained:
                return true
            case .failed:
                throw invalid
            case .needsInput:
                if draining { return true }
            }
            packet.unref()
            let read = demuxer.read(into: packet)
            if read == AVStatus.endOfFile {
                draining = true
                let flushed = codec.sendPacket(nil)
                guard flushed >= 0 || flushed == AVStatus.endOfFile else { throw invalid }
                continue
            }
            guard read >= 0 else { throw demuxer.frames.refusal ?? invalid }
            guard packet.streamIndex == index else { continue }
            if let problem = PNGPayloads.problem(in: packet, decoder: decoder) { throw MediaError(.inputInvalid, subject: path, message: problem) }
            let sent = codec.sendPacket(packet)
            guard sent >= 0 else {
                throw MediaError(.inputInvalid, subject: path, message: "is damaged: \(MediaError.text(for: sent))",
                                 code: sent, function: "avcodec_send_packet")
            }
        }
    }

    /// The first audio stream's codec, rate, channels and length as the container states it:
    /// the stream's duration, else Matroska's per-track DURATION tag.
    private static func audioFacts(_ demuxer: Demuxer) -> AudioStreamFacts? {
        let context = demuxer.pointer.pointee
        guard let stream = (0..<Int(context.nb_streams)).lazy.compactMap({ context.streams[$0] })
            .first(where: { $0.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_AUDIO }) else { return nil }
        let parameters = stream.pointee.codecpar.pointee
        var duration: Double?
        if stream.pointee.duration > 0 && stream.pointee.duration != cffmpeg_nopts_value() {
            duration = Double(stream.pointee.duration) * av_q2d(stream.pointee.time_base)
        } else if let tag = av_dict_get(stream.pointee.metadata, "DURATION", nil, 0) {
            // HH:MM:SS.nnnnnnnnn
            let parts = String(cString: tag.pointee.value).split(separator: ":")
            if parts.count == 3, let h = Double(parts[0]), let m = Double(parts[1]), let s = Double(parts[2]) {
                duration = h * 3600 + m * 60 + s
            }
        }
        return AudioStreamFacts(codec: avcodec_get_name(parameters.codec_id).map { String(cString: $0) } ?? "unknown",
                                sampleRate: Int(parameters.sample_rate), channels: Int(parameters.ch_layout.nb_channels), duration: duration)
    }
}
