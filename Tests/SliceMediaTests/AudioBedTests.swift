// The music bed, written into real files and decoded back: codec per container, 48 kHz stereo,
// length to the sample, clicks at --audio-start landing on frame 0, the fade-out's curve, loops,
// loudness and true peak by ebur128, byte-identical re-runs, and an interleaved, moov-first MP4.

import CFFmpeg
import Foundation
import SliceKit
@testable import SliceMedia
import Synchronization
import Testing

/// Writes clips with a bed, as the pipeline's sinks do: the track encoded first, then the video.
enum BedClip {
    static let rate = FrameRate(30)
    /// 61 frames at 30 fps: 97 600 samples at 48 kHz.
    static let frames = 61
    static let samples = 97_600

    @discardableResult
    static func write(_ path: String, settings: AudioSettings, own: EncoderSettings = EncoderSettings(),
                      frames: Int = frames) throws -> EncodingPlan {
        let clip = Clip(width: 64, height: 36, frameRate: rate, frameCount: frames)
        let format = try #require(OutputFormat(path: path))
        let plan = try EncodingPlan.resolve(path: path, format: format, own: own, clip: clip)
            .carryingAudio(own: own, runWide: EncoderSettings())
        let tracks = try AudioTrack.make(settings, frames: frames, rate: rate, codecs: plan.audio.map { [$0] } ?? [])
        let writer = try VideoWriter(plan: plan, path: path, inputLayout: .yuv420p, audio: plan.audio.flatMap { tracks[$0] })
        let picture = RGBAImage(width: 64, height: 36, color: RGBAColor(red: 90, green: 120, blue: 200)).planar(.yuv420p)
        for index in 0..<frames { try writer.write(picture, index: index) }
        try writer.finish()
        return plan
    }

    /// The audio stream's facts as the container states them.
    static func stream(_ path: String) throws -> (codec: String, profile: Int32, rate: Int32, channels: Int32, duration: Int64, timeBase: AVRational, start: Double, initialPadding: Int32) {
        var context: UnsafeMutablePointer<AVFormatContext>?
        try #require(avformat_open_input(&context, path, nil, nil) >= 0)
        defer { avformat_close_input(&context) }
        try #require(avformat_find_stream_info(context, nil) >= 0)
        let index = av_find_best_stream(context, AVMEDIA_TYPE_AUDIO, -1, -1, nil, 0)
        try #require(index >= 0)
        let stream = context!.pointee.streams[Int(index)]!.pointee
        let p = stream.codecpar.pointee
        let start = stream.start_time == cffmpeg_nopts_value() ? 0 : Double(stream.start_time) * Double(stream.time_base.num) / Double(stream.time_base.den)
        return (String(cString: avcodec_get_name(p.codec_id)), p.profile, p.sample_rate, p.ch_layout.nb_channels, stream.duration,
                stream.time_base, start, p.initial_padding)
    }

    /// The start time of the first video stream, in seconds.
    static func videoStart(_ path: String) throws -> Double {
        var context: UnsafeMutablePointer<AVFormatContext>?
        try #require(avformat_open_input(&context, path, nil, nil) >= 0)
        defer { avformat_close_input(&context) }
        try #require(avformat_find_stream_info(context, nil) >= 0)
        let index = av_find_best_stream(context, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
        let stream = context!.pointee.streams[Int(index)]!.pointee
        return Double(stream.start_time) * Double(stream.time_base.num) / Double(stream.time_base.den)
    }
}

@Suite("Music bed")
struct AudioBedTests {
    /// A 4-second 44.1 kHz song with one-sample clicks at 1.0, 1.5 and 2.0 s.
    static func clicks(_ path: String, rate: Int = 44_100) throws {
        let at = [1.0, 1.5, 2.0].map { Int(($0 * Double(rate)).rounded()) }
        try AudioFixture.write(path, rate: rate, seconds: 4) { i, _ in at.contains(i) ? 0.9 : 0 }
    }

