// The music bed's stream in one output file: added beside the video before the header, and fed
// its already-encoded packets in step with the video's, so the file is interleaved by time.

import CFFmpeg

/// One output's audio stream and how far through the track it has written.
///
/// Not thread-safe: the writer that owns it calls it from its own queue.
final class AudioMux {
    private let track: AudioTrack
    private let muxer: Muxer
    private let stream: UnsafeMutablePointer<AVStream>
    private var next = 0
    /// Samples added to every timestamp (see `init`).
    private let shift: Int64

    /// Adds the audio stream to `muxer`, whose header is not written yet.
    /// - Throws: `MediaError(.output)` when out of memory.
    init(track: AudioTrack, muxer: Muxer, format: OutputFormat) throws(MediaError) {
        self.track = track
        self.muxer = muxer
        stream = try muxer.addStream()
        try check(avcodec_parameters_copy(stream.pointee.codecpar, track.parameters), "avcodec_parameters_copy", subject: muxer.subject)
        stream.pointee.time_base = AudioTrack.timeBase
        // libavformat before 60 writes Opus's negative first timestamp into Matroska as is, and
        // its negative-timestamp fix then delays every track, the video too, by the pre-skip
        // (7 ms). Starting the Opus blocks at the pre-skip instead keeps frame 0 at time 0.
        let matroska = format == .webm || format == .mkv
        shift = matroska && track.codec == .opus && avformat_version() < UInt32(60 << 16) ? Int64(track.initialPadding) : 0
    }

    /// Writes the packets due no later than `dts` in `timeBase` (a video packet's), or all the
    /// rest when `dts` is nil.
    /// - Throws: `MediaError(.output)` when writing fails.
    func write(upTo dts: Int64?, in timeBase: AVRational) throws(MediaError) {
        // Waits, the first time, for the bed's job: it runs while the first frames render and
        // encode (x264 holds its first packet back for its look-ahead).
        let packets = try track.packets()
        while next < packets.count {
            let source = packets[next].pointer
            if let dts, av_compare_ts(source.pointee.dts + shift, AudioTrack.timeBase, dts, timeBase) > 0 { return }
            let packet = try Packet(subject: muxer.subject)
            try check(av_packet_ref(packet.pointer, source), "av_packet_ref", subject: muxer.subject)
            packet.pointer.pointee.pts += shift
            packet.pointer.pointee.dts += shift
            av_packet_rescale_ts(packet.pointer, AudioTrack.timeBase, stream.pointee.time_base)
            packet.streamIndex = stream.pointee.index
            try muxer.write(packet)
            next += 1
        }
    }
}
