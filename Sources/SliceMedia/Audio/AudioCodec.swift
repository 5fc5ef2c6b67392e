// The audio codecs slicevid writes, one per container kind: AAC-LC in MP4/MOV, Opus in WebM,
// FLAC (or Opus) in Matroska. Always 48 kHz stereo.

/// A codec for the music bed.
public enum AudioCodec: String, Sendable, CaseIterable {
    case aac, opus, flac

    /// The libavcodec encoder.
    var encoder: String {
        switch self {
        case .aac: "aac"
        case .opus: "libopus"
        case .flac: "flac"
        }
    }

    /// Bits per second (nil for lossless FLAC).
    package var bitrate: Int? {
        switch self {
        case .aac: 192_000
        case .opus: 128_000
        case .flac: nil
        }
    }

    /// Encoder options. The native AAC encoder's default coder (twoloop) overshoots by several
    /// dB in the first frame after a cut-in; `fast` does not, and costs less.
    var options: [(String, String)] {
        self == .aac ? [("aac_coder", "fast")] : []
    }

    /// What `--dry-run` and errors call it.
    package var displayName: String {
        switch self {
        case .aac: "AAC-LC"
        case .opus: "Opus"
        case .flac: "FLAC"
        }
    }

    /// The codecs a container carries, its default first; empty for outputs with no audio.
    package static func carried(by format: OutputFormat) -> [AudioCodec] {
        switch format {
        case .mp4, .mov: [.aac]
        case .webm: [.opus]
        case .mkv: [.flac, .opus]
        case .gif, .poster, .jpeg, .webp, .pngSequence, .y4m: []
        }
    }

    /// What `audio-codec` accepts, for help and errors.
    static let accepted = "aac (.mp4, .mov), opus (.webm, .mkv) or flac (.mkv, the default there)"
}
