// HEIC and AVIF stills through libheif, which (unlike FFmpeg 5.1) reads HEIC at all and keeps an
// AVIF's ICC profile, alpha and irot/imir. Runs only in a decode helper (libheif asserts). The primary image is decoded upright (libheif applies
// the file's rotation and mirroring itself, so its EXIF orientation is not applied again) into
// an FFmpeg frame the rest of the still's way shares with every other format.

import CFFmpeg
import CHeif

/// Reads HEIF stills with libheif.
enum HEIFReader {
    /// Whether libheif is there, opened and initialised: once for the process, on the first
    /// HEIF (or list of accepted formats), never for runs of other stills.
    private static let ready: Bool = slicevid_heif_load() != 0 && slicevid_heif_init(nil).code == heif_error_Ok

    /// Why a HEIC cannot be read on this machine when libheif did not load (it is opened, not
    /// linked, so a machine without it still runs); nil when it did.
    static func missingLibrary(path: String) -> MediaError? {
        guard !ready else { return nil }
        let why = String(cString: slicevid_heif_error())
        return MediaError(.unavailable, subject: path,
                          message: "is HEIC, which needs libheif.so.1, and it did not load (\(FFmpegLog.quoted(why.isEmpty ? "heif_init failed" : why))); install libheif1")
    }

    /// Which compressions this build's libheif can decode.
    static var decodesHEVC: Bool { ready && slicevid_heif_have_decoder_for_format(heif_compression_HEVC) != 0 }
    static var decodesAV1: Bool { ready && slicevid_heif_have_decoder_for_format(heif_compression_AV1) != 0 }

    /// The format's name when `head` (a file's first bytes) starts a HEIF this reader takes:
    /// HEIC, or AVIF when libheif has an AV1 decoder (without one FFmpeg reads AVIF); nil otherwise.
    static func format(of head: [UInt8]) -> String? {
        // Every HEIF starts with an ftyp box; anything else never wakes libheif (its start-up
        // loads its codec plugins, which a run of JPEGs and PNGs has no use for).
        guard head.count >= 12, Array(head[4..<8]) == Array("ftyp".utf8), ready else { return nil }
        guard slicevid_heif_check_filetype(head, Int32(head.count)) == heif_filetype_yes_supported else { return nil }
        let mime = slicevid_heif_get_file_mime_type(head, Int32(head.count)).map { String(cString: $0) } ?? ""
        if mime.hasPrefix("image/avif") { return decodesAV1 ? "AVIF" : nil }
        return decodesHEVC ? "HEIC" : nil
    }

