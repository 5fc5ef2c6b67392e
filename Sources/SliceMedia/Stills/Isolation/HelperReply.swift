// A decode helper's answer, as it lies in the memory file it hands back: eight bytes of magic,
// the length of a small JSON header, the header, then the ICC profile and the picture's planes
// at the offsets the header gives. The header describes the picture (or the refusal, or
// probe's facts); the parent checks every number in it before using one.

import Foundation

/// The header of a helper's answer.
struct HelperReply: Codable {
    /// Where bytes of the answer lie: `count` bytes from `offset`.
    struct Span: Codable, Equatable {
        var offset: Int
        var count: Int
    }

    /// Why the still was refused, as the decoder in the helper said it.
    struct Refusal: Codable {
        /// `MediaError.Kind`'s name: missing, invalid, unavailable, output.
        var kind: String
        /// The message, without the file's name (the parent puts its own in front).
        var message: String
    }

    /// What its colours mean: a profile, tagged primaries and curve, or neither (sRGB).
    struct Colour: Codable {
        var profile: Span?
        /// Red, green, blue and white x, y.
        var primaries: [Double]?
        /// The power-law exponent; nil for the sRGB curve.
        var gamma: Double?
    }

    /// A decoded still: the fields of `DecodedStill` and of its frame that the still's way
    /// reads. Planes are laid out by `PictureLayout` from the format and size.
    struct Picture: Codable {
        var width: Int
        var height: Int
        /// libavutil's name for the pixel format (`rgba`, `yuv420p10le`).
        var pixelFormat: String
        /// `AVColorRange` and `AVColorSpace` numbers, which libswscale reads YUV by.
        var range: Int
        var matrix: Int
        /// The EXIF orientation, 1…8.
        var orientation: Int
        var premultiplied: Bool
        var colour: Colour
        /// Which format it was ("SVG", "HEIC"…), for messages.
        var format: String
        /// Where the first plane starts: a whole page into the file.
        var pixels: Int
    }

    /// What `probe` says of a file (`MediaInfo`'s fields).
    struct Facts: Codable {
        var container: String, codec: String, profile: String?, tag: String
        var width: Int, height: Int, pixelFormat: String, alpha: Bool
        var primaries: String, transfer: String, space: String, range: String
        var frameRate: Double, frames: Int, duration: Double
        var rate: [Int]?
        var audioCodec: String?, audioRate: Int?, audioChannels: Int?, audioDuration: Double?
    }

    var refusal: Refusal?
    var picture: Picture?
    var facts: Facts?

    /// The first eight bytes of every answer.
    static let magic = Array("SVDECODE".utf8)
    /// The most bytes of JSON header a parent reads: far more than any real header needs.
    static let largestHeader = 64 << 10
    /// Where the JSON header starts: after the magic and its 8-byte little-endian length.
    static let headerOffset = 16
}
