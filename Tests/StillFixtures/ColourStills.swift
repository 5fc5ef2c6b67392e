// Stills with colour information, made by the tests themselves (no media is committed): ICC
// profiles built with Little CMS from their published primaries, a colour chart, PNG and JPEG
// files carrying a profile (FFmpeg's encoders write it from frame side data), HEIC files from
// libheif, PNG chunks spliced in, and the colour difference the tests judge by (CIEDE2000).

import CFFmpeg
import CHeif
import CLcms2
import Foundation
import SliceKit

/// ICC profiles as bytes, built in code.
public enum TestProfiles {
    static let d65 = cmsCIExyY(x: 0.3127, y: 0.3290, Y: 1)

    /// Display P3 (Apple): DCI-P3 primaries, D65, the sRGB curve.
    public static let displayP3 = rgb((0.680, 0.320), (0.265, 0.690), (0.150, 0.060), curve: srgbCurve())
    /// Adobe RGB (1998): its primaries, D65, gamma 563/256.
    public static let adobeRGB = rgb((0.64, 0.33), (0.21, 0.71), (0.15, 0.06), curve: cmsBuildGamma(nil, 563.0 / 256))
    /// sRGB as lcms builds it: an embedded sRGB profile, which must change nothing.
    public static let sRGB = bytes(of: cmsCreate_sRGBProfile())
    /// Grey with gamma 2.2.
    public static let grey22: [UInt8] = {
        var white = d65
        let curve = cmsBuildGamma(nil, 2.2)
        defer { cmsFreeToneCurve(curve) }
        return bytes(of: cmsCreateGrayProfile(&white, curve))
    }()
    /// A CMYK output profile's header and no more: enough for its colour space to show.
    public static let cmyk: [UInt8] = {
        let profile = cmsCreateProfilePlaceholder(nil)
        cmsSetColorSpace(profile, cmsSigCmykData)
        cmsSetDeviceClass(profile, cmsSigOutputClass)
        cmsSetPCS(profile, cmsSigLabData)
        return bytes(of: profile)
    }()

    public static func srgbCurve() -> OpaquePointer? {
        let parameters: [Double] = [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]
        return cmsBuildParametricToneCurve(nil, 4, parameters)
    }

    /// An RGB profile from primaries (D65 white) and one curve (which it frees).
    public static func rgb(_ r: (Double, Double), _ g: (Double, Double), _ b: (Double, Double), curve: OpaquePointer?) -> [UInt8] {
        var white = d65
        var primaries = cmsCIExyYTRIPLE(Red: cmsCIExyY(x: r.0, y: r.1, Y: 1), Green: cmsCIExyY(x: g.0, y: g.1, Y: 1),
                                        Blue: cmsCIExyY(x: b.0, y: b.1, Y: 1))
        var curves = [curve, curve, curve]
        defer { cmsFreeToneCurve(curve) }
        return bytes(of: cmsCreateRGBProfile(&white, &primaries, &curves))
    }

    /// Serialises and closes a profile.
    static func bytes(of profile: UnsafeMutableRawPointer?) -> [UInt8] {
        defer { cmsCloseProfile(profile) }
        var size: UInt32 = 0
        cmsSaveProfileToMem(profile, nil, &size)
        var bytes = [UInt8](repeating: 0, count: Int(size))
        cmsSaveProfileToMem(profile, &bytes, &size)
        return bytes
    }
}

/// A 24-patch chart: primaries, secondaries, greys and photographic colours, 6 × 4 patches.
public enum ColourChart {
    public static let patches: [RGBAColor] = [
        (255, 0, 0), (0, 255, 0), (0, 0, 255), (0, 255, 255), (255, 0, 255), (255, 255, 0),
        (255, 255, 255), (192, 192, 192), (128, 128, 128), (64, 64, 64), (16, 16, 16), (0, 0, 0),
        (115, 82, 68), (194, 150, 130), (98, 122, 157), (87, 108, 67), (133, 128, 177), (103, 189, 170),
        (214, 126, 44), (80, 91, 166), (193, 90, 99), (94, 60, 108), (157, 188, 64), (224, 163, 46),
    ].map { RGBAColor(red: $0.0, green: $0.1, blue: $0.2) }

    /// The chart with patches `patch` pixels square.
    public static func image(patch: Int = 16) -> RGBAImage {
        var image = RGBAImage(width: 6 * patch, height: 4 * patch)
        for y in 0..<image.height {
            for x in 0..<image.width {
                let c = patches[(y / patch) * 6 + x / patch], i = 4 * (y * image.width + x)
                (image.pixels[i], image.pixels[i + 1], image.pixels[i + 2]) = (c.red, c.green, c.blue)
            }
        }
        return image
    }

    /// The centre pixel of each patch of a chart drawn at `patch` pixels a patch.
    public static func centres(of image: RGBAImage, patch: Int = 16) -> [RGBAColor] {
        (0..<24).map { image[($0 % 6) * patch + patch / 2, ($0 / 6) * patch + patch / 2] }
    }

