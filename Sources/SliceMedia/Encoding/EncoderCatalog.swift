// Which encoders this machine's libavcodec has, and the pixel formats each takes. Debian's
// FFmpeg has them all; other builds may not, and tests stand in for those with `missing`.

import CFFmpeg

/// The encoders available to slicevid.
package struct EncoderCatalog: Sendable {
    /// Encoders to treat as absent even if libavcodec has them: how tests check the fallbacks
    /// and the "encoder missing" errors on a machine that has everything.
    package var missing: Set<String>

    /// What this process's libavcodec offers.
    package static let installed = EncoderCatalog(missing: [])

    package init(missing: Set<String>) {
        self.missing = missing
    }

    /// Whether `encoder` can be used.
    package func has(_ encoder: String) -> Bool {
        !missing.contains(encoder) && avcodec_find_encoder_by_name(encoder) != nil
    }

    /// The pixel formats `encoder` lists, by FFmpeg name, or nil when it lists none (takes any).
    func pixelFormats(of encoder: String) -> [String]? {
        guard let codec = avcodec_find_encoder_by_name(encoder), var format = codec.pointee.pix_fmts else { return nil }
        var names: [String] = []
        while format.pointee != AV_PIX_FMT_NONE {
            names.append(pixelFormatName(format.pointee))
            format += 1
        }
        return names
    }
}
