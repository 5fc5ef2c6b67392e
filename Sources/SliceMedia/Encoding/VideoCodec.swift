// The codecs slicevid encodes with, and what each one accepts: its libavcodec encoders in order
// of preference, its quality scale, its speed settings and its pixel formats. Adding a codec is
// adding a case here and naming the containers that carry it in OutputFormat.

/// A video codec (or still-image codec) an output can be encoded with.
package enum VideoCodec: String, Sendable, CaseIterable {
    case h264, hevc, vp9, av1, prores, ffv1, gif, png
    /// JPEG stills (posters, storyboards).
    case mjpeg
    /// WebP stills (posters, storyboards), lossy.
    case webp
    /// Uncompressed frames (YUV4MPEG2), for piping into another encoder.
    case raw = "rawvideo"

    /// The name people know it by.
    package var displayName: String {
        switch self {
        case .h264: "H.264"
        case .hevc: "H.265/HEVC"
        case .vp9: "VP9"
        case .av1: "AV1"
        case .prores: "ProRes"
        case .ffv1: "FFV1"
        case .gif: "GIF"
        case .png: "PNG"
        case .mjpeg: "JPEG"
        case .webp: "WebP"
        case .raw: "raw video"
        }
    }

    /// libavcodec encoders for this codec, preferred first: the first one present is used.
    package var encoders: [String] {
        switch self {
        case .h264: ["libx264"]
        case .hevc: ["libx265"]
        case .vp9: ["libvpx-vp9"]
        // SVT-AV1 is many times faster than libaom at similar quality.
        case .av1: ["libsvtav1", "libaom-av1"]
        case .prores: ["prores_ks"]
        case .ffv1: ["ffv1"]
        case .gif: ["gif"]
        case .png: ["png"]
        case .mjpeg: ["mjpeg"]
        case .webp: ["libwebp"]
        // Hands the AVFrame itself to the muxer: no copy, no encoding.
        case .raw: ["wrapped_avframe"]
        }
    }

    /// Names `--codec` accepts for this codec besides its own: common aliases and encoder names
    /// (an encoder name also chooses that encoder).
    var aliases: [String] {
        switch self {
        case .h264: ["avc", "x264", "libx264"]
        case .hevc: ["h265", "x265", "libx265"]
        case .vp9: ["libvpx-vp9"]
        case .av1: ["svt-av1", "libsvtav1", "aom", "libaom-av1"]
        case .prores: ["prores_ks"]
        default: []
        }
    }

    /// The CRF scale of `encoder`, or nil when the codec has no quality setting (ProRes has
    /// fixed profiles, FFV1 and PNG are lossless, GIF is its palette).
    func crfRange(encoder: String) -> ClosedRange<Int>? {
        switch encoder {
        case "libx264", "libx265": 0...51
        case "libvpx-vp9", "libaom-av1": 0...63
        // SVT-AV1 reads 0 as "not set".
        case "libsvtav1": 1...63
        default: nil
        }
    }

    /// The CRF used when none is given: visually transparent for marketing footage, roughly the
    /// same quality on every codec.
    func defaultCRF(encoder: String) -> Int? {
        switch encoder {
        case "libx264": 18
        case "libx265": 22
        case "libvpx-vp9": 31
        case "libsvtav1": 32
        case "libaom-av1": 30
        default: nil
        }
    }

    /// Whether a target bitrate (instead of a CRF) makes sense for this codec.
    var takesBitrate: Bool { [.h264, .hevc, .vp9, .av1].contains(self) }

    /// The pixel format written when none is asked for.
    func defaultPixelFormat(alpha: Bool) -> String {
        switch self {
        case .h264, .hevc, .av1, .raw: "yuv420p"
        case .vp9: alpha ? "yuva420p" : "yuv420p"
        // 422 HQ is what editors ask for; 4444 is the ProRes that carries alpha.
        case .prores: alpha ? "yuva444p10le" : "yuv422p10le"
        // FFV1 has no 8-bit planar RGB; packed RGB is coded losslessly all the same.
        case .ffv1: alpha ? "bgra" : "bgr0"
        case .gif: "pal8"
        case .png: alpha ? "rgba" : "rgb24"
        // What StillWriter writes: full-range 4:4:4 JPEG (JFIF's BT.601), lossy 4:2:0 WebP.
        case .mjpeg: "yuvj444p"
        case .webp: "yuv420p"
        }
    }

    /// Pixel formats for encoders that do not list their own (`wrapped_avframe` takes anything,
    /// but the YUV4MPEG2 muxer only these).
    var fallbackPixelFormats: [String] {
        self == .raw ? ["yuv420p", "yuv422p", "yuv444p", "gray", "yuv420p10le", "yuv422p10le", "yuv444p10le"] : []
    }

    /// Why `encoder` cannot encode frames of this size, or nil when it can.
    static func sizeRefusal(encoder: String, width: Int, height: Int) -> String? {
        // SVT-AV1 refuses pictures under 64 pixels a side.
        if encoder == "libsvtav1" && (width < 64 || height < 64) { return "libsvtav1 needs at least 64x64" }
        return nil
    }

    /// Whether `encoder` copies each picture into its own memory while `avcodec_send_frame`
    /// runs (x264, x265, libvpx and libaom all copy into their lookahead), so it can be lent a
    /// rendered frame in place instead of a copy. An encoder that keeps references to its input
    /// (frame-threaded ones, `wrapped_avframe`) must not be: the frame's buffer goes back to
    /// the render window as soon as the call returns.
    static func copiesInputOnSend(encoder: String) -> Bool {
        ["libx264", "libx265", "libvpx-vp9", "libaom-av1"].contains(encoder)
    }

    /// Whether `encoder` keeps state the whole process shares and sets it up again in every
    /// open, under instances already encoding: SVT-AV1 1.4 (its function tables and the like,
    /// without a lock). Two such encoders side by side, one opening while the other encoded,
    /// crashed (`batch --parallel 4`, eight 160x90 AV1 outputs: one run in thirteen ended with
    /// "double free or corruption" or a null pointer in libSvtAv1Enc). Their opens and closes
    /// take turns (`CodecContext`), and so do whole renders that use one (`EncoderTurns`).
    package static func sharesProcessState(encoder: String) -> Bool {
        encoder == "libsvtav1"
    }

    /// Whether the codec can keep a transparent background at all.
    package var carriesAlpha: Bool { [.vp9, .prores, .ffv1, .gif, .png].contains(self) }
}

/// A `--codec` value: a codec, and the encoder when the value named one.
public struct CodecChoice: Sendable, Equatable, CustomStringConvertible {
    package let codec: VideoCodec
    /// The encoder asked for by name (`libaom-av1`), or nil to take the first one present.
    package let encoder: String?

    package init(codec: VideoCodec, encoder: String? = nil) {
        self.codec = codec
        self.encoder = encoder
    }

    /// Parses a codec name, alias or encoder name, case-insensitively.
    /// - Returns: nil when the name is none of them.
    package init?(parsing text: String) {
        let name = text.lowercased()
        guard let codec = VideoCodec.allCases.first(where: { $0.rawValue == name || $0.aliases.contains(name) }) else { return nil }
        // Naming an encoder only chooses something when the codec has more than one.
        self.init(codec: codec, encoder: codec.encoders.count > 1 && codec.encoders.contains(name) ? name : nil)
    }

    /// What `--codec` accepts, for help and errors.
    package static let accepted = "h264, hevc (h265), vp9, av1 (or libsvtav1 / libaom-av1 to choose the encoder), prores, ffv1, gif, png"

    public var description: String { encoder ?? codec.rawValue }
}