    /// The patches converted from `profile` to sRGB by Little CMS itself (relative
    /// colorimetric with black-point compensation, in doubles, rounded once).
    public static func reference(from profile: [UInt8]) -> [RGBAColor] { reference(of: patches, from: profile) }

    /// `colors` converted from `profile` to sRGB the same way.
    public static func reference(of colors: [RGBAColor], from profile: [UInt8]) -> [RGBAColor] {
        let source = profile.withUnsafeBytes { cmsOpenProfileFromMem($0.baseAddress, UInt32($0.count)) }
        let target = cmsCreate_sRGBProfile()
        defer { cmsCloseProfile(source); cmsCloseProfile(target) }
        let doubles = clcms2_type_rgb_dbl()
        let transform = cmsCreateTransform(source, doubles, target, doubles, UInt32(INTENT_RELATIVE_COLORIMETRIC),
                                           UInt32(cmsFLAGS_BLACKPOINTCOMPENSATION | cmsFLAGS_NOOPTIMIZE))
        defer { cmsDeleteTransform(transform) }
        return colors.map { color in
            let input = [Double(color.red), Double(color.green), Double(color.blue)].map { $0 / 255 }
            var output = [Double](repeating: 0, count: 3)
            cmsDoTransform(transform, input, &output, 1)
            let c = output.map { UInt8(max(0, min(255, ($0 * 255).rounded()))) }
            return RGBAColor(red: c[0], green: c[1], blue: c[2])
        }
    }
}

/// CIEDE2000 between sRGB colours (Lab D50, through Little CMS).
public enum ColourDifference {
    // nonisolated(unsafe): made once, then only run; a NOCACHE transform keeps no state between calls.
    nonisolated(unsafe) private static let toLab: UnsafeMutableRawPointer? = {
        let srgb = cmsCreate_sRGBProfile(), lab = cmsCreateLab4Profile(nil)
        defer { cmsCloseProfile(srgb); cmsCloseProfile(lab) }
        return cmsCreateTransform(srgb, clcms2_type_rgb_8(), lab, clcms2_type_lab_dbl(), UInt32(INTENT_RELATIVE_COLORIMETRIC),
                                  UInt32(cmsFLAGS_NOCACHE))
    }()

    public static func lab(_ c: RGBAColor) -> cmsCIELab {
        var out = cmsCIELab(L: 0, a: 0, b: 0)
        let input = [c.red, c.green, c.blue]
        cmsDoTransform(toLab, input, &out, 1)
        return out
    }

    public static func cie2000(_ a: RGBAColor, _ b: RGBAColor) -> Double {
        var x = lab(a), y = lab(b)
        return cmsCIE2000DeltaE(&x, &y, 1, 1, 1)
    }

    /// Mean and largest CIEDE2000 of pairs.
    public static func summary(_ a: [RGBAColor], _ b: [RGBAColor]) -> (mean: Double, max: Double) {
        let all = zip(a, b).map { cie2000($0, $1) }
        return (all.reduce(0, +) / Double(all.count), all.max() ?? 0)
    }
}

/// Image files written with libavcodec's encoders directly.
public enum FixtureFiles {
    /// `image` as a PNG (RGB, or RGBA with `alpha`) or a JPEG (4:4:4, best quality), with
    /// `profile` attached as frame side data, which both encoders write into the file.
    public static func write(_ image: RGBAImage, to path: String, jpeg: Bool = false, alpha: Bool = false, profile: [UInt8]? = nil) throws {
        let format = jpeg ? AV_PIX_FMT_YUVJ444P : (alpha ? AV_PIX_FMT_RGBA : AV_PIX_FMT_RGB24)
        try encode(image, encoder: jpeg ? "mjpeg" : "png", format: format, profile: profile, to: path)
    }

