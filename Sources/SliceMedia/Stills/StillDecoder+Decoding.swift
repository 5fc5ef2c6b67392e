// A still's way in, strictly: a regular file (never a FIFO or a device), sent to a decode helper
// if its decoder can abort (StillRoute), a header within the size limits, then FFmpeg's decoder
// with every error it can report turned on. A still the
// decoder finds anything wrong with — an error return, an error it logs against this still, a
// concealed or corrupt picture, data that ends before the picture does — is refused, never
// drawn half-decoded.

import CFFmpeg
import SliceKit

extension StillDecoder {
    /// A still drawn at any size (SVG): the frame it is shown in and how it fits there, which
    /// decide the size it is drawn at.
    struct Raster: Equatable {
        var frame: (width: Int, height: Int)
        var fit: FitMode

        /// The size to draw a still of `own` size at; nil keeps its own.
        func size(own: (width: Int, height: Int)) -> (width: Int, height: Int)? {
            StillDecoder.rasterSize(own, frame: frame, fit: fit)
        }

        static func == (a: Raster, b: Raster) -> Bool { a.frame == b.frame && a.fit == b.fit }
    }

    /// The still at `path`, decoded strictly and described: PNG, JPEG, WebP, BMP, TIFF and GIF
    /// in this process by FFmpeg; SVG, HEIC, AVIF and JPEG XL, whose decoders can abort, in a
    /// decode helper (see `StillRoute`).
    /// - Parameters:
    ///   - raster: for a still drawn at any size (SVG): the frame it is shown in; nil draws it
    ///     at its own size.
    ///   - isCancelled: polled before every read and between packets, and while a helper runs;
    ///     once it says yes the decode stops (a picture already inside one of FFmpeg's decoders
    ///     finishes first; a helper is killed).
    /// - Throws: `MediaError`: `.inputMissing` (missing, unreadable, not a regular file) or
    ///   `.inputInvalid` (not an image, too large, damaged, HDR, an unusable profile, a helper
    ///   that died, or stopped), naming the file; `.unavailable` for a HEIC on a machine
    ///   without libheif, or an isolated format with no helper set up.
    static func decode(path: String, raster: Raster? = nil,
                       isCancelled: @escaping @Sendable () -> Bool) throws(MediaError) -> DecodedStill {
        let file = try InputFile(path: path, isCancelled: isCancelled)
        if case .helper(let format) = StillRoute(file) {
            return try IsolatedDecode.still(file, format: format, raster: raster, isCancelled: isCancelled)
        }
        let header = StillHeader(reading: file)
        if let still = try decode(file, header: header, raster: raster, inHelper: false, isCancelled: isCancelled) { return still }
        // FFmpeg took it for a format whose decoder runs only in a helper (by its name: an
        // `x.svg` that does not start like SVG): it goes there.
        return try IsolatedDecode.still(file, format: header.format?.rawValue ?? "image", raster: raster, isCancelled: isCancelled)
    }

    /// The still `file`, decoded in this process, which is a decode helper: HEIC and AVIF
    /// through libheif, an SVGZ inflated within its limit, the rest through FFmpeg.
    static func decodeInHelper(_ file: InputFile, raster: Raster?) throws(MediaError) -> DecodedStill {
        var file = file
        if let format = HEIFReader.format(of: file.bytes(at: 0, count: 64)) {
            if let still = try HEIFReader.decode(file, path: file.path, format: format) { return still }
            file.readPosition = 0
        }
        if CompressedSVG.isGzip(file) { file = try CompressedSVG.inflated(file) }
        let header = StillHeader(reading: file)
        if header.format == .svg { try CompressedSVG.checkSize(file) }
        // FFmpeg would call it damaged: the machine lacks the library, not the file its bytes.
        if header.format == .heic, let missing = HEIFReader.missingLibrary(path: file.path) { throw missing }
        guard let still = try decode(file, header: header, raster: raster, inHelper: true, isCancelled: { false }) else {
            throw MediaError(.inputInvalid, subject: file.path, message: "is not a readable image (accepted: \(StillHeader.Format.names))")
        }
        return still
    }

