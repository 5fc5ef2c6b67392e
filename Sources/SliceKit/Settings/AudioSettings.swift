// What a user chose about the music bed: the file (and stream), where in the song to start,
// whether to loop it, its fades and its level. Every value is range-checked as it is set, so
// the arithmetic that fits the bed to the clip never meets a NaN, a negative or a huge number.

import Foundation

/// The music bed of a render, before it is decoded.
public struct AudioSettings: Sendable, Equatable {
    /// The audio file; nil renders silent video.
    public var file: String?
    /// The container stream index (`FILE:stream=N`); nil takes the first audio stream.
    public var stream: Int?
    /// Seconds into the song the bed starts.
    public var start: Double = 0
    /// Whether a song shorter than the clip repeats (otherwise silence follows it).
    public var loop = false
    /// Seconds the bed fades in over, from its first sample.
    public var fadeIn: Double = 0
    /// Seconds the bed fades out over, ending on its last sample (clamped to the clip).
    public var fadeOut: Double = AudioSettings.defaultFadeOut
    /// Integrated loudness to normalise to (LUFS, EBU R128), with a -1 dBTP true-peak ceiling.
    public var loudness: Double?
    /// A plain gain in dB.
    public var volume: Double?

    /// The fade-out a bed gets unless told otherwise: a hard cut at the clip's end clicks.
    public static let defaultFadeOut = 0.5
    /// Seconds accepted for `--audio-start` (a day: any song, and far from overflowing a sample count).
    static let starts = 0.0...86_400
    /// Seconds accepted for fades.
    static let fades = 0.0...3_600
    /// LUFS accepted for `--loudness`: from near-silence to louder than any platform asks.
    static let loudnesses = -70.0...(-5)
    /// dB accepted for `--volume`.
    static let volumes = -60.0...30
    /// Stream indices accepted after `:stream=`.
    static let streams = 0...1023

    public init(file: String? = nil) {
        self.file = file
    }

    /// Sets `option` from its text form (a flag's value, a manifest's or preset's field).
    /// - Throws: `AudioValueError` saying what the option accepts; the caller names the flag or field.
    public mutating func set(_ option: AudioOption, to text: String) throws(AudioValueError) {
        let bad = AudioValueError(option: option, message: "\(InputText.quoted(text)) is not valid; expected \(option.accepted)")
        guard text.utf8.count <= SpecField.maximumValueLength * 16 else { throw bad }
        func number(in range: ClosedRange<Double>) throws(AudioValueError) -> Double {
            // Double(decimal:) takes plain decimals only: no "nan", "inf" or hex floats.
            guard let value = Double(decimal: text), value.isFinite, range.contains(value) else { throw bad }
            return value
        }
        switch option {
        case .audio:
            guard !text.isEmpty, !text.utf8.contains(0) else { throw bad }
            (file, stream) = (text, nil)
            // `song.m4a:stream=2`: the suffix names a stream only when it is exactly that form.
            if let range = text.range(of: ":stream=", options: .backwards) {
                let digits = text[range.upperBound...]
                guard !digits.isEmpty, digits.count <= 4, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
                      let index = Int(digits), AudioSettings.streams.contains(index), range.lowerBound > text.startIndex else { throw bad }
                (file, stream) = (String(text[..<range.lowerBound]), index)
            }
        case .audioStart: start = try number(in: AudioSettings.starts)
        case .audioLoop:
            switch text {
            case "", "true", "yes", "1": loop = true
            case "false", "no", "0": loop = false
            default: throw bad
            }
        case .audioFadeIn: fadeIn = try number(in: AudioSettings.fades)
        case .audioFadeOut: fadeOut = try number(in: AudioSettings.fades)
        case .loudness: loudness = try number(in: AudioSettings.loudnesses)
        case .volume: volume = try number(in: AudioSettings.volumes)
        }
    }

    /// These settings with every setting `specific` changed from the defaults taking precedence
    /// (a preset under flags, a manifest's defaults under a job's own).
    public func overridden(by specific: AudioSettings) -> AudioSettings {
        let defaults = AudioSettings()
        var merged = self
        if specific.file != nil { (merged.file, merged.stream) = (specific.file, specific.stream) }
        if specific.start != defaults.start { merged.start = specific.start }
        if specific.loop != defaults.loop { merged.loop = specific.loop }
        if specific.fadeIn != defaults.fadeIn { merged.fadeIn = specific.fadeIn }
        if specific.fadeOut != defaults.fadeOut { merged.fadeOut = specific.fadeOut }
        if specific.loudness != nil { merged.loudness = specific.loudness }
        if specific.volume != nil { merged.volume = specific.volume }
        return merged
    }

    /// The settings as `key=value` pairs in a fixed order, for the fingerprint and `--dry-run`.
    public var pairs: [(key: String, value: String)] {
        var pairs: [(String, String)] = [("stream", stream.map(String.init) ?? "first"), ("start", start.secondsText),
                                         ("loop", loop ? "1" : "0"), ("fade_in", fadeIn.secondsText), ("fade_out", fadeOut.secondsText)]
        pairs.append(("loudness", loudness.map(\.secondsText) ?? "none"))
        pairs.append(("volume", volume.map(\.secondsText) ?? "none"))
        return pairs
    }
}

/// An audio setting's flag (`--audio-start`) and field (`audio-start` in presets).
public enum AudioOption: String, Sendable, CaseIterable {
    case audio
    case audioStart = "audio-start"
    case audioLoop = "audio-loop"
    case audioFadeIn = "audio-fade-in"
    case audioFadeOut = "audio-fade-out"
    case loudness
    case volume

    /// The placeholder shown in help; nil for the switch (`--audio-loop`).
    public var valueName: String? {
        switch self {
        case .audio: "FILE[:stream=N]"
        case .audioStart, .audioFadeIn, .audioFadeOut: "SECONDS"
        case .audioLoop: nil
        case .loudness: "LUFS"
        case .volume: "DB"
        }
    }

    /// What the option accepts, for help and errors.
    public var accepted: String {
        switch self {
        case .audio: "an audio file FFmpeg decodes (MP3, AAC/M4A, WAV, FLAC, Ogg/Opus), optionally :stream=N (0–1023) for a container stream"
        case .audioStart: "seconds into the song, 0–86400"
        case .audioLoop: "true or false"
        case .audioFadeIn: "seconds, 0–3600 (default 0)"
        case .audioFadeOut: "seconds, 0–3600 (default 0.5, never longer than the clip)"
        case .loudness: "integrated loudness in LUFS, -70 to -5 (e.g. -14 for social platforms, -16 for the web)"
        case .volume: "a gain in dB, -60 to 30"
        }
    }
}

/// An audio value that is not of the form its option takes.
public struct AudioValueError: Error, Sendable, Equatable {
    public let option: AudioOption
    /// "'x' is not valid; expected …".
    public let message: String
}

extension Double {
    /// `2`, `0.5`, `-14`: a setting as people write it.
    fileprivate var secondsText: String { String(format: "%g", self) }
}
