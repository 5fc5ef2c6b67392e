// One vocabulary for what a media file holds, spoken by `probe` (read back from the file) and by
// `make --dry-run` (predicted from the plan), so a pipeline can compare what it asked for with
// what it got key by key: `container=mp4` (not libavformat's `mov,mp4,m4a,3gp,3g2,mj2`),
// profiles as FFmpeg names them in lower case (`high`, `main 10`, `profile 0`), frame rates as
// exact fractions (`30000/1001`).

import Foundation
import SliceKit

/// What a media file holds, in the words `probe` and `make --dry-run` share.
public struct MediaFacts: Sendable, Equatable {
    /// The file type: `mp4`, `mov`, `webm`, `mkv`, `gif`, `png`, `jpeg`, `webp`, `y4m`.
    public package(set) var container: String
    /// libavcodec's codec name (`h264`, `hevc`, `vp9`, `av1`, `prores`, `ffv1`, `gif`, `png`,
    /// `mjpeg`, `webp`, `rawvideo`).
    public package(set) var codec: String
    /// `avcodec_profile_name` in lower case (`high`, `constrained baseline`, `main 10`, `hq`);
    /// nil for codecs without profiles.
    public package(set) var profile: String?
    /// The pixel format the file holds (`pal8` for every GIF).
    public package(set) var pixelFormat: String
    public package(set) var alpha: Bool
    public package(set) var width: Int
    public package(set) var height: Int
    /// Frames per second as an exact fraction; a GIF's is its frames over its length (its
    /// delays are whole centiseconds). Nil for stills and image sequences, which carry none.
    public package(set) var frameRate: FrameRate?
    public package(set) var frames: Int
    /// Seconds, to the millisecond; nil where `frameRate` is.
    public package(set) var duration: Double?
    /// Colour tags as FFmpeg names them (`bt709`, `iec61966-2-1`, `bt470bg`, `unknown`).
    public package(set) var colorPrimaries: String
    public package(set) var colorTransfer: String
    public package(set) var colorSpace: String
    /// `tv` (limited) or `pc` (full), or `unknown`.
    public package(set) var colorRange: String
    /// The first audio stream, if the file has one.
    public package(set) var audio: AudioStreamFacts? = nil

    package init(container: String, codec: String, profile: String?, pixelFormat: String, alpha: Bool, width: Int, height: Int,
                frameRate: FrameRate?, frames: Int, duration: Double?, colors: (primaries: String, transfer: String, space: String, range: String)) {
        self.container = container
        self.codec = codec
        self.profile = profile
        self.pixelFormat = pixelFormat
        self.alpha = alpha
        self.width = width
        self.height = height
        self.frameRate = frameRate
        self.frames = frames
        self.duration = duration.map { ($0 * 1000).rounded() / 1000 }
        colorPrimaries = colors.primaries
        colorTransfer = colors.transfer
        colorSpace = colors.space
        colorRange = colors.range
    }

    /// The keys both JSON forms carry, in order.
    package static let jsonKeys = ["container", "codec", "profile", "pix_fmt", "alpha", "width", "height", "fps", "frames", "duration",
                                  "color_primaries", "color_transfer", "color_space", "color_range", "audio"]

    /// The facts as JSON fields: numbers as numbers, `null` for what the file does not have.
    package var jsonFields: [String: Any] {
        let audioFields: [String: Any] = audio.map { audio in
            ["audio": audio.codec, "audio_rate": audio.sampleRate, "audio_channels": audio.channels, "audio_duration": audio.duration ?? NSNull()]
        } ?? ["audio": NSNull()]
        return audioFields.merging([
            "container": container, "codec": codec, "profile": profile ?? NSNull(), "pix_fmt": pixelFormat, "alpha": alpha,
            "width": width, "height": height, "fps": frameRate?.description ?? NSNull(), "frames": frames,
            "duration": duration ?? NSNull(), "color_primaries": colorPrimaries, "color_transfer": colorTransfer,
            "color_space": colorSpace, "color_range": colorRange,
        ]) { first, _ in first }
    }

    /// The facts as the `key=value` pairs of a `probe` or `--dry-run` line, in order, with what
    /// only one side knows inserted: after the codec (the encoder), after the profile (the
    /// stream's tag), and before the colour tags (quality and speed settings).
    package func pairs(afterCodec: [(key: String, value: String)] = [], afterProfile: [(key: String, value: String)] = [],
                      beforeColors: [(key: String, value: String)] = []) -> [(key: String, value: String)] {
        var pairs = [("container", container), ("codec", codec)] + afterCodec
        if let profile { pairs.append(("profile", profile)) }
        pairs += afterProfile
        pairs += [("pix_fmt", pixelFormat), ("alpha", alpha ? "yes" : "no"), ("size", "\(width)x\(height)"), ("fps", frameRateText),
                  ("frames", String(frames)), ("duration", durationText)]
        return pairs + beforeColors + [("color_primaries", colorPrimaries), ("color_transfer", colorTransfer),
                                       ("color_space", colorSpace), ("color_range", colorRange)] + (audio?.pairs ?? [])
    }

    /// `fps=30`, `duration=2.033`: how the key=value lines write a rate and a length (`none`
    /// for a still).
    package var frameRateText: String { frameRate?.description ?? "none" }
    package var durationText: String { duration.map { String(format: "%.3f", $0) } ?? "none" }
}

/// A file's audio stream in the words `probe` and `make --dry-run` share.
public struct AudioStreamFacts: Sendable, Equatable {
    /// libavcodec's codec name (`aac`, `opus`, `flac`).
    public var codec: String
    public var sampleRate: Int
    public var channels: Int
    /// Seconds, to the millisecond, as the container states them; nil when it does not.
    public var duration: Double?

    public init(codec: String, sampleRate: Int, channels: Int, duration: Double?) {
        (self.codec, self.sampleRate, self.channels) = (codec, sampleRate, channels)
        self.duration = duration.map { ($0 * 1000).rounded() / 1000 }
    }

    /// `audio=aac audio_rate=48000 audio_channels=2 audio_duration=2.033`.
    public var pairs: [(key: String, value: String)] {
        [("audio", codec), ("audio_rate", String(sampleRate)), ("audio_channels", String(channels)),
         ("audio_duration", duration.map { String(format: "%.3f", $0) } ?? "none")]
    }
}