    /// `file` decoded by FFmpeg here; nil when that needs a decoder that runs only in a helper
    /// and this process is not one.
    private static func decode(_ file: InputFile, header: StillHeader, raster: Raster?, inHelper: Bool,
                               isCancelled: @escaping @Sendable () -> Bool) throws(MediaError) -> DecodedStill? {
        guard var picture = try decodeFirstFrame(file: file, header: header, inHelper: inHelper, isCancelled: isCancelled) else {
            return nil
        }
        if header.format == .svg, let size = raster?.size(own: (picture.width, picture.height)),
           size.width != picture.width || size.height != picture.height {
            // librsvg draws at any size: drawn again at the size it is shown, never scaled up.
            try file.rewind()
            guard let drawn = try decodeFirstFrame(file: file, header: header, inHelper: inHelper, isCancelled: isCancelled,
                                                   options: [("width", String(size.width)), ("height", String(size.height)),
                                                             ("keep_ar", "0")]) else { return nil }
            picture = drawn
        }
        return try DecodedStill(ffmpeg: picture, header: header, file: file, path: file.path)
    }

    /// The first picture of the still at `path`, decoded strictly (tests look at it directly).
    static func decodeFirstFrame(path: String, isCancelled: @escaping @Sendable () -> Bool) throws(MediaError) -> Frame {
        try decode(path: path, isCancelled: isCancelled).picture
    }

    /// The checks a still meets before any decoder runs, for a dry run: a regular file this
    /// process may read; a declared size within the limits, TIFF strips and WebP chunks that fit;
    /// a container libavformat's still demuxers open, holding a picture; and, for a still whose
    /// decoder runs in a helper, a helper set up. A still of a format it knows is not decoded and
    /// no helper is started, so data damaged past its header (and what only a helper's decoder
    /// finds) passes; a file that starts like no image is decoded, since only a decode says
    /// whether FFmpeg reads it anyway (by its name's extension, say).
    /// - Throws: `MediaError`, of the kind and with the words a decode would refuse it with.
    package static func checkHeader(path: String) throws(MediaError) {
        let file = try InputFile(path: path)
        if case .helper(let format) = StillRoute(file) { return try IsolatedDecode.requireHelper(path: path, format: format) }
        let header = StillHeader(reading: file)
        guard header.format != nil else {
            if try decode(file, header: header, raster: nil, inHelper: false, isCancelled: { false }) == nil {
                try IsolatedDecode.requireHelper(path: path, format: "image")
            }
            return
        }
        let (demuxer, _, stream, decoder) = try openPicture(file, header: header, isCancelled: { false })
        // The stream is the demuxer's: it lives as long as the demuxer does.
        defer { withExtendedLifetime(demuxer) {} }
        if StillRoute.needsHelper(decoder.pointee.id) {
            return try IsolatedDecode.requireHelper(path: path, format: header.format?.rawValue ?? "image")
        }
        try checkDeclaredSize(stream, path: path)
    }

