// The music bed encoded once per codec, before rendering: the codec's parameters and every
// packet, which each output carrying that codec then interleaves with its video. A clip's
// encoded audio is small (24 KB per second at 192 kb/s), and encoding up front is what lets a
// damaged song be refused before anything is rendered.

import CFFmpeg
import SliceKit

/// Encoded audio, ready to mux.
///
/// `@unchecked Sendable`: nothing changes after `init`; outputs on other threads only read the
/// parameters and take new references to the packets (`av_packet_ref`, whose buffer counts are
/// atomic), never modifying them.
public final class AudioTrack: @unchecked Sendable {
    public let codec: AudioCodec
    /// Samples the track plays (the clip's length at 48 kHz).
    public let sampleCount: Int
    /// What the bed measured after levelling, when a level was asked for.
    public let loudness: Loudness?
    let parameters: UnsafeMutablePointer<AVCodecParameters>
    /// Packets in decoding order, timestamps in 1/48000 s.
    let packets: [Packet]
    /// Samples the decoder drops first (the encoder's priming: AAC 1024, Opus 312).
    let initialPadding: Int
    /// The longest clip (in seconds) a bed is made for: the bed's samples are held in memory
    /// (23 MB a minute, up to three copies while its level is set), so ten minutes stays under 700 MB.
    public static let longestClip = 600.0
    /// The packets' time base.
    static let timeBase = AVRational(num: 1, den: Int32(AudioBed.sampleRate))

    /// Decodes, fits, levels and encodes the bed for each of `codecs`.
    /// - Parameters:
    ///   - settings: the bed (with its file).
    ///   - frames, rate: the clip's rendered frames and their rate, which set its length.
    /// - Returns: one track per codec asked for.
    /// - Throws: `MediaError` (`.inputMissing`, `.inputInvalid` naming the file; `.unavailable`
    ///   when an encoder is missing).
    public static func make(_ settings: AudioSettings, frames: Int, rate: FrameRate,
                            codecs: [AudioCodec]) throws(MediaError) -> [AudioCodec: AudioTrack] {
        guard let file = settings.file, !codecs.isEmpty else { return [:] }
        let source = try AudioSource(path: file, stream: settings.stream)
        let bed = try AudioBed.build(from: source, settings: settings, sampleCount: AudioBed.length(frames: frames, rate: rate))
        var tracks: [AudioCodec: AudioTrack] = [:]
        for codec in codecs where tracks[codec] == nil { tracks[codec] = try AudioTrack(bed: bed, codec: codec, subject: file) }
        return tracks
    }

    init(bed: AudioBed, codec: AudioCodec, subject: String) throws(MediaError) {
        self.codec = codec
        sampleCount = bed.sampleCount
        loudness = bed.loudness
        guard let encoder = avcodec_find_encoder_by_name(codec.encoder) else {
            throw MediaError(.unavailable, subject: codec.encoder, message: "this libavcodec has no such encoder (install a build with it)")
        }
        let context = try CodecContext(codec: encoder, subject: subject)
        let settings = context.pointer
        settings.pointee.sample_rate = Int32(AudioBed.sampleRate)
        av_channel_layout_default(&settings.pointee.ch_layout, 2)
        settings.pointee.sample_fmt = switch codec {
        case .aac: AV_SAMPLE_FMT_FLTP
        case .opus: AV_SAMPLE_FMT_FLT
        case .flac: AV_SAMPLE_FMT_S32
        }
        if codec == .flac { settings.pointee.bits_per_raw_sample = 24 }
        settings.pointee.time_base = Self.timeBase
        settings.pointee.bit_rate = Int64(codec.bitrate ?? 0)
        settings.pointee.thread_count = 1
        // Every container slicevid puts audio in wants the codec's setup in the header.
        settings.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER | AV_CODEC_FLAG_BITEXACT
        var options: OpaquePointer?
        defer { av_dict_free(&options) }
        for (key, value) in codec.options { av_dict_set(&options, key, value, 0) }
        try context.open(options: &options, subject: "\(subject) (\(codec.encoder))")
        guard av_dict_count(options) == 0 else {
            throw MediaError(.output, subject: codec.encoder, message: "did not take the options it was given")
        }
        initialPadding = Int(settings.pointee.initial_padding)
        packets = try Self.encode(bed.frames, with: context)
        guard let parameters = avcodec_parameters_alloc() else { throw MediaError.outOfMemory(subject: subject) }
        self.parameters = parameters
        try check(avcodec_parameters_from_context(parameters, settings), "avcodec_parameters_from_context", subject: subject)
    }

    /// Every packet of `frames` through the opened encoder `context`, which takes fixed-size
    /// frames (AAC 1024, Opus 960, FLAC 4608) in its own sample format: a graph cuts them.
    private static func encode(_ frames: [Frame], with context: CodecContext) throws(MediaError) -> [Packet] {
        let settings = context.pointer
        let subject = context.subject
        let frameSize = settings.pointee.frame_size > 0 ? Int(settings.pointee.frame_size) : nil
        let name = av_get_sample_fmt_name(settings.pointee.sample_fmt).map { String(cString: $0) } ?? "fltp"
        let framing = try AudioGraph(description: "aformat=sample_fmts=\(name)", input: AudioGraph.Input(sampleRate: AudioBed.sampleRate, channels: 2),
                                     frameSize: frameSize, subject: subject)
        var packets: [Packet] = []
        var position: Int64 = 0
        func collect() throws(MediaError) {
            while true {
                let packet = try Packet(subject: subject)
                guard try context.receivePacket(packet) == .ready else { return }
                packets.append(packet)
            }
        }
        try framing.run(frames, keep: false) { frame throws(MediaError) in
            frame.pointer.pointee.pts = position
            position += Int64(frame.pointer.pointee.nb_samples)
            try context.sendFrame(frame)
            try collect()
        }
        try context.sendFrame(nil)
        try collect()
        return packets
    }

    deinit {
        var parameters: UnsafeMutablePointer<AVCodecParameters>? = parameters
        avcodec_parameters_free(&parameters)
    }
}