    @Test("Each container carries its codec at 48 kHz stereo, exactly as long as the video")
    func codecsAndLength() throws {
        try withTemporaryDirectory { dir in
            let song = dir + "/song.wav"
            try AudioFixture.write(song, seconds: 5) { i, _ in 0.25 * sin(Float(i) * 0.05) }
            let expected: [(String, String)] = [("a.mp4", "aac"), ("a.mov", "aac"), ("a.webm", "opus"), ("a.mkv", "flac")]
            for (name, codec) in expected {
                let path = dir + "/" + name
                try BedClip.write(path, settings: AudioSettings(file: song))
                let facts = try BedClip.stream(path)
                #expect(facts.codec == codec, "\(name)")
                #expect(facts.rate == 48_000 && facts.channels == 2, "\(name)")
                if codec == "aac" {
                    #expect(facts.profile == FF_PROFILE_AAC_LOW, "\(name): AAC-LC")
                    // With movie_timescale 48000 the edit list is exact; in 1/1000 s it is 16 samples short.
                    #expect(av_rescale_q(facts.duration, facts.timeBase, AVRational(num: 1, den: 48_000)) == Int64(BedClip.samples), "\(name)")
                }
                // Decoders may keep up to one frame of the encoder's tail (FFmpeg ignores the end of an MP4 edit list).
                let decoded = try AudioFixture.decode(path)
                #expect(decoded.count >= BedClip.samples && decoded.count < BedClip.samples + 1024, "\(name): \(decoded.count) samples")
            }
            let opus = dir + "/opus.mkv"
            var own = EncoderSettings()
            own.audioCodec = .opus
            try BedClip.write(opus, settings: AudioSettings(file: song), own: own)
            #expect(try BedClip.stream(opus).codec == "opus")
            #expect(try AudioFixture.decode(opus).count == BedClip.samples)
        }
    }

    @Test("A click at --audio-start lands on the first sample, and later ones on time", arguments: ["wav", "mp3", "m4a", "flac"])
    func startIsSampleExact(_ kind: String) throws {
        try withTemporaryDirectory { dir in
            let song = dir + "/clicks." + kind
            try Self.clicks(song)
            var settings = AudioSettings(file: song)
            (settings.start, settings.fadeOut) = (1.0, 0)
            for output in ["a.mkv", "a.mp4", "a.webm"] {
                try BedClip.write(dir + "/" + output, settings: settings)
                let decoded = try AudioFixture.decode(dir + "/" + output)
                let found = AudioFixture.clicks(in: decoded.samples[0], threshold: 0.15)
                #expect(found.count == 3, "\(kind) → \(output): \(found)")
                for (click, want) in zip(found, [0, 24_000, 48_000]) {
                    #expect(abs(click - want) <= 2, "\(kind) → \(output): click at \(click), expected \(want)")
                }
            }
            // Through the limiter too (a gain that would push the clicks over the ceiling): its
            // look-ahead must not make the bed late.
            settings.volume = 12
            try BedClip.write(dir + "/limited.mkv", settings: settings)
            let limited = AudioFixture.clicks(in: try AudioFixture.decode(dir + "/limited.mkv").samples[0], threshold: 0.15)
            #expect(limited.count == 3 && zip(limited, [0, 24_000, 48_000]).allSatisfy { abs($0 - $1) <= 2 }, "\(kind), limited: \(limited)")
        }
    }

    @Test("WebM's audio starts with its video (the Opus pre-skip does not shift either)")
    func webmStartsTogether() throws {
        try withTemporaryDirectory { dir in
            let song = dir + "/song.wav"
            try AudioFixture.write(song, seconds: 3) { i, _ in 0.2 * sin(Float(i) * 0.03) }
            let path = dir + "/a.webm"
            try BedClip.write(path, settings: AudioSettings(file: song))
            let audio = try BedClip.stream(path)
            let video = try BedClip.videoStart(path)
            let audioStart = audio.start + Double(audio.initialPadding) / 48_000
            #expect(abs(audioStart - video) <= 0.001, "audio \(audioStart) s, video \(video) s")
        }
    }