    /// The first picture of `file`, decoded strictly by FFmpeg; nil when its decoder runs
    /// only in a helper and this process is not one (`inHelper`).
    /// - Parameter options: the decoder's own options (an SVG's size).
    private static func decodeFirstFrame(file: InputFile, header: StillHeader, inHelper: Bool,
                                         isCancelled: @escaping @Sendable () -> Bool,
                                         options: [(String, String)] = []) throws(MediaError) -> Frame? {
        let path = file.path
        var notAnImage: MediaError { Self.refusal(notAnImage: path) }
        let stopped = MediaError(.inputInvalid, subject: path, message: "not decoded: the run was stopped")
        func damaged(_ reason: String) -> MediaError { Self.refusal(damaged: path, reason) }
        let (demuxer, streamIndex, stream, decoder) = try openPicture(file, header: header, isCancelled: isCancelled)
        if !inHelper && StillRoute.needsHelper(decoder.pointee.id) { return nil }
        try checkDeclaredSize(stream, path: path)
        let codec = try CodecContext(codec: decoder, subject: path)
        guard avcodec_parameters_to_context(codec.pointer, stream.pointee.codecpar) >= 0 else { throw notAnImage }
        let decoderName = String(cString: decoder.pointee.name)
        let log = FFmpegLog.Capture([UnsafeMutableRawPointer(codec.pointer), UnsafeMutableRawPointer(demuxer.pointer)])
        configureStrict(codec, isTIFF: decoder.pointee.id == AV_CODEC_ID_TIFF,
                        decoders: inHelper ? StillHeader.Format.decoders : StillHeader.Format.decodersHere)
        do {
            var dictionary: OpaquePointer?
            defer { av_dict_free(&dictionary) }
            for (key, value) in options { av_dict_set(&dictionary, key, value, 0) }
            try codec.open(options: &dictionary)
        } catch {
            throw header.format == nil ? notAnImage : damaged("\(decoderName) decoder: \(error.message)")
        }

        /// Why the decode failed, in FFmpeg's words: what the decoder logged, else its code.
        func refusal(_ code: Int32) -> MediaError {
            if isCancelled() { return stopped }
            let reason = log.firstError ?? FFmpegLog.quoted(MediaError.text(for: code))
            // libavutil's size check, done for the decoder against our limit or FFmpeg's own.
            if reason.hasPrefix("Picture size ") {
                // "Picture size 0x0 is invalid": a picture without a size (an SVG with a zero
                // width or height and no viewBox) is not one too large.
                let size = reason.dropFirst("Picture size ".count).prefix { $0 != " " }.split(separator: "x").map { Int($0) }
                if size.count == 2, size.contains(0) {
                    return MediaError(.inputInvalid, subject: path,
                                      message: "has no size: it declares a \(size[0] ?? 0)x\(size[1] ?? 0) picture (an SVG needs a width and height above 0, or a viewBox)")
                }
                return MediaError(.inputInvalid, subject: path,
                                  message: "is larger than slicevid decodes (\(StillLimits.description); FFmpeg: \(reason))")
            }
            return header.format == nil ? notAnImage : damaged("\(decoderName) decoder: \(reason)")
        }

        let packet = try Packet(subject: path)
        let frame = try Frame(subject: path)
        var draining = false
        while true {
            switch codec.receiveFrame(frame) {
            case .ready:
                try StillLimits.check(width: frame.width, height: frame.height, path: path)
                if let error = log.firstError { throw damaged("\(decoderName) decoder: \(error)") }
                if frame.pointer.pointee.flags & AV_FRAME_FLAG_CORRUPT != 0 || frame.pointer.pointee.decode_error_flags != 0 {
                    throw damaged("\(decoderName) decoder: the picture has concealed errors")
                }
                if decoder.pointee.id == AV_CODEC_ID_MJPEG {
                    let jpeg = JPEGMarkers(walking: file)
                    if !jpeg.hasScan {
                        throw MediaError(.inputInvalid, subject: path, message: "has no image data (its headers end without a scan)")
                    }
                    if jpeg.end == nil { throw damaged("the last scan has no end-of-image marker") }
                    if let problem = jpeg.iccProblem { throw damaged(problem) }
                }
                return frame
            case .failed(let code):
                throw refusal(code)
            case .needsInput where !draining:
                break
            case .needsInput, .drained:
                throw log.firstError.map { damaged("\(decoderName) decoder: \($0)") }
                    ?? (header.format == nil ? notAnImage : damaged("the data ends before a whole picture"))
            }
            if isCancelled() { throw stopped }
            packet.unref()
            let read = demuxer.read(into: packet)
            if read == AVStatus.endOfFile {
                let flushed = codec.sendPacket(nil)
                guard flushed >= 0 else { throw refusal(flushed) }
                draining = true
                continue
            }
            guard read >= 0 else { throw refusal(read) }
            guard packet.streamIndex == streamIndex else { continue }
            if let problem = PNGPayloads.problem(in: packet, decoder: decoder) { throw MediaError(.inputInvalid, subject: path, message: problem) }
            let sent = codec.sendPacket(packet)
            guard sent >= 0 else { throw refusal(sent) }
            if let error = log.firstError { throw damaged("\(decoderName) decoder: \(error)") }
        }
    }

