// One table of encoding options, shared by the run-wide flags (`--crf 20`) and the per-output
// options after a path (`-o promo.webm:crf=32`), so both are parsed and reported by the same code.
// Values are checked for form here; whether a codec takes them is decided when outputs are planned.

import SliceKit

/// An encoding option. The raw value is the flag name without dashes and the per-output key.
public enum OutputOption: String, Sendable, CaseIterable {
    case codec, crf, bitrate
    case encoderPreset = "encoder-preset"
    case pixFmt = "pix-fmt"
    case gifFPS = "gif-fps"
    case gifWidth = "gif-width"
    case posterAt = "poster-at"
    case sheet
    case audioCodec = "audio-codec"

    /// The option a per-output key names: its flag name, or `preset` for `encoder-preset`.
    /// The option as a setting, for messages each front end words its own way.
    package var setting: Setting { Setting(rawValue, kind: .encoding) }

    package init?(key: String) {
        if key == "preset" { self = .encoderPreset; return }
        self.init(rawValue: key)
    }

    /// The placeholder shown in help.
    package var valueName: String {
        switch self {
        case .codec: "NAME"
        case .crf: "N"
        case .bitrate: "RATE"
        case .encoderPreset: "NAME"
        case .pixFmt: "FORMAT"
        case .gifFPS: "RATE"
        case .gifWidth: "PIXELS"
        case .posterAt: "SECONDS"
        case .sheet: "CxR"
        case .audioCodec: "NAME"
        }
    }

    /// What the option accepts, for help and errors.
    public var accepted: String {
        switch self {
        case .codec: CodecChoice.accepted
        case .crf: "a whole number on the codec's scale: H.264/HEVC 0–51 (default 18/22), VP9/AV1 0–63 (default 31/32), lower is better"
        case .bitrate: "bits per second from 1k to 2000M, e.g. 2500k, 4M or 800000 (instead of a crf)"
        case .encoderPreset: "\(VideoCodec.speedNames.first!) … \(VideoCodec.speedNames.last!) (default medium) for every codec, or the encoder's own number: VP9 cpu-used 0–8, SVT-AV1 preset 0–13, libaom cpu-used 0–8"
        case .pixFmt: "an FFmpeg pixel format the codec takes, e.g. yuv420p (default), yuv444p, yuv420p10le"
        case .gifFPS: "GIF frames per second, 1–\(OutputOption.maximumGIFRate) (default 15, never above the render's)"
        case .gifWidth: "GIF width in pixels, \(OutputOption.gifWidths.lowerBound)–\(OutputOption.gifWidths.upperBound) (default 480, never wider than the render); the height keeps the aspect"
        case .posterAt: "seconds into the clip (0 up to its length) for a .png, .jpg or .webp poster (default: the last frame, the destination)"
        case .sheet: "a storyboard grid COLUMNSxROWS, each \(Sheet.sides.lowerBound)–\(Sheet.sides.upperBound) (e.g. 4x2): a .png, .jpg or .webp output becomes one picture of that many evenly spaced frames, each labelled with its time"
        case .audioCodec: "the music bed's codec: \(AudioCodec.accepted)"
        }
    }

    /// Whether the option only tunes outputs that have the knob (speed, GIF size and rate,
    /// poster time), so a run where no output has it simply ignores it. The others change what
    /// is written (codec, quality, pixel format): given where no output can use them, they are
    /// a mistake worth an error (`--crf 0 -o a.gif` is not a lossless GIF).
    package var isTuning: Bool { [.encoderPreset, .gifFPS, .gifWidth, .posterAt, .sheet, .audioCodec].contains(self) }

    /// GIF delays are whole centiseconds and browsers slow anything under 2 cs down to 10 cs.
    static let maximumGIFRate = 50
    static let gifWidths = 16...8192

    /// Whether `text` can be a name FFmpeg gives a speed or pixel format: letters, digits, `-`
    /// and `_`, at most 32 of them. Anything else cannot be one, and would only be echoed back.
    static func isName(_ text: String) -> Bool {
        (1...32).contains(text.utf8.count) && text.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }
    }
}

/// A value that is not of the form an option takes.
public struct OptionValueError: Error, Sendable, Equatable {
    public let option: OutputOption
    /// "'x' is not valid; expected …".
    public let message: String
}

extension EncoderSettings {
    /// Sets `option` from its text form.
    /// - Throws: `OptionValueError` saying what the option accepts.
    public mutating func set(_ option: OutputOption, to text: String) throws(OptionValueError) {
        let bad = OptionValueError(option: option, message: "\(InputText.quoted(text)) is not valid; expected \(option.accepted)")
        guard text.utf8.count <= SpecField.maximumValueLength else { throw bad }
        switch option {
        case .codec:
            guard let choice = CodecChoice(parsing: text) else { throw bad }
            codec = choice
        case .crf:
            guard let value = Int(text) else { throw bad }
            crf = value
        case .bitrate:
            guard let value = EncoderSettings.bitrate(parsing: text) else { throw bad }
            bitrate = value
        case .encoderPreset:
            // A speed name, or a number some encoder's own knob takes; which encoder takes which
            // number is checked when an output is planned. A value no encoder takes ('-1',
            // 'bogus') is refused here, before anything renders, whatever the outputs.
            let name = text.lowercased()
            guard VideoCodec.speedNames.contains(name)
                    || (name.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
                        && Int(name).map(VideoCodec.speedNumbers.contains) == true) else { throw bad }
            preset = name
        case .pixFmt:
            guard OutputOption.isName(text) else { throw bad }
            pixelFormat = text.lowercased()
        case .gifFPS:
            guard let rate = FrameRate(parsing: text, range: 1...Double(OutputOption.maximumGIFRate)) else { throw bad }
            gifFrameRate = rate
        case .gifWidth:
            guard let width = Int(text), OutputOption.gifWidths.contains(width) else { throw bad }
            gifWidth = width
        case .posterAt:
            // Whether it falls within the clip is checked when the output is planned.
            guard let seconds = Double(decimal: text), seconds >= 0 else { throw bad }
            posterTime = seconds
        case .sheet:
            guard let grid = Sheet(parsing: text) else { throw bad }
            sheet = grid
        case .audioCodec:
            guard let codec = AudioCodec(rawValue: text.lowercased()) else { throw bad }
            audioCodec = codec
        }
    }

    /// `2500k`, `4M`, `1.5m`, `800000` → bits per second (1 kbit/s … 2 Gbit/s).
    static func bitrate(parsing text: String) -> Int? {
        var digits = Substring(text.lowercased())
        var scale = 1.0
        if digits.hasSuffix("k") { scale = 1e3; digits = digits.dropLast() }
        else if digits.hasSuffix("m") { scale = 1e6; digits = digits.dropLast() }
        guard let value = Double(decimal: digits) else { return nil }
        let bits = (value * scale).rounded()
        guard (1e3...2e9).contains(bits) else { return nil }
        return Int(bits)
    }
}
