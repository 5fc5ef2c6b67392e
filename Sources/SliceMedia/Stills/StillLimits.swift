// The largest still slicevid decodes. Checked against the size a still's header declares before
// FFmpeg decodes (or allocates) anything, and handed to the decoder as its own pixel limit.

import CFFmpeg

/// Size limits for stills.
package enum StillLimits {
    /// Pixels on a side: JPEG's own maximum, and far past any frame slicevid renders.
    package static let maxSide = 65_535
    /// Pixels in all: 100 megapixels (a 400 MB picture once decoded to RGBA). It also bounds
    /// the one step of decoding that cannot be interrupted: FFmpeg decoding a picture.
    package static let maxPixels = 100_000_000

    /// What the decoder's own pixel limit (`max_pixels`) allows beyond `maxPixels`: FFmpeg
    /// checks it against the width rounded up to its row alignment (up to 64 pixels), so a
    /// still of exactly `maxPixels` would fail there. Our limit is checked on the decoded
    /// size itself.
    static let decoderMaxPixels = Int64(maxPixels + 64 * maxSide)

    /// How the limits read in a message.
    static let description = "at most 100 megapixels and 65535 pixels on a side"

    /// Refuses a still of `width` × `height` pixels that is larger than these limits or than
    /// FFmpeg's own (`av_image_check_size2`).
    /// - Throws: `MediaError(.inputInvalid)` naming the file, its size and the limit.
    static func check(width: Int, height: Int, path: String) throws(MediaError) {
        guard width > 0, height > 0 else {
            throw MediaError(.inputInvalid, subject: path, message: "is truncated or corrupt (declares a \(width)x\(height) picture)")
        }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard width <= maxSide, height <= maxSide, !overflow, pixels <= maxPixels else {
            throw MediaError(.inputInvalid, subject: path,
                             message: "is \(width)x\(height) pixels, larger than slicevid decodes (\(description))")
        }
        guard av_image_check_size2(UInt32(width), UInt32(height), Int64.max, AV_PIX_FMT_NONE, 0, nil) >= 0 else {
            throw MediaError(.inputInvalid, subject: path,
                             message: "is \(width)x\(height) pixels, larger than FFmpeg decodes")
        }
    }
}
