// EBU R128 measurement with libavfilter's ebur128, read from the frames' metadata rather than
// its log: integrated loudness and the true peak (oversampled, so inter-sample peaks count).
// The bed's loudness passes use it, and so do the tests that check what was written.

import CFFmpeg
import Foundation

/// What ebur128 measured over a whole stretch of audio.
package struct Loudness: Sendable, Equatable {
    /// Integrated loudness in LUFS (-70 or lower for silence).
    package var integrated: Double
    /// The highest true peak of any channel, in dBTP (-inf for silence).
    package var truePeak: Double
}

/// Measures decoded audio.
package enum LoudnessMeter {
    /// Measures the whole of an audio file's first audio stream (or `stream`), decoded strictly.
    /// - Throws: `MediaError` as `AudioSource` does.
    package static func measure(file: String, stream: Int? = nil) throws(MediaError) -> Loudness {
        try measure(AudioSource(path: file, stream: stream).decodeAll(), subject: file)
    }

    /// Measures `frames` (any rate and layout ebur128 takes; all alike).
    /// - Parameter isCancelled: polled between frames (see `AudioGraph.run`).
    /// - Throws: `MediaError(.output)` if the graph fails; `MediaError.stopped` when cancelled.
    static func measure(_ frames: [Frame], subject: String, isCancelled: @escaping () -> Bool = { false }) throws(MediaError) -> Loudness {
        guard let first = frames.first else { return Loudness(integrated: -.infinity, truePeak: -.infinity) }
        let graph = try AudioGraph(description: "ebur128=peak=true:metadata=1", input: AudioGraph.Input(of: first), subject: subject,
                                   isCancelled: isCancelled)
        var integrated = -Double.infinity
        var peak = 0.0
        try graph.run(frames, keep: false) { frame in
            let metadata = frame.pointer.pointee.metadata
            if let value = Self.value(metadata, "lavfi.r128.I") { integrated = value }
            // The peaks are linear; each channel has its own key.
            var entry: UnsafeMutablePointer<AVDictionaryEntry>?
            while let next = av_dict_get(metadata, "lavfi.r128.true_peaks_ch", entry, AV_DICT_IGNORE_SUFFIX) {
                if let value = Double(String(cString: next.pointee.value)), value.isFinite { peak = max(peak, value) }
                entry = next
            }
        }
        return Loudness(integrated: integrated, truePeak: peak > 0 ? 20 * log10(peak) : -.infinity)
    }

    private static func value(_ metadata: OpaquePointer?, _ key: String) -> Double? {
        guard let entry = av_dict_get(metadata, key, nil, 0) else { return nil }
        return Double(String(cString: entry.pointee.value)).flatMap { $0.isFinite ? $0 : nil }
    }
}
