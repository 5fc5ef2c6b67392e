// An audio file opened for the music bed: its first audio stream (or the one asked for), decoded
// strictly. Any decoder error, a corrupt frame, a jump in the timestamps (a lost packet), a
// damaged or missing Ogg page (OggPages), or a file that ends well before the length it declares
// (a truncated MP3) refuses the file: FFmpeg's own tools play such files, and a bed must never be
// rendered from them.

import CFFmpeg

/// One audio stream of a file, ready to decode.
///
/// Not thread-safe: the bed is built on one thread, before rendering.
package final class AudioSource {
    /// The file, as given.
    package let path: String
    /// The container stream index decoded.
    package let streamIndex: Int
    /// The codec's short name (`mp3`, `aac`, `flac`, …).
    package let codecName: String
    package let sampleRate: Int
    package let channels: Int
    /// Seconds the container says the stream lasts; nil when it does not say.
    package let declaredDuration: Double?
    private let demuxer: Demuxer
    private let decoder: CodecContext
    private let stream: UnsafeMutablePointer<AVStream>
    /// Whether the declared length is measured (not guessed from the bitrate), so an early end is damage.
    private let durationIsKnown: Bool

    /// Every error-detection feature the decoders and demuxers have: CRCs, bitstream checks, and
    /// failing on the first error rather than concealing it.
    private static let strict = AV_EF_CRCCHECK | AV_EF_BITSTREAM | AV_EF_BUFFER | AV_EF_EXPLODE

    /// Opens `path` and its stream.
    /// - Parameter stream: a container stream index, or nil for the first audio stream.
    /// - Throws: `MediaError`: `.inputMissing` (66) when the file cannot be opened, `.inputInvalid`
    ///   (65) when it is not audio FFmpeg reads or has no such audio stream, `.unavailable` (69)
    ///   when this libavcodec has no decoder for it.
    package init(path: String, stream wanted: Int? = nil) throws(MediaError) {
        self.path = path
        let file = try InputFile(path: path)
        // FFmpeg skips a damaged Ogg page with only a log line, and cannot tell a lost one.
        if OggPages.isOgg(file.bytes(at: 0, count: 4)), let problem = OggPages.problem(in: file) {
            throw MediaError(.inputInvalid, subject: path, message: problem)
        }
        do {
            demuxer = try Demuxer(file: file)
        } catch {
            // No FFmpeg code: the demuxer's own refusal, worded already.
            if error.code == nil { throw error }
            throw MediaError(.inputInvalid, subject: path, message: "not an audio file FFmpeg reads (\(error.message))")
        }
        demuxer.pointer.pointee.error_recognition = Self.strict
        do {
            try demuxer.findStreamInfo()
        } catch {
            throw MediaError(.inputInvalid, subject: path, message: "not an audio file FFmpeg reads (\(MediaError.text(for: error.code ?? 0)))")
        }
        let context = demuxer.pointer.pointee
        let count = Int(context.nb_streams)
        let audio = (0..<count).filter { context.streams[$0]?.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_AUDIO }
        // The lowest-numbered audio stream, not av_find_best_stream's pick: "first" is what we document.
        guard let index = wanted ?? audio.first else {
            throw MediaError(.inputInvalid, subject: path, message: "has no audio stream")
        }
        guard audio.contains(index), let stream = context.streams[index] else {
            let list = audio.isEmpty ? "it has none" : "its audio streams: " + audio.map(String.init).joined(separator: ", ")
            throw MediaError(.inputInvalid, subject: path, message: "stream \(index) is not an audio stream (\(list))")
        }
        streamIndex = index
        self.stream = stream
        // The other streams (a video's pictures, cover art) are never read.
        for other in 0..<count where other != index { context.streams[other]?.pointee.discard = AVDISCARD_ALL }
        let parameters = stream.pointee.codecpar!
        // No codec at all: the container's parameters name no format FFmpeg has (a WAV declaring
        // 65535 bits a sample). Bad data, not a missing decoder: nothing to install would read it.
        guard parameters.pointee.codec_id != AV_CODEC_ID_NONE else {
            let tag = String(parameters.pointee.codec_tag, radix: 16)
            throw MediaError(.inputInvalid, subject: path,
                             message: "its audio is in no format FFmpeg knows (codec tag 0x\(tag), \(parameters.pointee.bits_per_coded_sample) bits a sample); slicevid reads audio FFmpeg decodes, such as MP3, AAC/M4A, WAV, FLAC, Ogg/Opus")
        }
        guard let codec = avcodec_find_decoder(parameters.pointee.codec_id) else {
            let name = avcodec_get_name(parameters.pointee.codec_id).map { String(cString: $0) } ?? "unknown"
            throw MediaError(.unavailable, subject: path, message: "this libavcodec has no decoder for its \(name) audio")
        }
        // A WAV's blocks hold one sample of every channel: a header whose block size disagrees
        // with its bits per sample (16-bit blocks said to hold 1-bit samples) is read as noise.
        let id = parameters.pointee.codec_id, width = Int(av_get_bits_per_sample(id))
        let isPCM = (AV_CODEC_ID_PCM_S16LE.rawValue..<AV_CODEC_ID_ADPCM_IMA_QT.rawValue).contains(id.rawValue)
        let blocks = Int(parameters.pointee.block_align), declaredChannels = Int(parameters.pointee.ch_layout.nb_channels)
        if demuxer.formatName == "wav", isPCM, width > 0, blocks > 0, declaredChannels > 0, blocks != declaredChannels * width / 8 {
            throw MediaError(.inputInvalid, subject: path,
                             message: "its header does not add up: \(blocks)-byte blocks for \(declaredChannels) channels of \(parameters.pointee.bits_per_coded_sample)-bit samples")
        }
        // The codec's name (`mp3`), not the decoder's (`mp3float`): the words probe uses.
        codecName = avcodec_get_name(parameters.pointee.codec_id).map { String(cString: $0) } ?? String(cString: codec.pointee.name)
        decoder = try CodecContext(codec: codec, subject: path)
        try check(avcodec_parameters_to_context(decoder.pointer, parameters), "avcodec_parameters_to_context",
                  kind: .inputInvalid, subject: path)
        decoder.pointer.pointee.pkt_timebase = stream.pointee.time_base
        decoder.pointer.pointee.thread_count = 1
        decoder.pointer.pointee.err_recognition = Self.strict
        do {
            try decoder.open()
        } catch {
            throw MediaError(.inputInvalid, subject: path, message: "its \(codecName) audio cannot be decoded (\(MediaError.text(for: error.code ?? 0)))")
        }
        sampleRate = Int(decoder.pointer.pointee.sample_rate)
        channels = Int(decoder.pointer.pointee.ch_layout.nb_channels)
        guard (1_000...768_000).contains(sampleRate), (1...64).contains(channels) else {
            throw MediaError(.inputInvalid, subject: path, message: "\(sampleRate) Hz with \(channels) channels is not audio slicevid takes (1–768 kHz, 1–64 channels)")
        }
        let base = stream.pointee.time_base
        if stream.pointee.duration > 0, base.num > 0, base.den > 0 {
            declaredDuration = Double(stream.pointee.duration) * Double(base.num) / Double(base.den)
        } else if context.duration > 0 {
            declaredDuration = Double(context.duration) / Double(AV_TIME_BASE)
        } else {
            declaredDuration = nil
        }
        durationIsKnown = declaredDuration != nil && context.duration_estimation_method != AVFMT_DURATION_FROM_BITRATE
    }

    /// Decodes from `startSample` (at the file's rate) on, handing each frame to `body` with its
    /// `pts` set to the index of its first sample in the song, until the file ends or `body`
    /// says it has enough.
    ///
    /// Packets that end more than a second before the start are dropped before the decoder
    /// (the second lets decoders with a memory settle), so a start deep into a long song costs
    /// little. Frames before the start are still handed over: trimming is the caller's.
    /// - Parameter isCancelled: polled before each packet is read; once it says yes decoding stops.
    /// - Throws: `MediaError(.inputInvalid)` naming the file and the time of the damage;
    ///   `MediaError.stopped` when cancelled.
    func decode(from startSample: Int64, isCancelled: () -> Bool = { false },
                _ body: (Frame) throws(MediaError) -> Bool) throws(MediaError) {
        let base = stream.pointee.time_base
        let rate = AVRational(num: 1, den: Int32(sampleRate))
        let origin = stream.pointee.start_time == cffmpeg_nopts_value() ? 0 : stream.pointee.start_time
        let skipUntil = origin + av_rescale_q(max(0, startSample - Int64(sampleRate)), rate, base)
        let packet = try Packet(subject: path)
        let frame = try Frame(subject: path)
        var expected: Int64?
        var draining = false
        func damaged(_ what: String, at sample: Int64?) -> MediaError {
            let time = sample.map { " at \((Double($0) / Double(sampleRate)).secondsText) s" } ?? ""
            return MediaError(.inputInvalid, subject: path, message: "damaged audio\(time): \(what)")
        }
        while true {
            switch decoder.receiveFrame(frame) {
            case .ready:
                let f = frame.pointer.pointee
                if f.flags & AV_FRAME_FLAG_CORRUPT != 0 || f.decode_error_flags != 0 {
                    throw damaged("the decoder marked a frame corrupt", at: expected)
                }
                guard Int(f.sample_rate) == sampleRate, Int(f.ch_layout.nb_channels) == channels else {
                    throw damaged("the rate or channel count changes mid-stream", at: expected)
                }
                let stamp = f.best_effort_timestamp == cffmpeg_nopts_value() ? nil
                    : av_rescale_q(f.best_effort_timestamp - origin, base, rate)
                let position = expected ?? stamp ?? 0
                // A lost page or packet shows as a jump; a few samples of rounding do not.
                if let expected, let stamp, abs(stamp - expected) > max(Int64(f.nb_samples), Int64(sampleRate / 50)) {
                    throw damaged("\(stamp - expected) samples are missing (a lost page or packet)", at: expected)
                }
                frame.pointer.pointee.pts = position
                // FFmpeg's own WAVs say only "2 channels"; filters want a named layout. A custom
                // order with speakers FFmpeg cannot name cannot be told to a graph: its channels
                // count as unplaced, like an unlabelled WAV's.
                if f.ch_layout.order == AV_CHANNEL_ORDER_UNSPEC || !AudioGraph.Input.isNameable(&frame.pointer.pointee.ch_layout) {
                    av_channel_layout_uninit(&frame.pointer.pointee.ch_layout)
                    av_channel_layout_default(&frame.pointer.pointee.ch_layout, Int32(channels))
                }
                expected = position + Int64(f.nb_samples)
                let more = try body(frame)
                frame.unref()
                if !more { return }
            case .needsInput:
                guard !draining else { throw damaged("the decoder stalled", at: expected) }
                if isCancelled() { throw MediaError.stopped(subject: path) }
                let read = demuxer.read(into: packet)
                if read == AVStatus.endOfFile {
                    draining = true
                    _ = decoder.sendPacket(nil)
                    continue
                }
                if read < 0 { throw damaged(MediaError.text(for: read), at: expected) }
                defer { packet.unref() }
                let p = packet.pointer.pointee
                guard p.stream_index == Int32(streamIndex) else { continue }
                if p.flags & AV_PKT_FLAG_CORRUPT != 0 { throw damaged("a packet is marked corrupt", at: expected) }
                if p.pts != cffmpeg_nopts_value(), p.pts + max(0, p.duration) < skipUntil { continue }
                let sent = decoder.sendPacket(packet)
                if sent < 0 && sent != AVStatus.again { throw damaged(MediaError.text(for: sent), at: expected) }
            case .drained:
                if durationIsKnown, let declared = declaredDuration, let end = expected,
                   declared - Double(end) / Double(sampleRate) > 0.5 {
                    throw damaged("it ends at \((Double(end) / Double(sampleRate)).secondsText) s but declares \(declared.secondsText) s (truncated?)", at: nil)
                }
                return
            case .failed(let code):
                throw damaged(MediaError.text(for: code), at: expected)
            }
        }
    }

    /// Every frame of the stream, decoded strictly (for measuring a whole file).
    /// - Throws: `MediaError(.inputInvalid)` as `decode` does.
    func decodeAll() throws(MediaError) -> [Frame] {
        var frames: [Frame] = []
        try decode(from: 0) { frame throws(MediaError) in
            let copy = try Frame(subject: path)
            try check(av_frame_ref(copy.pointer, frame.pointer), "av_frame_ref", subject: path)
            frames.append(copy)
            return true
        }
        return frames
    }
}