    @Test("The fade-out is a linear ramp over its last seconds, ending at silence")
    func fadeOutCurve() throws {
        try withTemporaryDirectory { dir in
            let song = dir + "/sine.flac"
            try AudioFixture.write(song, rate: 48_000, seconds: 4) { i, _ in 0.1 * sin(Float(i) * 2 * .pi * 1000 / 48_000) }
            var settings = AudioSettings(file: song)
            settings.fadeOut = 1.0
            let path = dir + "/a.mkv"
            try BedClip.write(path, settings: settings)
            let samples = try AudioFixture.decode(path).samples[0]
            #expect(samples.count == BedClip.samples)
            let fadeStart = BedClip.samples - 48_000
            let full = rms(samples[(fadeStart - 4_800)..<fadeStart])
            // RMS per 10 ms against the ramp's mean gain over the same 10 ms.
            for block in stride(from: 0, to: 48_000 - 480, by: 480) {
                let measured = rms(samples[(fadeStart + block)..<(fadeStart + block + 480)])
                let gain = 1 - (Double(block) + 240) / 48_000
                #expect(abs(measured - full * gain) <= 0.02 * full, "at \(block) samples into the fade: \(measured) vs \(full * gain)")
            }
            #expect(abs(samples.last!) < 0.001)
        }
    }

    @Test("--audio-loop repeats the song from --audio-start; without it silence follows")
    func loop() throws {
        try withTemporaryDirectory { dir in
            let song = dir + "/loop.wav"
            try AudioFixture.write(song, rate: 48_000, seconds: 1) { i, _ in i == 12_000 ? 0.9 : 0 }
            var settings = AudioSettings(file: song)
            (settings.start, settings.fadeOut, settings.loop) = (0.1, 0, true)
            try BedClip.write(dir + "/loop.mkv", settings: settings)
            #expect(AudioFixture.clicks(in: try AudioFixture.decode(dir + "/loop.mkv").samples[0]) == [7_200, 50_400, 93_600])
            settings.loop = false
            try BedClip.write(dir + "/once.mkv", settings: settings)
            let once = try AudioFixture.decode(dir + "/once.mkv").samples[0]
            #expect(AudioFixture.clicks(in: once) == [7_200])
            #expect(once[43_200...].allSatisfy { $0 == 0 })
        }
    }

    @Test("--loudness reaches its target within 1 LU with the true peak at most -1 dBTP", arguments: [-14.0, -23.0])
    func loudness(_ target: Double) throws {
        try withTemporaryDirectory { dir in
            // Quiet music with loud transients: the gain alone would clip, so the limiter must work.
            let song = dir + "/peaky.wav"
            try AudioFixture.write(song, seconds: 6) { i, channel in
                let t = Float(i) / 44_100
                let pad = 0.02 * sin(2 * .pi * 220 * t) + 0.015 * sin(2 * .pi * 330 * t + Float(channel))
                let kick = (i % 22_050) < 600 ? 0.8 * sin(2 * .pi * 60 * t) * Float(600 - i % 22_050) / 600 : 0
                return pad + kick
            }
            var settings = AudioSettings(file: song)
            // Cut in just after a kick's onset, at full level: AAC's default coder overshoots
            // its first frame there by several dB.
            (settings.loudness, settings.start) = (target, 0.505)
            for output in ["a.mp4", "a.webm", "a.mkv"] {
                let path = dir + "/" + output
                try BedClip.write(path, settings: settings, frames: 150)
                let measured = try LoudnessMeter.measure(file: path)
                #expect(abs(measured.integrated - target) <= 1, "\(output): \(measured.integrated) LUFS")
                #expect(measured.truePeak <= -1, "\(output): \(measured.truePeak) dBTP")
            }
        }
    }

    @Test("--volume changes the level by its dB")
    func volume() throws {
        try withTemporaryDirectory { dir in
            let song = dir + "/sine.wav"
            try AudioFixture.write(song, rate: 48_000, seconds: 3) { i, _ in 0.05 * sin(Float(i) * 2 * .pi * 440 / 48_000) }
            var settings = AudioSettings(file: song)
            settings.fadeOut = 0
            try BedClip.write(dir + "/plain.mkv", settings: settings)
            settings.volume = -6
            try BedClip.write(dir + "/quiet.mkv", settings: settings)
            let plain = try LoudnessMeter.measure(file: dir + "/plain.mkv").integrated
            let quiet = try LoudnessMeter.measure(file: dir + "/quiet.mkv").integrated
            #expect(abs(plain - quiet - 6) < 0.2, "\(plain) → \(quiet)")
        }
    }