    /// `file`'s container opened and the stream of its picture found, after the checks its
    /// header allows: the declared size first (nothing about a still too large to decode is
    /// worth reading further), then TIFF strips and WebP chunks. Nothing is decoded.
    private static func openPicture(_ file: InputFile, header: StillHeader, isCancelled: @escaping @Sendable () -> Bool) throws(MediaError)
        -> (demuxer: Demuxer, index: Int32, stream: UnsafeMutablePointer<AVStream>, decoder: UnsafePointer<AVCodec>) {
        let path = file.path
        let stopped = MediaError(.inputInvalid, subject: path, message: "not decoded: the run was stopped")
        if let size = header.size { try StillLimits.check(width: size.width, height: size.height, path: path) }
        if let tiff = header.tiff, let problem = tiff.strippedPictureProblem(in: file) { throw refusal(damaged: path, problem) }
        if let problem = header.webp?.problem { throw refusal(damaged: path, problem) }
        // The picture is the RIFF chunk: FFmpeg reads it alone (see WebPContainer).
        if let webp = header.webp { file.pictureEnd = webp.end }
        if isCancelled() { throw stopped }

        let demuxer: Demuxer
        do {
            demuxer = try Demuxer(file: file, formats: StillHeader.Format.demuxers)
        } catch {
            if isCancelled() { throw stopped }
            // No FFmpeg code: the demuxer's own refusal, worded already.
            if error.code == nil { throw error }
            throw header.format == nil ? refusal(notAnImage: path) : refusal(damaged: path, "libavformat: \(FFmpegLog.quoted(error.message))")
        }
        guard let (index, stream, decoder) = demuxer.bestVideoStream() else { throw refusal(notAnImage: path) }
        return (demuxer, index, stream, decoder)
    }

    /// Containers that carry the picture's size (AVIF's) are checked before a decoder starts.
    private static func checkDeclaredSize(_ stream: UnsafeMutablePointer<AVStream>, path: String) throws(MediaError) {
        let parameters = stream.pointee.codecpar.pointee
        if parameters.width > 0 || parameters.height > 0 {
            try StillLimits.check(width: Int(parameters.width), height: Int(parameters.height), path: path)
        }
    }

    /// A file no still decoder reads. Made only when thrown: listing what this build decodes
    /// asks libheif, a library load a run of good stills should not pay.
    private static func refusal(notAnImage path: String) -> MediaError {
        MediaError(.inputInvalid, subject: path, message: "is not a readable image (accepted: \(StillHeader.Format.names))")
    }

    /// A still whose data is damaged, for `reason`.
    private static func refusal(damaged path: String, _ reason: String) -> MediaError {
        MediaError(.inputInvalid, subject: path, message: "is truncated or corrupt (\(reason))")
    }

    /// Every check the decoder has, on. Errors explode (the decoder returns them instead of
    /// concealing) except in TIFF, whose decoder also explodes on any tag it does not know,
    /// FFmpeg's own ResolutionUnit included; TIFF is held to its logged errors and to the
    /// strip checks made before decoding. One thread, so every message the decoder logs is
    /// logged against this context, and FFmpeg's own pixel limit set just above ours.
    /// - Parameter decoders: the only decoders it may be (those of this process).
    private static func configureStrict(_ codec: CodecContext, isTIFF: Bool, decoders: String) {
        let settings = codec.pointer
        settings.pointee.err_recognition |= AV_EF_CRCCHECK | AV_EF_BITSTREAM | AV_EF_BUFFER
        if !isTIFF { settings.pointee.err_recognition |= AV_EF_EXPLODE }
        settings.pointee.thread_count = 1
        settings.pointee.max_pixels = StillLimits.decoderMaxPixels
        settings.pointee.codec_whitelist = av_strdup(decoders)
    }
}
