// The output formats slicevid writes, chosen from the output path. Adding a container is adding
// a case here, with the codecs it carries: the pipeline and the encoder code stay as they are.

import CFFmpeg
import SliceKit

/// A container (or image file kind) slicevid can write, chosen by the path's extension.
package enum OutputFormat: String, Sendable, CaseIterable {
    /// MP4 (`.mp4`, `.m4v`): H.264 by default, or HEVC; `+faststart`.
    case mp4
    /// WebM: VP9 by default, or AV1.
    case webm
    /// QuickTime (`.mov`): ProRes 422 HQ, or ProRes 4444 with alpha; `+faststart`.
    case mov
    /// Matroska (`.mkv`): a lossless FFV1 master by default; also takes the web codecs.
    case mkv
    /// An animated GIF: a subsample of the frames, scaled down, on a palette made for the clip.
    case gif
    /// One PNG picture (`poster.png`): the last frame, or the frame at `--poster-at`; with
    /// `sheet=CxR`, a storyboard of C × R frames.
    case poster
    /// One JPEG picture (`poster.jpg`), as `poster`.
    case jpeg
    /// One WebP picture (`poster.webp`), as `poster`.
    case webp
    /// A lossless PNG image sequence from a printf pattern such as `frames/%05d.png`.
    case pngSequence = "png-sequence"
    /// Raw frames in YUV4MPEG2 (`.y4m`, or `-` for stdout), to pipe into any external encoder.
    case y4m

    /// The files an output may be, as errors list them (each front end adds its own words for
    /// standard output and for nothing).
    package static let acceptedForms = ".mp4, .webm, .mov, .mkv, .gif, .png, .jpg or .webp (a poster still, or with :sheet=4x2 a storyboard), a numbered PNG pattern such as frames/%05d.png, .y4m"

    /// The format a path asks for.
    /// - Returns: nil when the extension is not one slicevid writes.
    package init?(path: String) {
        let lower = path.lowercased()
        let byExtension: [(String, OutputFormat)] = [
            (".mp4", .mp4), (".m4v", .mp4), (".webm", .webm), (".mov", .mov), (".mkv", .mkv), (".gif", .gif), (".y4m", .y4m),
            (".jpg", .jpeg), (".jpeg", .jpeg), (".webp", .webp),
        ]
        if let match = byExtension.first(where: { lower.hasSuffix($0.0) }) {
            self = match.1
        } else if lower.hasSuffix(".png") {
            if OutputFormat.hasFramePattern(path) {
                self = .pngSequence
            } else if (path.split(separator: "/", omittingEmptySubsequences: false).last ?? "").contains("%") {
                // A broken pattern in the name (`%05x`, two of them) is a mistake, not a
                // poster's name. A folder's % is only a folder's: a poster is one file, written
                // by us, never a pattern libavformat expands.
                return nil
            } else {
                self = .poster
            }
        } else {
            return nil
        }
    }

    /// Whether `path` has exactly one printf frame-number pattern (`%d`, `%05d`), in its file
    /// name, and no other `%` anywhere: libavformat's image2 muxer expands the whole path, and
    /// a literal `%%` is refused here so that every reader of the pattern agrees with it.
    package static func hasFramePattern(_ path: String) -> Bool {
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last ?? Substring(path)
        return framePatternCount(Substring(path)) == 1 && framePatternCount(name) == 1
    }

    /// Why `path` names no output slicevid writes (the message after the path): a `.png` path
    /// with a `%` (in its name, or a pattern with another `%` in its folders) is a frame
    /// pattern gone wrong; anything else an unknown type.
    package static func refusal(_ path: String) -> String {
        path.lowercased().hasSuffix(".png") && path.contains("%")
            ? "is not a frame pattern slicevid writes; a PNG sequence's name holds \(framePatternForm)"
            : "unknown output type; accepted: \(acceptedForms)"
    }

    /// The widest zero-padded frame number a pattern may ask for (`%019d`).
    package static let widestFrameNumber = 19

    /// What a frame pattern may hold, for messages that refuse one.
    package static let framePatternForm = "one %d, %Nd or %0Nd (N at most \(widestFrameNumber)) in the file name and no other %, e.g. frames/%05d.png"

    /// How many `%d`-style patterns `text` holds, or nil when it has a `%` sequence image2 refuses.
    private static func framePatternCount(_ text: Substring) -> Int? {
        var count = 0
        var rest = text
        while let percent = rest.firstIndex(of: "%") {
            rest = rest[rest.index(after: percent)...]
            // `%%` (a literal `%` to image2) is refused: every other reader of the pattern
            // (overwrite checks, batch records) would see a different name than image2 writes.
            if rest.first == "%" { return nil }
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            rest = rest.dropFirst(digits.count)
            guard rest.first == "d" else { return nil }
            // image2 prints the number into 19 characters at most (`%1000d` wrote every frame
            // to one name of 19 zeros): wider numbers are refused, as FFmpeg cannot write them.
            guard digits.isEmpty || (digits.count <= 4 && Int(digits).map { $0 <= widestFrameNumber } == true) else { return nil }
            rest = rest.dropFirst()
            count += 1
        }
        return count
    }

    /// The name people know the container by.
    package var displayName: String {
        switch self {
        case .mp4: "MP4"
        case .webm: "WebM"
        case .mov: "QuickTime"
        case .mkv: "Matroska"
        case .gif: "GIF"
        case .poster: "PNG still"
        case .jpeg: "JPEG still"
        case .webp: "WebP still"
        case .pngSequence: "PNG sequence"
        case .y4m: "YUV4MPEG2"
        }
    }

    /// The codecs this container carries; the first is the default.
    package var codecs: [VideoCodec] {
        switch self {
        case .mp4: [.h264, .hevc]
        case .webm: [.vp9, .av1]
        case .mov: [.prores]
        case .mkv: [.ffv1, .h264, .hevc, .vp9, .av1]
        case .gif: [.gif]
        case .poster, .pngSequence: [.png]
        case .jpeg: [.mjpeg]
        case .webp: [.webp]
        case .y4m: [.raw]
        }
    }

    /// The codec used when `--codec` does not choose another.
    package var defaultCodec: VideoCodec { codecs[0] }

    /// Whether the output is many files (a sequence) rather than one.
    package var isSequence: Bool { self == .pngSequence }

    /// Whether the output is one picture: a poster, or a storyboard.
    package var isStill: Bool { [.poster, .jpeg, .webp].contains(self) }

    /// The file type as people and `probe` name it: `mp4`, `png` (a poster or a sequence's
    /// frames), `jpeg`, `y4m`.
    package var containerName: String {
        switch self {
        case .poster, .pngSequence: "png"
        default: rawValue
        }
    }

    /// libavformat's muxer name.
    var muxerName: String {
        switch self {
        case .mp4: "mp4"
        case .webm: "webm"
        case .mov: "mov"
        case .mkv: "matroska"
        case .gif: "gif"
        case .poster, .pngSequence, .jpeg, .webp: "image2"
        case .y4m: "yuv4mpegpipe"
        }
    }

    /// Whether the muxer takes `movflags=+faststart` (moov before mdat, so playback starts
    /// before the whole file has arrived).
    var takesFaststart: Bool { self == .mp4 || self == .mov }

    /// The default codec's preferred encoder.
    package var encoderName: String { defaultCodec.encoders[0] }

    /// The compositor layout that feeds the default codec, opaque, without a lossy conversion.
    package var preferredLayout: PixelLayout {
        PixelLayout.rendering(pixelFormat: defaultCodec.defaultPixelFormat(alpha: false)) ?? .yuv420p
    }

    /// Whether the default codec takes a quality setting (`--crf`).
    package var takesCRF: Bool { defaultCodec.crfRange(encoder: encoderName) != nil }
}