    /// Decodes the primary image of the HEIF `file` (called `path` in messages).
    /// - Returns: nil when the file's boxes are not a HEIF libheif reads and the format is one
    ///   FFmpeg reads too (AVIF), so that FFmpeg has its say.
    /// - Throws: `MediaError(.inputInvalid)`: too large, damaged, HDR or an unusable profile.
    static func decode(_ file: InputFile, path: String, format: String) throws(MediaError) -> DecodedStill? {
        guard ready else { return nil }
        func damaged(_ error: heif_error) -> MediaError {
            let reason = error.message.map { FFmpegLog.quoted(String(cString: $0)) } ?? "error \(error.code.rawValue)"
            return MediaError(.inputInvalid, subject: path, message: "is truncated or corrupt (libheif: \(reason))")
        }
        // The reader's callbacks must outlive the context, which reads through them until freed.
        let reader = HEIFFileReader(file)
        guard let context = slicevid_heif_context_alloc() else { throw MediaError.outOfMemory(subject: path) }
        defer {
            slicevid_heif_context_free(context)
            withExtendedLifetime(reader) {}
        }
        // Sides only: the pixel count is checked below, before anything is decoded.
        slicevid_heif_context_set_maximum_image_size_limit(context, Int32(StillLimits.maxSide))
        var error = slicevid_heif_context_read_from_reader(context, reader.callbacks, reader.userData, nil)
        if error.code == heif_error_Invalid_input && format == "AVIF" { return nil }
        guard error.code == heif_error_Ok else { throw damaged(error) }
        var handle: OpaquePointer?
        error = slicevid_heif_context_get_primary_image_handle(context, &handle)
        guard error.code == heif_error_Ok, let handle else { throw damaged(error) }
        defer { slicevid_heif_image_handle_release(handle) }
        try StillLimits.check(width: Int(slicevid_heif_image_handle_get_width(handle)), height: Int(slicevid_heif_image_handle_get_height(handle)), path: path)

        let colour: StillColour
        do {
            colour = try Self.colour(of: handle)
        } catch {
            throw MediaError(.inputInvalid, subject: path, message: error.message)
        }
        let alpha = slicevid_heif_image_handle_has_alpha_channel(handle) != 0
        let deep = slicevid_heif_image_handle_get_luma_bits_per_pixel(handle) > 8
        guard let options = slicevid_heif_decoding_options_alloc() else { throw MediaError.outOfMemory(subject: path) }
        defer { slicevid_heif_decoding_options_free(options) }
        options.pointee.ignore_transformations = 0
        options.pointee.convert_hdr_to_8bit = 0
        options.pointee.strict_decoding = 1
        let chroma = deep ? (alpha ? heif_chroma_interleaved_RRGGBBAA_LE : heif_chroma_interleaved_RRGGBB_LE)
                          : (alpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB)
        var image: OpaquePointer?
        error = slicevid_heif_decode_image(handle, &image, heif_colorspace_RGB, chroma, options)
        guard error.code == heif_error_Ok, let image else { throw damaged(error) }
        defer { slicevid_heif_image_release(image) }
        var warning = heif_error(code: heif_error_Ok, subcode: heif_suberror_Unspecified, message: nil)
        if slicevid_heif_image_get_decoding_warnings(image, 0, &warning, 1) > 0 { throw damaged(warning) }

        let picture = try frame(of: image, alpha: alpha, deep: deep, path: path)
        return DecodedStill(picture: picture, orientation: .upright, colour: colour,
                            premultiplied: alpha && slicevid_heif_image_handle_is_premultiplied_alpha(handle) != 0, format: format)
    }

    /// The image's ICC profile, else its nclx tags, else sRGB; HDR refused.
    private static func colour(of handle: OpaquePointer) throws(ColourRefusal) -> StillColour {
        var tagged = StillColour.sRGB
        var nclx: UnsafeMutablePointer<heif_color_profile_nclx>?
        if slicevid_heif_image_handle_get_nclx_color_profile(handle, &nclx).code == heif_error_Ok, let profile = nclx?.pointee {
            defer { slicevid_heif_nclx_color_profile_free(nclx) }
            let primaries = Chromaticities(red: (Double(profile.color_primary_red_x), Double(profile.color_primary_red_y)),
                                           green: (Double(profile.color_primary_green_x), Double(profile.color_primary_green_y)),
                                           blue: (Double(profile.color_primary_blue_x), Double(profile.color_primary_blue_y)),
                                           white: (Double(profile.color_primary_white_x), Double(profile.color_primary_white_y)))
            let code = Int(profile.color_primaries.rawValue)
            // Codes for BT.709 or nothing keep sRGB's primaries exactly rather than floats near them.
            let standard = code == 1 || code == 2
            tagged = try StillColour.tagged(primaries: code, transfer: Int(profile.transfer_characteristics.rawValue),
                                            chromaticities: standard ? nil : primaries)
        }
        let size = slicevid_heif_image_handle_get_raw_color_profile_size(handle)
        guard size > 0 else { return tagged }
        guard size <= StillColour.largestProfile else {
            throw ColourRefusal(message: "carries an ICC colour profile of \(size) bytes, more than the \(StillColour.largestProfile >> 20) MiB slicevid reads")
        }
        var bytes = [UInt8](repeating: 0, count: size)
        guard slicevid_heif_image_handle_get_raw_color_profile(handle, &bytes).code == heif_error_Ok else { return tagged }
        return .profile(bytes)
    }

