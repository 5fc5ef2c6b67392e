// The music bed: the song decoded, trimmed to --audio-start, resampled to 48 kHz stereo, looped
// or padded with silence, cut to the clip's length to the sample, faded, then brought to its
// level. Everything here is libavfilter (atrim, aresample, aloop, apad, afade, ebur128, volume,
// alimiter); slicevid only chooses the numbers. Built once, before rendering.

import CFFmpeg
import Foundation
import SliceKit

/// 48 kHz stereo planar-float audio exactly as long as the clip.
final class AudioBed {
    /// The bed's frames, in order; their samples add up to `sampleCount`.
    let frames: [Frame]
    let sampleCount: Int
    /// What the bed measures after levelling (when a level was asked for).
    let loudness: Loudness?

    /// Every output's audio rate.
    static let sampleRate = 48_000
    /// True peak the limiter aims at: a dB under the promised -1 dBTP, which lossy encoders eat into.
    static let ceiling = -2.0
    /// Most gain the loudness passes may add: the quietest real song needs about 32 dB.
    static let mostGain = 40.0
    private static let format = "aformat=sample_fmts=fltp:sample_rates=48000:channel_layouts=stereo"

    /// Samples of 48 kHz audio that last exactly as long as `frames` video frames at `rate`.
    static func length(frames: Int, rate: FrameRate) -> Int {
        Int((Double(frames) * Double(sampleRate) * Double(rate.denominator) / Double(rate.numerator)).rounded())
    }

    private init(frames: [Frame], sampleCount: Int, loudness: Loudness?) {
        (self.frames, self.sampleCount, self.loudness) = (frames, sampleCount, loudness)
    }

    /// Builds the bed.
    /// - Parameters:
    ///   - source: the song, opened.
    ///   - settings: start, loop, fades and level (already range-checked).
    ///   - sampleCount: the clip's length in 48 kHz samples.
    ///   - isCancelled: polled before each packet is decoded and each frame is filtered.
    /// - Throws: `MediaError(.inputInvalid)` when the song is damaged, `.output` if a graph
    ///   fails, `MediaError.stopped` once `isCancelled` says yes.
    static func build(from source: AudioSource, settings: AudioSettings, sampleCount: Int,
                      isCancelled: @escaping () -> Bool = { false }) throws(MediaError) -> AudioBed {
        let n = sampleCount
        let start = Int64((settings.start * Double(source.sampleRate)).rounded())
        let fadeIn = min(n, Int((settings.fadeIn * Double(sampleRate)).rounded()))
        let fadeOut = min(n, Int((settings.fadeOut * Double(sampleRate)).rounded()))
        // Trimmed at the song's own rate, before resampling, so the resampler's phase does not
        // depend on where decoding began. `start_pts` (not `start_sample`) because the frames'
        // pts are the song's sample indices whatever was skipped.
        let trim = "atrim=start_pts=\(start),asetpts=PTS-STARTPTS,"
        var description = "aresample=osr=48000:ochl=stereo:osf=fltp,\(format)"
        if settings.loop { description += ",aloop=loop=-1:size=\(n)" }
        description += ",apad=whole_len=\(n),atrim=end_sample=\(n)"
        if fadeIn > 0 { description += ",afade=t=in:ss=0:ns=\(fadeIn)" }
        if fadeOut > 0 { description += ",afade=t=out:ss=\(n - fadeOut):ns=\(fadeOut)" }

        // Layouts libswresample cannot down-mix (or would drop channels of) are mixed by pan first.
        func fitting(_ input: AudioGraph.Input, layout: UnsafePointer<AVChannelLayout>) throws(MediaError) -> AudioGraph {
            let mix = StereoDownmix.filter(for: layout).map { $0 + "," } ?? ""
            return try AudioGraph(description: trim + mix + description, input: input, subject: source.path, isCancelled: isCancelled)
        }
        var graph: AudioGraph?
        var frames: [Frame] = []
        // Decoding stops a second past the last sample the bed can use: a song that reaches it
        // never loops (aloop keeps its first `n` samples), so the rest is never needed.
        let needed = start + Int64((Double(n) * Double(source.sampleRate) / Double(sampleRate)).rounded(.up)) + Int64(source.sampleRate)
        // Draining makes what the song lacks (a loop, the padding), minutes of it: stoppable too.
        func drain(_ graph: AudioGraph) throws(MediaError) {
            while true {
                if isCancelled() { throw MediaError.stopped(subject: source.path) }
                let frame = try Frame(subject: source.path)
                guard try graph.pull(into: frame) == .ready else { return }
                frames.append(frame)
            }
        }
        try source.decode(from: start, isCancelled: isCancelled) { frame throws(MediaError) in
            if graph == nil { graph = try fitting(AudioGraph.Input(of: frame), layout: &frame.pointer.pointee.ch_layout) }
            try graph!.feed(frame)
            try drain(graph!)
            return frame.pointer.pointee.pts + Int64(frame.pointer.pointee.nb_samples) < needed
        }
        // A song with no samples at all still gives a bed: silence.
        let last: AudioGraph
        if let graph { last = graph } else {
            var layout = AVChannelLayout()
            av_channel_layout_default(&layout, Int32(source.channels))
            defer { av_channel_layout_uninit(&layout) }
            last = try fitting(AudioGraph.Input(sampleRate: source.sampleRate, channels: source.channels), layout: &layout)
        }
        try last.feed(nil)
        try drain(last)
        restamp(frames)
        return AudioBed(frames: frames, sampleCount: n, loudness: nil)
    }

