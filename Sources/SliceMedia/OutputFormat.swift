// The output formats slicevid writes, chosen from the output path. Adding a format is adding a
// case here: the pipeline and the encoder code stay as they are.

import CFFmpeg
import SliceKit

/// A container + codec + pixel format slicevid can write.
public enum OutputFormat: String, Sendable, CaseIterable {
    /// H.264 (libx264) in MP4, yuv420p, BT.709, `+faststart`.
    case mp4
    /// A lossless PNG image sequence from a printf pattern such as `frames/%05d.png`.
    case pngSequence = "png-sequence"
    /// Raw frames in YUV4MPEG2 (`.y4m`, or `-` for stdout), to pipe into any external encoder.
    case y4m

    /// What `--help` and errors list as accepted.
    public static let acceptedForms = ".mp4, .y4m, - (y4m to stdout), null (render only), or a numbered PNG pattern such as frames/%05d.png"

    /// The format a path asks for.
    /// - Returns: nil when the extension is not one slicevid writes.
    public init?(path: String) {
        let lower = path.lowercased()
        if lower.hasSuffix(".mp4") || lower.hasSuffix(".m4v") {
            self = .mp4
        } else if lower.hasSuffix(".y4m") || path == "-" {
            self = .y4m
        } else if lower.hasSuffix(".png"), OutputFormat.hasFramePattern(path) {
            self = .pngSequence
        } else {
            return nil
        }
    }

    /// Whether `path` has exactly one printf frame-number pattern (`%d`, `%05d`), in its file
    /// name, and no other `%` anywhere: libavformat's image2 muxer expands the whole path, and
    /// a literal `%%` is refused here so that every reader of the pattern agrees with it.
    public static func hasFramePattern(_ path: String) -> Bool {
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last ?? Substring(path)
        return framePatternCount(Substring(path)) == 1 && framePatternCount(name) == 1
    }

    /// How many `%d`-style patterns `text` holds, or nil when it has a `%` sequence image2 refuses.
    private static func framePatternCount(_ text: Substring) -> Int? {
        var count = 0
        var rest = text
        while let percent = rest.firstIndex(of: "%") {
            rest = rest[rest.index(after: percent)...]
            // `%%` (a literal `%` to image2) is refused: every other reader of the pattern
            // (overwrite checks, batch records) would see a different name than image2 writes.
            if rest.first == "%" { return nil }
            rest = rest.drop { $0.isASCII && $0.isNumber }
            guard rest.first == "d" else { return nil }
            rest = rest.dropFirst()
            count += 1
        }
        return count
    }

    /// Whether the output is many files (a sequence) rather than one.
    public var isSequence: Bool { self == .pngSequence }

    /// libavformat's muxer name.
    var muxerName: String {
        switch self {
        case .mp4: "mp4"
        case .pngSequence: "image2"
        case .y4m: "yuv4mpegpipe"
        }
    }

    /// libavcodec's encoder name.
    public var encoderName: String {
        switch self {
        case .mp4: "libx264"
        case .pngSequence: "png"
        // Hands the AVFrame itself to the muxer: no copy, no encoding.
        case .y4m: "wrapped_avframe"
        }
    }

    /// The pixel format handed to the encoder.
    func encoderPixelFormat(alpha: Bool) -> AVPixelFormat {
        switch self {
        case .mp4, .y4m: AV_PIX_FMT_YUV420P
        case .pngSequence: alpha ? AV_PIX_FMT_RGBA : AV_PIX_FMT_RGB24
        }
    }

    /// The compositor layout that feeds this format without a lossy conversion.
    public var preferredLayout: PixelLayout {
        switch self {
        case .mp4, .y4m: .yuv420p
        case .pngSequence: .gbrp
        }
    }

    /// How the encoder's samples map to colour: tagged BT.709 video, or plain RGB.
    var colorEncoding: ColorEncoding {
        switch self {
        case .mp4, .y4m: .videoBT709
        case .pngSequence: .rgb
        }
    }

    /// Whether the format is a video compressed with a quality setting (`--crf`).
    public var takesCRF: Bool { self == .mp4 }
}

/// Encoder choices a user can make per run.
public struct EncoderSettings: Sendable, Equatable {
    /// Constant rate factor; lower is better quality. x264 accepts 0–51; 0 is lossless.
    public var crf: Int = 18
    /// x264 speed/size trade-off.
    public var preset: String = "medium"

    public init(crf: Int = 18, preset: String = "medium") {
        self.crf = crf
        self.preset = preset
    }
}