    /// The decoded image as an FFmpeg frame: RGB24/RGBA at 8 bits, or planar GBR(A)P16 with
    /// libheif's 10- or 12-bit values scaled to 16 bits by the range it reports.
    private static func frame(of image: OpaquePointer, alpha: Bool, deep: Bool, path: String) throws(MediaError) -> Frame {
        var stride: Int32 = 0
        guard let data = slicevid_heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride) else {
            throw MediaError(.inputInvalid, subject: path, message: "is truncated or corrupt (libheif returned no picture)")
        }
        let width = Int(slicevid_heif_image_get_width(image, heif_channel_interleaved))
        let height = Int(slicevid_heif_image_get_height(image, heif_channel_interleaved))
        let frame = try Frame(subject: path)
        let format = deep ? (alpha ? AV_PIX_FMT_GBRAP16LE : AV_PIX_FMT_GBRP16LE) : (alpha ? AV_PIX_FMT_RGBA : AV_PIX_FMT_RGB24)
        frame.pointer.pointee.format = format.rawValue
        frame.pointer.pointee.width = Int32(width)
        frame.pointer.pointee.height = Int32(height)
        frame.pointer.pointee.color_range = AVCOL_RANGE_JPEG
        try frame.allocateBuffer(subject: path)
        let channels = alpha ? 4 : 3
        let planes = frame.planes(count: channels)
        if !deep {
            guard let target = planes.data[0] else { throw MediaError.outOfMemory(subject: path) }
            for y in 0..<height {
                (target + y * Int(planes.strides[0])).update(from: data + y * Int(stride), count: width * channels)
            }
            return frame
        }
        let bits = Int(slicevid_heif_image_get_bits_per_pixel_range(image, heif_channel_interleaved))
        let top = UInt32((1 << max(1, min(16, bits))) - 1)
        // GBR(A) plane order: R goes to plane 2, G to 0, B to 1, A to 3.
        let planeOf = [2, 0, 1, 3]
        for y in 0..<height {
            let row = UnsafeRawPointer(data + y * Int(stride))
            for c in 0..<channels {
                guard let base = planes.data[planeOf[c]] else { throw MediaError.outOfMemory(subject: path) }
                let to = UnsafeMutableRawPointer(base + y * Int(planes.strides[planeOf[c]])).assumingMemoryBound(to: UInt16.self)
                for x in 0..<width {
                    let value = min(top, UInt32(UInt16(littleEndian: row.loadUnaligned(fromByteOffset: 2 * (x * channels + c), as: UInt16.self))))
                    to[x] = UInt16((value * 65535 + top / 2) / top).littleEndian
                }
            }
        }
        return frame
    }
}

/// libheif's reader callbacks over an `InputFile`: the very descriptor that was checked to be a
/// regular file. Reads never fail because the run was stopped (libheif 1.15 asserts that they
/// succeed, and aborted the whole process); libheif runs only in a decode helper, which the
/// parent kills instead.
private final class HEIFFileReader {
    let file: InputFile
    let callbacks: UnsafeMutablePointer<heif_reader>

    init(_ file: InputFile) {
        self.file = file
        callbacks = .allocate(capacity: 1)
        callbacks.initialize(to: heif_reader(
            reader_api_version: 1,
            get_position: { HEIFFileReader.file(of: $0).readPosition },
            read: { data, size, userData in
                // An empty read (an AVIF's av1C with no config OBUs) may come with no buffer at all.
                if size == 0 { return 0 }
                guard let data else { return 1 }
                return HEIFFileReader.file(of: userData).readFully(into: data, count: size) ? 0 : 1
            },
            seek: { position, userData in
                let file = HEIFFileReader.file(of: userData)
                guard position >= 0, position <= file.size else { return 1 }
                file.readPosition = position
                return 0
            },
            wait_for_file_size: { target, userData in
                target <= HEIFFileReader.file(of: userData).size ? heif_reader_grow_status_size_reached
                                                                 : heif_reader_grow_status_size_beyond_eof
            }))
    }

    deinit { callbacks.deallocate() }

    /// The user data libheif hands back: the file, unretained (this reader holds it, and
    /// outlives the context that calls it).
    var userData: UnsafeMutableRawPointer { Unmanaged.passUnretained(file).toOpaque() }

    static func file(of userData: UnsafeMutableRawPointer?) -> InputFile {
        Unmanaged<InputFile>.fromOpaque(userData!).takeUnretainedValue()
    }
}
