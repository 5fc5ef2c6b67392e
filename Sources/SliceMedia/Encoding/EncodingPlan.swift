// Everything about one output decided before a frame is rendered: container, codec, encoder,
// pixel format, size, which frames, quality and speed, colour tags. VideoWriter follows a plan;
// `make --dry-run` prints one. Planning is where impossible requests are refused.

import Foundation
import SliceKit

/// The clip every output of a render encodes, known before any frame is drawn.
package struct Clip: Sendable, Equatable {
    package var width: Int
    package var height: Int
    package var frameRate: FrameRate
    /// Rendered frames.
    package var frameCount: Int
    /// Whether the background lets what lies behind show through (alpha below 255).
    package var isTransparent: Bool

    package init(width: Int, height: Int, frameRate: FrameRate, frameCount: Int, isTransparent: Bool = false) {
        self.width = width
        self.height = height
        self.frameRate = frameRate
        self.frameCount = frameCount
        self.isTransparent = isTransparent
    }

    /// The clip a transition renders.
    /// - Precondition: `spec` is valid.
    package init(spec: TransitionSpec) {
        self.init(width: spec.width, height: spec.height, frameRate: spec.frameRate,
                  frameCount: FramePlan(spec: spec).frameCount, isTransparent: spec.background.alpha < 255)
    }
}

/// How an output's quality is controlled.
package enum Quality: Sendable, Equatable, CustomStringConvertible {
    /// Constant rate factor (constant quality).
    case crf(Int)
    /// Target bits per second.
    case bitrate(Int)
    /// Every pixel kept exactly (FFV1, PNG, H.264 at crf 0).
    case lossless
    /// Set by the codec's profile (ProRes).
    case profile
    /// A palette of this many colours (GIF).
    case palette(Int)
    /// Frames as rendered, not compressed (y4m).
    case uncompressed
    /// The still encoder's own fixed quality (JPEG q 2, WebP 75).
    case still

    package var description: String {
        switch self {
        case .crf(let value): "crf \(value)"
        case .bitrate(let bits): bits % 1_000_000 == 0 ? "\(bits / 1_000_000)M" : bits % 1000 == 0 ? "\(bits / 1000)k" : "\(bits)"
        case .lossless: "lossless"
        case .profile: "profile"
        case .palette(let colors): "\(colors)-colour palette"
        case .uncompressed: "uncompressed"
        case .still: "fixed"
        }
    }
}

/// How the samples of an output are tagged.
package enum ColorTags: String, Sendable, Equatable {
    /// BT.709 primaries, transfer and matrix, limited range: every YUV output.
    case bt709Limited = "bt709/tv"
    /// sRGB primaries and transfer, RGB, full range: lossless RGB masters.
    case sRGB = "srgb/pc"
    /// No tags (PNG, GIF: RGB by definition).
    case none
}

