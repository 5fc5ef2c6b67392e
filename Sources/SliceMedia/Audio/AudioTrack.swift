// The music bed encoded once per codec, before rendering: the codec's parameters and every
// packet, which each output carrying that codec then interleaves with its video. A clip's
// encoded audio is small (24 KB per second at 192 kb/s), and encoding up front is what lets a
// damaged song be refused before anything is rendered.

import CFFmpeg
import Dispatch
import SliceKit

/// Encoded audio, ready to mux: its parameters at once, its packets once `AudioBedJob.run` has
/// made them.
///
/// `@unchecked Sendable`: the parameters never change after `init`; the packets (or the error)
/// are written once, by the job, before it leaves `done`, and read only after waiting on `done`;
/// outputs on other threads only take new references to them (`av_packet_ref`, whose buffer
/// counts are atomic), never modifying them.
package final class AudioTrack: @unchecked Sendable {
    package let codec: AudioCodec
    /// Samples the track plays (the clip's length at 48 kHz).
    package let sampleCount: Int
    let parameters: UnsafeMutablePointer<AVCodecParameters>
    /// Samples the decoder drops first (the encoder's priming: AAC 1024, Opus 312).
    let initialPadding: Int
    /// The opened encoder, until the job has used it.
    private var encoder: CodecContext?
    private var result: Result<[Packet], MediaError>?
    /// What the levelled bed measured (written by the job before `done` is left).
    private var measured: Loudness?
    private let done = DispatchGroup()
    /// The longest clip (in seconds) a bed is made for: the bed's samples are held in memory
    /// (23 MB a minute, up to three copies while its level is set), so ten minutes stays under 700 MB.
    package static let longestClip = 600.0
    /// The packets' time base.
    static let timeBase = AVRational(num: 1, den: Int32(AudioBed.sampleRate))

    /// Decodes and fits the bed for each of `codecs` and opens their encoders: everything that
    /// can refuse the song happens here, before rendering. Levelling and encoding, the costly
    /// part, is the returned job's, which a caller runs on a thread of its own while the clip
    /// renders; the tracks' packets wait for it.
    /// - Parameters:
    ///   - settings: the bed (with its file).
    ///   - frames, rate: the clip's rendered frames and their rate, which set its length.
    ///   - isCancelled: polled between every frame decoded, filtered, measured and encoded, here
    ///     and in the job, so a signal stops a ten-minute bed within a frame; a stopped job
    ///     leaves the tracks failed with `MediaError.stopped`.
    /// - Returns: one track per codec asked for, and the job that fills them.
    /// - Throws: `MediaError` (`.inputMissing`, `.inputInvalid` naming the file; `.unavailable`
    ///   when an encoder is missing; `MediaError.stopped` once `isCancelled` says yes).
    package static func prepare(_ settings: AudioSettings, frames: Int, rate: FrameRate, codecs: [AudioCodec],
                               isCancelled: @escaping @Sendable () -> Bool = { false })
        throws(MediaError) -> (tracks: [AudioCodec: AudioTrack], job: AudioBedJob) {
        guard let file = settings.file, !codecs.isEmpty else { return ([:], AudioBedJob { _ in }) }
        let source = try AudioSource(path: file, stream: settings.stream)
        let bed = try AudioBed.build(from: source, settings: settings, sampleCount: AudioBed.length(frames: frames, rate: rate),
                                     isCancelled: isCancelled)
        var tracks: [AudioCodec: AudioTrack] = [:]
        for codec in codecs where tracks[codec] == nil { tracks[codec] = try AudioTrack(codec: codec, sampleCount: bed.sampleCount, subject: file) }
        let filling = Array(tracks.values)
        let job = AudioBedJob { ready in
            let levelled = Result { () throws(MediaError) in try bed.levelled(settings, subject: file, isCancelled: isCancelled) }
            for track in filling { track.measured = try? levelled.get().loudness }
            let encoded = filling.map { track in
                levelled.flatMap { bed in Result { () throws(MediaError) in try track.encode(bed, isCancelled: isCancelled) } }
            }
            // Told before the outputs waiting for the packets go on: a run that then ends has said so.
            if case .success(let bed) = levelled, !encoded.contains(where: { if case .failure = $0 { true } else { false } }) {
                ready(bed.loudness)
            }
            for (track, packets) in zip(filling, encoded) { track.fill(packets) }
        }
        return (tracks, job)
    }

    /// `prepare` and its job at once, on this thread (tests, one-off files).
    package static func make(_ settings: AudioSettings, frames: Int, rate: FrameRate, codecs: [AudioCodec],
                            isCancelled: @escaping @Sendable () -> Bool = { false }) throws(MediaError) -> [AudioCodec: AudioTrack] {
        let (tracks, job) = try prepare(settings, frames: frames, rate: rate, codecs: codecs, isCancelled: isCancelled)
        job.run()
        return tracks
    }

    /// Opens the encoder for `codec`.
    private init(codec: AudioCodec, sampleCount: Int, subject: String) throws(MediaError) {
        self.codec = codec
        self.sampleCount = sampleCount
        guard let found = avcodec_find_encoder_by_name(codec.encoder) else {
            throw MediaError(.unavailable, subject: codec.encoder, message: "this libavcodec has no such encoder (install a build with it)")
        }
        let context = try CodecContext(codec: found, subject: subject)
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
        guard let parameters = avcodec_parameters_alloc() else { throw MediaError.outOfMemory(subject: subject) }
        self.parameters = parameters
        encoder = context
        done.enter()
        try check(avcodec_parameters_from_context(parameters, settings), "avcodec_parameters_from_context", subject: subject)
    }

    deinit {
        var parameters: UnsafeMutablePointer<AVCodecParameters>? = parameters
        avcodec_parameters_free(&parameters)
    }

    /// The packets in decoding order, timestamps in 1/48000 s, once the job has made them.
    /// - Throws: the job's `MediaError`, if it failed.
    func packets() throws(MediaError) -> [Packet] {
        done.wait()
        return try result!.get()
    }

    /// The integrated loudness and true peak of the bed as encoded, once the job has made it;
    /// nil when no level was asked for (the bed is then not measured).
    package func loudness() -> Loudness? {
        done.wait()
        return measured
    }

    private func fill(_ outcome: Result<[Packet], MediaError>) {
        result = outcome
        encoder = nil
        done.leave()
    }

    private func encode(_ bed: AudioBed, isCancelled: @escaping () -> Bool) throws(MediaError) -> [Packet] {
        guard let encoder else { throw MediaError(.output, subject: codec.encoder, message: "encoded twice") }
        return try Self.encode(bed.frames, with: encoder, isCancelled: isCancelled)
    }

    /// Every packet of `frames` through the opened encoder `context`, which takes fixed-size
    /// frames (AAC 1024, Opus 960, FLAC 4608) in its own sample format: a graph cuts them.
    private static func encode(_ frames: [Frame], with context: CodecContext, isCancelled: @escaping () -> Bool) throws(MediaError) -> [Packet] {
        let settings = context.pointer
        let subject = context.subject
        let frameSize = settings.pointee.frame_size > 0 ? Int(settings.pointee.frame_size) : nil
        let name = av_get_sample_fmt_name(settings.pointee.sample_fmt).map { String(cString: $0) } ?? "fltp"
        let framing = try AudioGraph(description: "aformat=sample_fmts=\(name)", input: AudioGraph.Input(sampleRate: AudioBed.sampleRate, channels: 2),
                                     frameSize: frameSize, subject: subject, isCancelled: isCancelled)
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
}

/// The costly half of a bed, levelling and encoding, to run once on a thread the caller chooses.
///
/// `@unchecked Sendable`: it only holds its work, which touches the bed and the tracks it was
/// made for and nothing else, and is run once.
package final class AudioBedJob: @unchecked Sendable {
    private let work: (_ ready: (Loudness?) -> Void) -> Void

    init(_ work: @escaping (_ ready: (Loudness?) -> Void) -> Void) { self.work = work }

    /// Levels and encodes; the tracks' packets (or the error: a failed graph, or
    /// `MediaError.stopped`) are ready when this returns.
    /// - Parameter ready: called once the bed is made, before any track hands out its packets,
    ///   with what the levelled bed measures (nil when no level was asked for); never when the
    ///   bed failed or was stopped.
    package func run(whenReady ready: (Loudness?) -> Void = { _ in }) { work(ready) }
}
