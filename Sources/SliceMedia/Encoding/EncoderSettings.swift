// What a user chose about how outputs are encoded, before it is checked against any codec:
// run-wide from flags (`--crf 20`), per output from `-o promo.webm:crf=32`. Unset values take
// each codec's own default when the output is planned.

import SliceKit

/// Encoding choices for one output, or for every output of a run.
public struct EncoderSettings: Sendable, Equatable {
    /// The codec (and encoder) instead of the container's default.
    public var codec: CodecChoice?
    /// Constant rate factor; lower is better. The scale depends on the codec (x264 0–51, VP9 0–63, …).
    public var crf: Int?
    /// Target bitrate in bits per second, instead of a CRF.
    public var bitrate: Int?
    /// Speed: a name (`ultrafast` … `placebo`) or the encoder's own number.
    public var preset: String?
    /// FFmpeg pixel format name (`yuv420p`, `yuv444p`, `yuv420p10le`, …).
    public var pixelFormat: String?
    /// GIF frame rate (default 15, never above the render's).
    public var gifFrameRate: FrameRate?
    /// GIF width in pixels (default 480, never above the render's); the height keeps the aspect.
    public var gifWidth: Int?
    /// Seconds into the clip the poster still shows (default: the last frame).
    public var posterTime: Double?
    /// A still output's storyboard grid, instead of one frame.
    public var sheet: Sheet?
    /// The music bed's codec where the container takes more than one (`.mkv`: flac or opus).
    public var audioCodec: AudioCodec?
    /// Whether this output leaves the music bed out (`-o silent.mp4:audio=none`).
    public var silent = false

    /// No setting given: every output takes its format's defaults. Set options with
    /// `set(_:to:)`, in the words of `slicevid make`'s flags.
    public init() {}

    package init(crf: Int? = nil, preset: String? = nil, codec: CodecChoice? = nil, bitrate: Int? = nil,
                pixelFormat: String? = nil, gifFrameRate: FrameRate? = nil, gifWidth: Int? = nil, posterTime: Double? = nil,
                sheet: Sheet? = nil) {
        self.crf = crf
        self.preset = preset
        self.codec = codec
        self.bitrate = bitrate
        self.pixelFormat = pixelFormat
        self.gifFrameRate = gifFrameRate
        self.gifWidth = gifWidth
        self.posterTime = posterTime
        self.sheet = sheet
    }

    /// Whether `option` has a value here.
    package func has(_ option: OutputOption) -> Bool {
        switch option {
        case .codec: codec != nil
        case .crf: crf != nil
        case .bitrate: bitrate != nil
        case .encoderPreset: preset != nil
        case .pixFmt: pixelFormat != nil
        case .gifFPS: gifFrameRate != nil
        case .gifWidth: gifWidth != nil
        case .posterAt: posterTime != nil
        case .sheet: sheet != nil
        case .audioCodec: audioCodec != nil
        }
    }

    /// The options that have a value, in table order.
    package var givenOptions: [OutputOption] { OutputOption.allCases.filter(has) }

    /// These settings with every value `specific` gives taking precedence. A CRF and a bitrate
    /// are one choice: whichever the more specific settings give replaces the other.
    package func overridden(by specific: EncoderSettings) -> EncoderSettings {
        var merged = self
        if let codec = specific.codec { merged.codec = codec }
        if let crf = specific.crf { merged.crf = crf; merged.bitrate = nil }
        if let bitrate = specific.bitrate { merged.bitrate = bitrate; merged.crf = nil }
        if let preset = specific.preset { merged.preset = preset }
        if let pixelFormat = specific.pixelFormat { merged.pixelFormat = pixelFormat }
        if let rate = specific.gifFrameRate { merged.gifFrameRate = rate }
        if let width = specific.gifWidth { merged.gifWidth = width }
        if let time = specific.posterTime { merged.posterTime = time }
        if let sheet = specific.sheet { merged.sheet = sheet }
        if let codec = specific.audioCodec { merged.audioCodec = codec }
        if specific.silent { merged.silent = true }
        return merged
    }
}
