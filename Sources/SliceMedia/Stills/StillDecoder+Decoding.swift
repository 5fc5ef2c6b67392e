// A still's way in, strictly: a regular file (never a FIFO or a device), a header within the
// size limits, then FFmpeg's decoder with every error it can report turned on. A still the
// decoder finds anything wrong with — an error return, an error it logs against this still, a
// concealed or corrupt picture, data that ends before the picture does — is refused, never
// drawn half-decoded.

import CFFmpeg

extension StillDecoder {
    /// The still at `path`, decoded strictly and described: HEIC and AVIF through libheif, the
    /// rest through FFmpeg.
    /// - Parameters:
    ///   - raster: for a still drawn at any size (SVG): the size to draw it at, given its own
    ///     size; nil keeps its own.
    ///   - isCancelled: polled before every read and between packets; once it says yes the
    ///     decode stops (a picture already inside a decoder finishes first).
    /// - Throws: `MediaError`: `.inputMissing` (missing, unreadable, not a regular file) or
    ///   `.inputInvalid` (not an image, too large, damaged, HDR, an unusable profile, or stopped),
    ///   naming the file; `.unavailable` for a HEIC on a machine without libheif.
    static func decode(path: String, raster: ((width: Int, height: Int)) -> (width: Int, height: Int)? = { _ in nil },
                       isCancelled: @escaping @Sendable () -> Bool) throws(MediaError) -> DecodedStill {
        let file = try InputFile(path: path, isCancelled: isCancelled)
        if let format = HEIFReader.format(of: file.bytes(at: 0, count: 64)) {
            if isCancelled() { throw MediaError(.inputInvalid, subject: path, message: "not decoded: the run was stopped") }
            if let still = try HEIFReader.decode(file, path: path, format: format) { return still }
            file.readPosition = 0
        }
        let header = StillHeader(reading: file)
        // FFmpeg would call it damaged: the machine lacks the library, not the file its bytes.
        if header.format == .heic, let missing = HEIFReader.missingLibrary(path: path) { throw missing }
        var picture = try decodeFirstFrame(file: file, header: header, isCancelled: isCancelled)
        if header.format == .svg, let size = raster((picture.width, picture.height)),
           size.width != picture.width || size.height != picture.height {
            // librsvg draws at any size: drawn again at the size it is shown, never scaled up.
            try file.rewind()
            picture = try decodeFirstFrame(file: file, header: header, isCancelled: isCancelled,
                                           options: [("width", String(size.width)), ("height", String(size.height)), ("keep_ar", "0")])
        }
        return try DecodedStill(ffmpeg: picture, header: header, file: file, path: path)
    }

    /// The first picture of the still at `path`, decoded strictly (tests look at it directly).
    static func decodeFirstFrame(path: String, isCancelled: @escaping @Sendable () -> Bool) throws(MediaError) -> Frame {
        try decode(path: path, isCancelled: isCancelled).picture
    }

    /// The first picture of `file`, decoded strictly by FFmpeg.
    /// - Parameter options: the decoder's own options (an SVG's size).
    private static func decodeFirstFrame(file: InputFile, header: StillHeader, isCancelled: @escaping @Sendable () -> Bool,
                                         options: [(String, String)] = []) throws(MediaError) -> Frame {
        let path = file.path
        // Made only when thrown: listing what this build decodes asks libheif, a library load
        // a run of good stills should not pay.
        var notAnImage: MediaError {
            MediaError(.inputInvalid, subject: path, message: "is not a readable image (accepted: \(StillHeader.Format.names))")
        }
        let stopped = MediaError(.inputInvalid, subject: path, message: "not decoded: the run was stopped")
        func damaged(_ reason: String) -> MediaError {
            MediaError(.inputInvalid, subject: path, message: "is truncated or corrupt (\(reason))")
        }
        // Size first: nothing about a still too large to decode is worth reading further.
        if let size = header.size { try StillLimits.check(width: size.width, height: size.height, path: path) }
        if let tiff = header.tiff, let problem = tiff.strippedPictureProblem(in: file) { throw damaged(problem) }
        if let problem = header.webp?.problem { throw damaged(problem) }
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
            throw header.format == nil ? notAnImage : damaged("libavformat: \(FFmpegLog.quoted(error.message))")
        }
        guard let (streamIndex, stream, decoder) = demuxer.bestVideoStream() else { throw notAnImage }
        let parameters = stream.pointee.codecpar.pointee
        // Containers that carry the size (AVIF's) are checked before the decoder starts too.
        if parameters.width > 0 || parameters.height > 0 {
            try StillLimits.check(width: Int(parameters.width), height: Int(parameters.height), path: path)
        }
        let codec = try CodecContext(codec: decoder, subject: path)
        guard avcodec_parameters_to_context(codec.pointer, stream.pointee.codecpar) >= 0 else { throw notAnImage }
        let decoderName = String(cString: decoder.pointee.name)
        let log = FFmpegLog.Capture([UnsafeMutableRawPointer(codec.pointer), UnsafeMutableRawPointer(demuxer.pointer)])
        configureStrict(codec, isTIFF: decoder.pointee.id == AV_CODEC_ID_TIFF)
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

    /// Every check the decoder has, on. Errors explode (the decoder returns them instead of
    /// concealing) except in TIFF, whose decoder also explodes on any tag it does not know,
    /// FFmpeg's own ResolutionUnit included; TIFF is held to its logged errors and to the
    /// strip checks made before decoding. One thread, so every message the decoder logs is
    /// logged against this context, and FFmpeg's own pixel limit set just above ours.
    private static func configureStrict(_ codec: CodecContext, isTIFF: Bool) {
        let settings = codec.pointer
        settings.pointee.err_recognition |= AV_EF_CRCCHECK | AV_EF_BITSTREAM | AV_EF_BUFFER
        if !isTIFF { settings.pointee.err_recognition |= AV_EF_EXPLODE }
        settings.pointee.thread_count = 1
        settings.pointee.max_pixels = StillLimits.decoderMaxPixels
        settings.pointee.codec_whitelist = av_strdup(StillHeader.Format.decoders)
    }
}