    /// `image` encoded by libavcodec's `encoder` in `format`, converted from RGBA exactly
    /// where the format allows (point sampling, full chroma).
    static func encode(_ image: RGBAImage, encoder: String, format: AVPixelFormat, profile: [UInt8]?,
                       options: [(String, String)] = [], to path: String) throws {
        try encode(width: image.width, height: image.height, encoder: encoder, format: format, profile: profile,
                   options: options, to: path) { frame in
            let scaler = sws_getContext(Int32(image.width), Int32(image.height), AV_PIX_FMT_RGBA, Int32(image.width), Int32(image.height),
                                        format, SWS_POINT | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT, nil, nil, nil)
            defer { sws_freeContext(scaler) }
            image.pixels.withUnsafeBufferPointer { pixels in
                var source: [UnsafePointer<UInt8>?] = [pixels.baseAddress, nil, nil, nil]
                var strides: [Int32] = [Int32(4 * image.width), 0, 0, 0]
                withUnsafeMutablePointer(to: &frame.pointee.data) { data in
                    withUnsafeMutablePointer(to: &frame.pointee.linesize) { lines in
                        data.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 8) { planes in
                            lines.withMemoryRebound(to: Int32.self, capacity: 8) { sizes in
                                _ = sws_scale(scaler, &source, &strides, 0, Int32(image.height), planes, sizes)
                            }
                        }
                    }
                }
            }
        }
    }

    /// A 16-bit RGB PNG whose samples are `sample(x, y, channel)`.
    public static func png16(width: Int, height: Int, to path: String, sample: (Int, Int, Int) -> UInt16) throws {
        try encode(width: width, height: height, encoder: "png", format: AV_PIX_FMT_RGB48BE, profile: nil, to: path) { frame in
            for y in 0..<height {
                let row = UnsafeMutableRawPointer(frame.pointee.data.0! + y * Int(frame.pointee.linesize.0)).assumingMemoryBound(to: UInt16.self)
                for x in 0..<width { for c in 0..<3 { row[3 * x + c] = sample(x, y, c).bigEndian } }
            }
        }
    }

    /// Encodes one picture that `fill` draws and writes the packets as the file.
    static func encode(width: Int, height: Int, encoder name: String, format: AVPixelFormat, profile: [UInt8]?,
                       options: [(String, String)] = [], to path: String, fill: (UnsafeMutablePointer<AVFrame>) -> Void) throws {
        guard let encoder = avcodec_find_encoder_by_name(name) else { throw FixtureError("no \(name) encoder") }
        var codec = avcodec_alloc_context3(encoder)
        defer { avcodec_free_context(&codec) }
        codec!.pointee.width = Int32(width)
        codec!.pointee.height = Int32(height)
        codec!.pointee.pix_fmt = format
        codec!.pointee.time_base = AVRational(num: 1, den: 25)
        if name == "mjpeg" {
            codec!.pointee.color_range = AVCOL_RANGE_JPEG
            codec!.pointee.flags |= AV_CODEC_FLAG_QSCALE
            codec!.pointee.global_quality = FF_QP2LAMBDA
        }
        var dictionary: OpaquePointer?
        defer { av_dict_free(&dictionary) }
        for (key, value) in options { av_dict_set(&dictionary, key, value, 0) }
        guard avcodec_open2(codec, encoder, &dictionary) >= 0 else { throw FixtureError("cannot open \(name)") }
        var frame = av_frame_alloc()
        defer { av_frame_free(&frame) }
        frame!.pointee.format = format.rawValue
        frame!.pointee.width = Int32(width)
        frame!.pointee.height = Int32(height)
        frame!.pointee.quality = codec!.pointee.global_quality
        guard av_frame_get_buffer(frame, 0) >= 0 else { throw FixtureError("no frame buffer") }
        fill(frame!)
        if let profile, let side = av_frame_new_side_data(frame, AV_FRAME_DATA_ICC_PROFILE, profile.count) {
            side.pointee.data.update(from: profile, count: profile.count)
        }
        guard avcodec_send_frame(codec, frame) >= 0, avcodec_send_frame(codec, nil) >= 0 else { throw FixtureError("\(name) refused the picture") }
        var packet = av_packet_alloc()
        defer { av_packet_free(&packet) }
        var bytes: [UInt8] = []
        while avcodec_receive_packet(codec, packet) >= 0 {
            bytes += UnsafeBufferPointer(start: packet!.pointee.data, count: Int(packet!.pointee.size))
            av_packet_unref(packet)
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    /// The PNG at `path` with a chunk of `type` inserted right after IHDR.
    public static func splice(png path: String, chunk type: String, data: [UInt8]) throws {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let body = Array(type.utf8) + data
        let crc = UInt32(body.withUnsafeBufferPointer { crc32(0, $0.baseAddress, UInt32($0.count)) })
        bytes.insert(contentsOf: be32(UInt32(data.count)) + body + be32(crc), at: 33)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    /// A big-endian EXIF block holding only an Orientation tag.
    public static func exif(orientation: Int) -> [UInt8] {
        [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, UInt8(orientation), 0, 0, 0, 0, 0, 0]
    }

    /// A 32-bit big-endian number, as PNG chunks hold them.
    public static func be32(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> UInt32($0)) } }
}

/// A failure of a fixture's own making.
public struct FixtureError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// HEIC (x265) and AVIF (aom, 8-bit only: its 10-bit path aborts) files written with libheif.
public enum HEIFWriter {
    public struct Tags {
        public var primaries: UInt16, transfer: UInt16, matrix: UInt16, fullRange: Bool
        public init(primaries: UInt16, transfer: UInt16, matrix: UInt16, fullRange: Bool) {
            (self.primaries, self.transfer, self.matrix, self.fullRange) = (primaries, transfer, matrix, fullRange)
        }
    }

    /// Writes an 8-bit picture (alpha kept when `alpha`) or, with `deep`, its samples as 10-bit.
    public static func heic(_ image: RGBAImage, to path: String, alpha: Bool = false, profile: [UInt8]? = nil,
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