    /// The bed brought to its level (`--volume` or `--loudness`), or itself when none was asked for.
    /// - Parameter isCancelled: polled before each frame every pass filters or measures.
    /// - Throws: `MediaError(.output)` if a graph fails; `MediaError.stopped` when cancelled.
    func levelled(_ settings: AudioSettings, subject: String, isCancelled: @escaping () -> Bool = { false }) throws(MediaError) -> AudioBed {
        guard settings.loudness != nil || settings.volume != nil else { return self }
        let (levelled, measured) = try Self.level(frames, settings: settings, sampleCount: sampleCount, subject: subject,
                                                  isCancelled: isCancelled)
        return AudioBed(frames: levelled, sampleCount: sampleCount, loudness: measured)
    }

    /// Applies `--volume` (a plain gain) or `--loudness` (measure, gain, re-measure: at most four
    /// passes, which converge in one to three), limiting at 192 kHz whenever the gain would
    /// lift the true peak over the ceiling.
    private static func level(_ frames: [Frame], settings: AudioSettings, sampleCount n: Int,
                              subject: String, isCancelled: @escaping () -> Bool) throws(MediaError) -> ([Frame], Loudness) {
        let before = try LoudnessMeter.measure(frames, subject: subject, isCancelled: isCancelled)
        func apply(_ gain: Double) throws(MediaError) -> ([Frame], Loudness) {
            var description = String(format: "volume=%.6fdB:precision=double", gain)
            if before.truePeak + gain > ceiling {
                // latency=true keeps the bed on time (the lookahead would delay it); level=false
                // stops alimiter's own make-up gain.
                let limit = String(format: "%.6f", pow(10, ceiling / 20))
                description += ",aresample=192000,alimiter=limit=\(limit):level=false:latency=true:attack=5:release=50,aresample=48000"
            }
            description += ",\(format),apad=whole_len=\(n),atrim=end_sample=\(n)"
            let graph = try AudioGraph(description: description, input: AudioGraph.Input(sampleRate: sampleRate, channels: 2), subject: subject,
                                       isCancelled: isCancelled)
            let out = try graph.run(frames)
            restamp(out)
            return (out, try LoudnessMeter.measure(out, subject: subject, isCancelled: isCancelled))
        }
        if let volume = settings.volume { return try apply(volume) }
        guard let target = settings.loudness, before.integrated > -70 else { return (frames, before) }
        var gain = min(mostGain, target - before.integrated)
        var result = try apply(gain)
        for _ in 1..<4 {
            let missing = target - result.1.integrated
            guard abs(missing) >= 0.3, gain + missing <= mostGain else { break }
            let previous = result.1.integrated
            gain += missing
            let next = try apply(gain)
            // A pass that gains less than half of what it asked for is fighting the limiter:
            // the target is out of reach under the ceiling, and more gain only distorts.
            if abs(next.1.integrated - previous) < abs(missing) / 2 { result = next; break }
            result = next
        }
        return result
    }

    /// Numbers the frames' pts by sample from 0, whatever time base the last filter left them in.
    private static func restamp(_ frames: [Frame]) {
        var position: Int64 = 0
        for frame in frames {
            frame.pointer.pointee.pts = position
            position += Int64(frame.pointer.pointee.nb_samples)
        }
    }
}
