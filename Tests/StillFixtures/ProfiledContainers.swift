// WebP and TIFF stills carrying an ICC profile, for formats whose FFmpeg encoders drop it: a
// lossless WebP wrapped in the extended (VP8X) form with an ICCP chunk, and a minimal
// uncompressed TIFF written here with tag 34675.

import CFFmpeg
import Foundation
import SliceKit

extension FixtureFiles {
    /// `image` as a simple lossless WebP (libwebp): RIFF, then one VP8L chunk.
    package static func losslessWebP(_ image: RGBAImage, to path: String) throws {
        try encode(image, encoder: "libwebp", format: AV_PIX_FMT_BGRA, profile: nil, options: [("lossless", "1")], to: path)
    }

    /// `image` as a lossless WebP (libwebp), with `profile` in an ICCP chunk.
    package static func webp(_ image: RGBAImage, to path: String, profile: [UInt8]) throws {
        try encode(image, encoder: "libwebp", format: AV_PIX_FMT_BGRA, profile: nil, options: [("lossless", "1")], to: path)
        let simple = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        guard simple.count > 20, Array(simple[12..<16]) == Array("VP8L".utf8) || Array(simple[12..<16]) == Array("VP8 ".utf8) else {
            throw FixtureError("libwebp wrote no simple WebP")
        }
        // VP8X: flag 0x20 says an ICC profile follows; canvas width and height minus one, 24 bits each.
        let (w, h) = (UInt32(image.width - 1), UInt32(image.height - 1))
        let extended: [UInt8] = [0x20, 0, 0, 0] + le(w, bytes: 3) + le(h, bytes: 3)
        let chunks = chunk("VP8X", extended) + chunk("ICCP", profile) + Array(simple[12...])
        try Data(Array("RIFF".utf8) + le(UInt32(4 + chunks.count), bytes: 4) + Array("WEBP".utf8) + chunks)
            .write(to: URL(fileURLWithPath: path))
    }

    /// `image` as an uncompressed 8-bit RGB TIFF in one strip, little-endian, with `profile`
    /// and, unless nil, an Orientation tag (274).
    package static func tiff(_ image: RGBAImage, to path: String, profile: [UInt8], orientation: Int? = nil) throws {
        let tags = orientation == nil ? 11 : 12, directory = 8
        let bitsOffset = directory + 2 + 12 * tags + 4, profileOffset = bitsOffset + 6
        let pixelsOffset = profileOffset + profile.count + profile.count % 2
        let pixelBytes = image.width * image.height * 3
        func entry(_ tag: UInt32, _ type: UInt32, _ count: Int, _ value: Int) -> [UInt8] {
            le(tag, bytes: 2) + le(type, bytes: 2) + le(UInt32(count), bytes: 4)
                + (type == 3 && count == 1 ? le(UInt32(value), bytes: 2) + [0, 0] : le(UInt32(value), bytes: 4))
        }
        var bytes: [UInt8] = Array("II".utf8) + [42, 0] + le(UInt32(directory), bytes: 4) + le(UInt32(tags), bytes: 2)
        bytes += entry(256, 4, 1, image.width) + entry(257, 4, 1, image.height) + entry(258, 3, 3, bitsOffset)
        bytes += entry(259, 3, 1, 1) + entry(262, 3, 1, 2) + entry(273, 4, 1, pixelsOffset)
            + (orientation.map { entry(274, 3, 1, $0) } ?? []) + entry(277, 3, 1, 3)
        bytes += entry(278, 4, 1, image.height) + entry(279, 4, 1, pixelBytes) + entry(284, 3, 1, 1)
        bytes += entry(34675, 7, profile.count, profileOffset) + [0, 0, 0, 0]
        bytes += [8, 0, 8, 0, 8, 0] + profile + (profile.count % 2 == 1 ? [0] : [])
        for i in 0..<(image.width * image.height) { bytes += image.pixels[4 * i..<4 * i + 3] }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    /// A RIFF chunk: its type, little-endian size, data and a pad byte to an even length.
    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        Array(type.utf8) + le(UInt32(data.count), bytes: 4) + data + (data.count % 2 == 1 ? [0] : [])
    }

    private static func le(_ value: UInt32, bytes: Int) -> [UInt8] {
        (0..<bytes).map { UInt8(truncatingIfNeeded: value >> UInt32(8 * $0)) }
    }
}
