// Audio for the music-bed tests, made with libavcodec: any signal (sines, clicks at known times,
// music-like bursts) written as WAV, FLAC, MP3, M4A, Ogg/Vorbis or Ogg/Opus; and the other way,
// any written file decoded back to 48 kHz-or-whatever planar floats to check.

import CFFmpeg
import Foundation
import SliceKit
@testable import SliceMedia

enum AudioFixture {
    /// The encoder each test extension is written with.
    static func encoder(for path: String) -> String {
        switch URL(fileURLWithPath: path).pathExtension {
        case "flac": "flac"
        case "mp3": "libmp3lame"
        case "m4a": "aac"
        case "ogg": "libvorbis"
        case "opus": "libopus"
        default: "pcm_s16le"
        }
    }

    /// Writes `seconds` of audio made by `signal(sampleIndex, channel)`.
    static func write(_ path: String, rate: Int = 44_100, channels: Int = 2, seconds: Double,
                      signal: (Int, Int) -> Float) throws {
        var context: UnsafeMutablePointer<AVFormatContext>?
        try check(avformat_alloc_output_context2(&context, nil, nil, path), "avformat_alloc_output_context2", subject: path)
        let muxer = context!
        muxer.pointee.flags |= AVFMT_FLAG_BITEXACT
        defer {
            if muxer.pointee.pb != nil { avio_closep(&muxer.pointee.pb) }
            avformat_free_context(muxer)
        }
        let codec = avcodec_find_encoder_by_name(encoder(for: path))!
        let coder = try CodecContext(codec: codec, subject: path)
        let c = coder.pointer
        c.pointee.sample_rate = Int32(rate)
        av_channel_layout_default(&c.pointee.ch_layout, Int32(channels))
        c.pointee.sample_fmt = codec.pointee.sample_fmts[0]
        c.pointee.time_base = AVRational(num: 1, den: Int32(rate))
        if codec.pointee.capabilities & AV_CODEC_CAP_VARIABLE_FRAME_SIZE == 0, encoder(for: path) != "pcm_s16le" {
            c.pointee.bit_rate = 192_000
        }
        if muxer.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 { c.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }
        c.pointee.flags |= AV_CODEC_FLAG_BITEXACT
        try coder.open()
        let stream = avformat_new_stream(muxer, nil)!
        try check(avcodec_parameters_from_context(stream.pointee.codecpar, c), "parameters", subject: path)
        stream.pointee.time_base = c.pointee.time_base
        try check(avio_open(&muxer.pointee.pb, path, AVIO_FLAG_WRITE), "avio_open", subject: path)
        try check(avformat_write_header(muxer, nil), "avformat_write_header", subject: path)

        let total = Int((seconds * Double(rate)).rounded())
        let size = c.pointee.frame_size > 0 ? Int(c.pointee.frame_size) : 1024
        let name = String(cString: av_get_sample_fmt_name(c.pointee.sample_fmt))
        let graph = try AudioGraph(description: "aformat=sample_fmts=\(name)", input: .init(sampleRate: rate, channels: channels),
                                   frameSize: size, subject: path)
        var frames: [Frame] = []
        var start = 0
        while start < total {
            let count = min(size, total - start)
            frames.append(try planar(rate: rate, channels: channels, count: count, pts: start) { signal(start + $0, $1) })
            start += count
        }
        let packet = try Packet(subject: path)
        func drain() throws {
            while try coder.receivePacket(packet) == .ready {
                av_packet_rescale_ts(packet.pointer, c.pointee.time_base, stream.pointee.time_base)
                packet.streamIndex = stream.pointee.index
                try check(av_interleaved_write_frame(muxer, packet.pointer), "write", subject: path)
            }
        }
        var position: Int64 = 0
        _ = try graph.run(frames) { frame throws(MediaError) in
            frame.pointer.pointee.pts = position
            position += Int64(frame.pointer.pointee.nb_samples)
            try coder.sendFrame(frame)
            do { try drain() } catch { throw error as! MediaError }
        }
        try coder.sendFrame(nil)
        try drain()
        try check(av_write_trailer(muxer), "av_write_trailer", subject: path)
    }

    /// A planar-float frame of `count` samples.
    static func planar(rate: Int, channels: Int, count: Int, pts: Int, sample: (Int, Int) -> Float) throws -> Frame {
        let frame = try Frame(subject: "fixture")
        let f = frame.pointer
        f.pointee.format = AV_SAMPLE_FMT_FLTP.rawValue
        f.pointee.sample_rate = Int32(rate)
        f.pointee.nb_samples = Int32(count)
        f.pointee.pts = Int64(pts)
        av_channel_layout_default(&f.pointee.ch_layout, Int32(channels))
        try frame.allocateBuffer(subject: "fixture")
        for channel in 0..<channels {
            let plane = UnsafeMutableRawPointer(f.pointee.extended_data[channel]!).assumingMemoryBound(to: Float.self)
            for i in 0..<count { plane[i] = sample(i, channel) }
        }
        return frame
    }

    /// A written file's audio, decoded strictly and converted to planar floats.
    struct Decoded {
        var codec: String
        var rate: Int
        var channels: Int
        /// Samples per channel.
        var samples: [[Float]]
        var count: Int { samples.first?.count ?? 0 }
    }

    static func decode(_ path: String, stream: Int? = nil) throws -> Decoded {
        let source = try AudioSource(path: path, stream: stream)
        let frames = try source.decodeAll()
        var samples = [[Float]](repeating: [], count: source.channels)
        if let first = frames.first {
            let graph = try AudioGraph(description: "aformat=sample_fmts=fltp", input: .init(of: first), subject: path)
            _ = try graph.run(frames) { frame in
                let f = frame.pointer
                for channel in 0..<source.channels {
                    let plane = UnsafeRawPointer(f.pointee.extended_data[channel]!).assumingMemoryBound(to: Float.self)
                    samples[channel] += UnsafeBufferPointer(start: plane, count: Int(f.pointee.nb_samples))
                }
            }
        }
        return Decoded(codec: source.codecName, rate: source.sampleRate, channels: source.channels, samples: samples)
    }

    /// Indices where `samples` jumps above `threshold`, at least `gap` apart: where the clicks are.
    static func clicks(in samples: [Float], threshold: Float = 0.2, gap: Int = 2_000) -> [Int] {
        var found: [Int] = []
        var i = 0
        while i < samples.count {
            if abs(samples[i]) > threshold {
                // The click's own sample is the largest near the crossing.
                let window = i..<min(samples.count, i + 8)
                found.append(window.max { abs(samples[$0]) < abs(samples[$1]) }!)
                i += gap
            } else {
                i += 1
            }
        }
        return found
    }
}
