// HEIC and AVIF stills written by the tests with libheif: a profile, nclx tags, an
// orientation (irot/imir), alpha, 10-bit samples.

import CHeif
import SliceKit

/// HEIC (x265) and AVIF (aom, 8-bit only: its 10-bit path aborts) files written with libheif.
package enum HEIFWriter {
    package struct Tags {
        package var primaries: UInt16, transfer: UInt16, matrix: UInt16, fullRange: Bool
        package init(primaries: UInt16, transfer: UInt16, matrix: UInt16, fullRange: Bool) {
            (self.primaries, self.transfer, self.matrix, self.fullRange) = (primaries, transfer, matrix, fullRange)
        }
    }

    /// Writes an 8-bit picture (alpha kept when `alpha`) or, with `deep`, its samples as 10-bit.
    package static func heic(_ image: RGBAImage, to path: String, alpha: Bool = false, profile: [UInt8]? = nil,
                     orientation: heif_orientation = heif_orientation_normal, tags: Tags? = nil,
                     deep: Bool = false, lossless: Bool = true, compression: heif_compression_format = heif_compression_HEVC) throws {
        _ = heif_init(nil)
        let chroma = deep ? (alpha ? heif_chroma_interleaved_RRGGBBAA_LE : heif_chroma_interleaved_RRGGBB_LE)
                          : (alpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB)
        var picture: OpaquePointer?
        try check(heif_image_create(Int32(image.width), Int32(image.height), heif_colorspace_RGB, chroma, &picture))
        defer { heif_image_release(picture) }
        try check(heif_image_add_plane(picture, heif_channel_interleaved, Int32(image.width), Int32(image.height), deep ? 10 : 8))
        var stride: Int32 = 0
        let data = heif_image_get_plane(picture, heif_channel_interleaved, &stride)!
        let channels = alpha ? 4 : 3
        for y in 0..<image.height {
            for x in 0..<image.width {
                for c in 0..<channels {
                    let v = image.pixels[4 * (y * image.width + x) + c]
                    if deep {
                        let word = UInt16((Int(v) * 1023 + 127) / 255).littleEndian
                        UnsafeMutableRawPointer(data + Int(stride) * y).storeBytes(of: word, toByteOffset: 2 * (x * channels + c), as: UInt16.self)
                    } else {
                        data[Int(stride) * y + x * channels + c] = v
                    }
                }
            }
        }
        if let profile { try check(heif_image_set_raw_color_profile(picture, "prof", profile, profile.count)) }
        var nclx: UnsafeMutablePointer<heif_color_profile_nclx>?
        if let tags {
            nclx = heif_nclx_color_profile_alloc()
            _ = heif_nclx_color_profile_set_color_primaries(nclx, tags.primaries)
            _ = heif_nclx_color_profile_set_transfer_characteristics(nclx, tags.transfer)
            _ = heif_nclx_color_profile_set_matrix_coefficients(nclx, tags.matrix)
            nclx?.pointee.full_range_flag = tags.fullRange ? 1 : 0
            try check(heif_image_set_nclx_color_profile(picture, nclx))
        }
        defer { if let nclx { heif_nclx_color_profile_free(nclx) } }
        let context = heif_context_alloc()
        defer { heif_context_free(context) }
        var encoder: OpaquePointer?
        try check(heif_context_get_encoder_for_format(context, compression, &encoder))
        defer { heif_encoder_release(encoder) }
        if lossless { try check(heif_encoder_set_lossless(encoder, 1)) } else { try check(heif_encoder_set_lossy_quality(encoder, 95)) }
        _ = heif_encoder_set_parameter(encoder, "chroma", lossless ? "444" : "420")
        _ = heif_encoder_set_parameter(encoder, "preset", "ultrafast")
        let options = heif_encoding_options_alloc()!
        defer { heif_encoding_options_free(options) }
        options.pointee.image_orientation = orientation
        if let nclx {
            // libheif 1.15 writes no nclx box for HEVC unless told to.
            options.pointee.output_nclx_profile = nclx
            options.pointee.macOS_compatibility_workaround_no_nclx_profile = 0
        }
        try check(heif_context_encode_image(context, picture, encoder, options, nil))
        try check(heif_context_write_to_file(context, path))
    }

    private static func check(_ error: heif_error) throws {
        guard error.code == heif_error_Ok else { throw FixtureError("libheif: \(String(cString: error.message))") }
    }
}