/// One output, fully decided.
package struct EncodingPlan: Sendable {
    /// The path to write (a pattern for sequences); messages name it.
    package let path: String
    package let format: OutputFormat
    package let codec: VideoCodec
    /// The libavcodec encoder.
    package let encoder: String
    /// The FFmpeg pixel format the encoder receives.
    package let pixelFormat: String
    /// Encoded size (smaller than the render for GIFs).
    package let width: Int
    package let height: Int
    /// The rendered frames' size, which the writer scales from.
    package let renderWidth: Int
    package let renderHeight: Int
    /// The rendered frames this output keeps.
    package let selection: FrameSelection
    package let quality: Quality
    /// The speed setting as the encoder understands it (`preset medium`, `cpu-used 2 (good)`).
    package let speed: String?
    /// The speed options handed to the encoder (`preset`=`medium`).
    let speedOptions: [(String, String)]
    /// The codec profile asked for (`high`, `hq`, `4444`), if slicevid sets one.
    package let profile: String?
    /// Whether the output keeps the clip's transparency.
    package let keepsAlpha: Bool
    package let colorTags: ColorTags
    /// The layout a render should be in to feed this output without loss.
    package let renderLayout: PixelLayout
    /// Run-wide options this output does not use, and why (`--crf`: "GIF has no crf").
    package internal(set) var ignored: [OutputOption: ErrorText]

    /// Encoder options, set with `avcodec_open2`.
    let codecOptions: [(String, String)]
    /// Muxer options, set with `avformat_write_header`.
    var muxerOptions: [(String, String)]
    /// A four-character code forced on the stream (`hvc1`, which Safari needs for HEVC).
    let codecTag: String?
    /// Time-base ticks per second when it is not the frame rate (GIF counts centiseconds).
    let ticksPerSecond: Int?
    /// A storyboard's grid; nil for every other output.
    package let sheet: Sheet?
    /// Threads the encoder runs (`ThreadBudget.encoderThreads`, from the cores and this
    /// output's frame): libavcodec's `thread_count`, or the encoder's own setting where it has
    /// one (`EncodingPlan+Threads.swift`). x264, x265 and libvpx write other bytes with another
    /// count, so it is never left to the encoder, which would take every core.
    package var threads = 1

    /// The threads the encoder runs for a clip, nil for a picture (written on one): worth
    /// showing in a plan, since x264's, x265's and libvpx's bytes depend on it.
    package var clipThreads: Int? { writesPicture || isStill ? nil : threads }
    /// The encoder's own logging is let through (`--verbose`): decided per run, since
    /// libavcodec's log level is one for the whole process.
    package var verbose = false
    /// The music bed's codec, when the output carries one (set by `carryingAudio`).
    package internal(set) var audio: AudioCodec? = nil
    /// GIF palettes are chosen from the stills before rendering.
    package var needsPalette: Bool { codec == .gif }

    /// Frames the output holds (one picture for a storyboard).
    package var frameCount: Int { sheet == nil ? selection.count : 1 }

    /// Whether the picture is written by slicevid's still writer rather than a video encoder:
    /// JPEG and WebP, and every storyboard.
    package var writesPicture: Bool { sheet != nil || codec == .mjpeg || codec == .webp }

    /// Whether the output is one picture (a poster), with no frame rate and no length.
    package var isStill: Bool {
        if case .single = selection.rule { return true }
        return false
    }

    /// Seconds the output plays (0 for a poster).
    package var duration: Double {
        if case .single = selection.rule { return 0 }
        if ticksPerSecond != nil {
            // GIF delays are whole centiseconds; the last frame lasts one GIF frame too.
            let last = timestamp(ofFrame: selection.renderFrames - 1)
            return Double(last + Int64(EncodingPlan.centiseconds(perFrameOf: frameRate))) / 100
        }
        return Double(selection.renderFrames) / selection.renderRate.value
    }

    /// The output's frame rate: the render's, or the GIF's own.
    package var frameRate: FrameRate {
        if case .rate(let rate) = selection.rule { return rate }
        return selection.renderRate
    }

    /// The presentation timestamp of rendered frame `index`, in the codec's time base: the
    /// frame index, or for GIFs the time of its place in the GIF in centiseconds. GIFs count
    /// their own frames rather than the render's times so that every delay is one GIF frame
    /// (browsers slow delays under 2 cs down to 10); the appended destination may show up to one
    /// GIF frame late.
    func timestamp(ofFrame index: Int) -> Int64 {
        guard let ticks = ticksPerSecond else { return Int64(index) }
        let position = selection.position(of: index) ?? index
        let rate = frameRate
        return Int64((2 * position * ticks * rate.denominator + rate.numerator) / (2 * rate.numerator))
    }

    /// One GIF frame at `rate`, in whole centiseconds (at least 2, which browsers honour).
    static func centiseconds(perFrameOf rate: FrameRate) -> Int {
        max(2, (200 * rate.denominator + rate.numerator) / (2 * rate.numerator))
    }

    /// The plan that writes a storyboard's composed picture (`width` × `height`, one frame)
    /// with the output's encoder and pixel format.
    package var picturePlan: EncodingPlan {
        EncodingPlan(path: path, format: format, codec: codec, encoder: encoder, pixelFormat: pixelFormat, width: width, height: height,
                     renderWidth: width, renderHeight: height,
                     selection: FrameSelection(single: 0, renderFrames: 1, renderRate: selection.renderRate), quality: quality,
                     speed: speed, speedOptions: speedOptions, profile: profile, keepsAlpha: keepsAlpha, colorTags: colorTags,
                     renderLayout: renderLayout, ignored: ignored, codecOptions: codecOptions, muxerOptions: muxerOptions,
                     codecTag: codecTag, ticksPerSecond: ticksPerSecond, sheet: nil)
    }

    /// What `make --dry-run` prints for this output, as `key=value` pairs in a fixed order: the
    /// facts `probe` will read back (`facts`, in its words), with the encoder and its quality and
    /// speed settings among them.
    package var summary: [(key: String, value: String)] {
        facts.pairs(afterCodec: [("encoder", encoder)], beforeColors: (sheet.map { [("sheet", $0.description)] } ?? []) + settings)
            + audioSettings
    }

    /// The quality and speed settings the encoder is given, as `key=value` pairs.
    package var settings: [(key: String, value: String)] {
        var pairs: [(String, String)] = []
        switch quality {
        case .crf(let crf): pairs.append(("crf", String(crf)))
        case .bitrate: pairs.append(("bitrate", quality.description))
        case .lossless, .uncompressed: pairs.append(("quality", quality.description))
        case .palette(let colors): pairs.append(("colors", String(colors)))
        case .profile, .still: break
        }
        return pairs + speedOptions
    }
}