    @Test("The same song and settings give the same bytes")
    func deterministic() throws {
        try withTemporaryDirectory { dir in
            let song = dir + "/song.mp3"
            try AudioFixture.write(song, seconds: 4) { i, c in 0.3 * sin(Float(i) * (c == 0 ? 0.02 : 0.031)) }
            var settings = AudioSettings(file: song)
            (settings.start, settings.loudness) = (0.7, -16)
            for output in ["a.mp4", "a.webm", "a.mkv", "a.mov"] {
                try BedClip.write(dir + "/1" + output, settings: settings)
                try BedClip.write(dir + "/2" + output, settings: settings)
                let first = try Data(contentsOf: URL(fileURLWithPath: dir + "/1" + output))
                #expect(first == (try Data(contentsOf: URL(fileURLWithPath: dir + "/2" + output))), "\(output)")
            }
        }
    }

    @Test("An MP4 with a bed has its moov first and audio interleaved with the video")
    func mp4Layout() throws {
        try withTemporaryDirectory { dir in
            let song = dir + "/song.wav"
            try AudioFixture.write(song, seconds: 12) { i, _ in 0.2 * sin(Float(i) * 0.01) }
            for output in ["a.mp4", "a.webm"] {
                let path = dir + "/" + output
                try BedClip.write(path, settings: AudioSettings(file: song), frames: 300)
                if output == "a.mp4" {
                    let boxes = topLevelBoxes(try Data(contentsOf: URL(fileURLWithPath: path)))
                    let moov = try #require(boxes.firstIndex(of: "moov")), mdat = try #require(boxes.firstIndex(of: "mdat"))
                    #expect(moov < mdat, "\(boxes)")
                }
                #expect(try interleaveSkew(path) <= 0.5, "\(output)")
            }
        }
    }

    @Test("A track's packets wait for its job: an output asking first gets the whole track once the job has run")
    func packetsWaitForTheJob() throws {
        try withTemporaryDirectory { dir in
            let song = dir + "/song.wav"
            try AudioFixture.write(song, seconds: 3) { i, _ in 0.2 * sin(Float(i) * 0.02) }
            var settings = AudioSettings(file: song)
            settings.loudness = -16
            let (tracks, job) = try AudioTrack.prepare(settings, frames: BedClip.frames, rate: BedClip.rate, codecs: [.flac])
            let track = try #require(tracks[.flac])
            let asking = DispatchSemaphore(value: 0)
            let answered = DispatchSemaphore(value: 0)
            let counted = Mutex(-1)
            Thread {
                asking.signal()
                let packets = (try? track.packets())?.count ?? 0
                counted.withLock { $0 = packets }
                answered.signal()
            }.start()
            // The output asks before the job has levelled and encoded anything.
            asking.wait()
            job.run()
            answered.wait()
            let total = counted.withLock { $0 }
            // As many as the same bed encoded on one thread, job first.
            let whole = try #require(AudioTrack.make(settings, frames: BedClip.frames, rate: BedClip.rate, codecs: [.flac])[.flac]).packets()
            #expect(total == whole.count && total > 20, "\(total) packets, \(whole.count) when made at once")
        }
    }

    // MARK: helpers

    private func rms(_ samples: ArraySlice<Float>) -> Double {
        (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot()
    }

    private func topLevelBoxes(_ data: Data) -> [String] {
        var boxes: [String] = []
        var offset = 0
        let bytes = [UInt8](data)
        while offset + 8 <= bytes.count {
            let size = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            boxes.append(String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self))
            guard size >= 8 else { break }
            offset += size
        }
        return boxes
    }

    /// The largest time difference between the audio and video packets read in file order.
    private func interleaveSkew(_ path: String) throws -> Double {
        var context: UnsafeMutablePointer<AVFormatContext>?
        try #require(avformat_open_input(&context, path, nil, nil) >= 0)
        defer { avformat_close_input(&context) }
        let packet = av_packet_alloc()
        defer { var p = packet; av_packet_free(&p) }
        var latest: [Int32: Double] = [:]
        var skew = 0.0
        var kinds = Set<Int32>()
        while av_read_frame(context, packet) >= 0 {
            let p = packet!.pointee
            let base = context!.pointee.streams[Int(p.stream_index)]!.pointee.time_base
            latest[p.stream_index] = Double(p.dts) * Double(base.num) / Double(base.den)
            kinds.insert(p.stream_index)
            if latest.count == 2 { skew = max(skew, abs(latest[0]! - latest[1]!)) }
            av_packet_unref(packet)
        }
        #expect(kinds.count == 2)
        return skew
    }
}
