// A still's way in, strictly: a regular file (never a FIFO or a device), a header within the
// size limits, then FFmpeg's decoder with every error it can report turned on. A still the
// decoder finds anything wrong with — an error return, an error it logs against this still, a
// concealed or corrupt picture, data that ends before the picture does — is refused, never
// drawn half-decoded.

import CFFmpeg

extension StillDecoder {
    /// The first picture of the still at `path`, decoded strictly.
    /// - Parameter isCancelled: polled before every read and between packets; once it says yes
    ///   the decode stops (a picture FFmpeg is already decoding finishes first).
    /// - Throws: `MediaError`: `.inputMissing` (missing, unreadable, not a regular file) or
    ///   `.inputInvalid` (not an image, too large, damaged, or stopped), naming the file.
    static func decodeFirstFrame(path: String, isCancelled: @escaping @Sendable () -> Bool) throws(MediaError) -> Frame {
        let file = try InputFile(path: path, isCancelled: isCancelled)
        let header = StillHeader(reading: file)
        let notAnImage = MediaError(.inputInvalid, subject: path,
                                    message: "is not a readable image (accepted: \(StillHeader.Format.names))")
        let stopped = MediaError(.inputInvalid, subject: path, message: "not decoded: the run was stopped")
        func damaged(_ reason: String) -> MediaError {
            MediaError(.inputInvalid, subject: path, message: "is truncated or corrupt (\(reason))")
        }
        // Size first: nothing about a still too large to decode is worth reading further.
        if let size = header.size { try StillLimits.check(width: size.width, height: size.height, path: path) }
        if let tiff = header.tiff, let problem = tiff.strippedPictureProblem(in: file) { throw damaged(problem) }
        if isCancelled() { throw stopped }

        let demuxer: Demuxer
        do {
            demuxer = try Demuxer(file: file, formats: StillHeader.Format.demuxers)
        } catch {
            if isCancelled() { throw stopped }
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
        do { try codec.open() } catch { throw header.format == nil ? notAnImage : damaged("\(decoderName) decoder: \(error.message)") }

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
                if decoder.pointee.id == AV_CODEC_ID_MJPEG && !JPEGMarkers.hasScan(in: file) {
                    throw MediaError(.inputInvalid, subject: path, message: "has no image data (its headers end without a scan)")
                }
                if decoder.pointee.id == AV_CODEC_ID_MJPEG && !jpegEndsWithEndOfImage(file) {
                    throw damaged("the last scan has no end-of-image marker")
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

    /// Whether a JPEG file's last scan is followed by an end-of-image marker. FFmpeg's MJPEG
    /// decoder "emulates" a missing EOI and returns a picture whose tail was never coded, even
    /// with `AV_EF_EXPLODE`, so a file cut inside its last scan must be caught from its bytes.
    private static func jpegEndsWithEndOfImage(_ file: InputFile) -> Bool {
        // In entropy-coded data 0xFF is always followed by 0x00 or a restart marker, so walking
        // back from the end meets EOI (FF D9) first in a whole file and SOS (FF DA) first in a cut one.
        var end = file.size
        var next: UInt8?   // the byte after the chunk being searched
        while end > 0 {
            let start = max(0, end - (1 << 16))
            let chunk = file.bytes(at: start, count: Int(end - start))
            guard !chunk.isEmpty else { return false }
            for i in stride(from: chunk.count - 1, through: 0, by: -1) where chunk[i] == 0xFF {
                let following = i + 1 < chunk.count ? chunk[i + 1] : next
                if following == 0xD9 { return true }
                if following == 0xDA { return false }
            }
            next = chunk[0]
            end = start
        }
        return false
    }
}
