// Reads a still (PNG, JPEG, WebP, BMP, TIFF, …) with libavformat/libavcodec and fits it to the
// frame with libswscale. Runs once per input, never per frame.

import CFFmpeg
import Foundation
import SliceKit

/// Decodes still images and fits them to the output frame.
public enum StillDecoder {
    /// Decodes the first picture of the file at `path` and fits it to `width` × `height`.
    /// - Parameters:
    ///   - fit: `.cover` fills the frame and crops the overflow; `.contain` letterboxes.
    ///   - background: shown around a contained picture and under translucent pixels.
    /// - Returns: an RGBA picture of exactly `width` × `height`.
    /// - Throws: `MediaError` of kind `.inputMissing` or `.inputInvalid`, naming the file.
    public static func load(path: String, width: Int, height: Int, fit: FitMode,
                            background: RGBAColor) throws(MediaError) -> RGBAImage {
        let frame = try decodeFirstFrame(path: path)
        return try fitted(frame, path: path, width: width, height: height, fit: fit, background: background)
    }

    /// Like `load`, converted to the render's `layout`: what the compositor draws from. A still
    /// that is already packed RGB at the frame's size and upright (a PNG made for the frame) is
    /// converted straight from the decoder's picture, with no RGBA copy in between; the bytes
    /// are the same either way.
    public static func loadPlanar(path: String, width: Int, height: Int, fit: FitMode, background: RGBAColor,
                                  layout: PixelLayout) throws(MediaError) -> PlanarImage {
        let frame = try decodeFirstFrame(path: path)
        let planes = frame.planes(count: 1)
        if let order = frame.packedOrder, frame.width == width, frame.height == height,
           frame.orientation == .upright, let base = planes.data[0] {
            return PlanarImage.converting(UnsafePointer(base), width: width, height: height,
                                          rowStride: Int(planes.strides[0]), order: order, into: layout)
        }
        return try fitted(frame, path: path, width: width, height: height, fit: fit, background: background).planar(layout)
    }

    /// A decoded picture turned upright, scaled and placed on a `width` × `height` canvas.
    private static func fitted(_ frame: Frame, path: String, width: Int, height: Int,
                               fit: FitMode, background: RGBAColor) throws(MediaError) -> RGBAImage {
        let sourceWidth = frame.width, sourceHeight = frame.height
        // A photo stored sideways with an EXIF orientation is fitted as it is meant to be seen.
        let orientation = frame.orientation
        let upright = orientation.turnedSize(width: sourceWidth, height: sourceHeight)
        let scaled = fittedSize(source: upright, frame: (width, height), fit: fit)
        // Scaled as stored, to the size that is `scaled` once turned; turning is then an exact
        // reshuffle of the small picture, not of the full-size photo.
        let stored = orientation.turnedSize(width: scaled.width, height: scaled.height)
        let rgba = orientation.apply(to: try convertToRGBA(frame, width: stored.width, height: stored.height, path: path))
        // An opaque picture that already fills the frame needs no placing: skip the copy.
        let hasAlpha = frame.hasAlphaChannel
        if scaled.width == width && scaled.height == height && !hasAlpha { return rgba }
        return rgba.centred(onCanvasWidth: width, height: height, background: background)
    }

    /// The size a picture is scaled to before it is centred: covering or contained, aspect
    /// kept, never smaller than one pixel.
    public static func fittedSize(source: (width: Int, height: Int), frame: (width: Int, height: Int),
                                  fit: FitMode) -> (width: Int, height: Int) {
        let sx = Double(frame.width) / Double(source.width)
        let sy = Double(frame.height) / Double(source.height)
        let scale = fit == .cover ? max(sx, sy) : min(sx, sy)
        // Whichever side decides the scale is matched exactly, so no hairline gaps appear.
        let w = (fit == .cover) == (sx >= sy) ? frame.width : Int((Double(source.width) * scale).rounded())
        let h = (fit == .cover) == (sy > sx) ? frame.height : Int((Double(source.height) * scale).rounded())
        return (max(1, w), max(1, h))
    }

    /// Checks that `path` is a file this process can read, without decoding it.
    /// - Throws: `MediaError` of kind `.inputMissing` naming the file.
    public static func checkReadable(path: String) throws(MediaError) {
        _ = try InputFile(path: path)
    }

    private static func decodeFirstFrame(path: String) throws(MediaError) -> Frame {
        let file = try InputFile(path: path)
        let notAnImage = MediaError(.inputInvalid, subject: path,
                                    message: "is not a readable image (accepted: PNG, JPEG, WebP, BMP, TIFF)")
        let demuxer: Demuxer
        do {
            demuxer = try Demuxer(file: file)
            try demuxer.findStreamInfo()
        } catch {
            throw notAnImage
        }
        guard let (streamIndex, stream, decoder) = demuxer.bestVideoStream() else { throw notAnImage }
        let codec = try CodecContext(codec: decoder, subject: path)
        let codecContext = codec.pointer
        guard avcodec_parameters_to_context(codecContext, stream.pointee.codecpar) >= 0 else { throw notAnImage }
        // Explode on damage: a truncated or corrupt still must be refused, not half-drawn. Not for
        // TIFF: its decoder explodes on any tag it does not know (even FFmpeg's own ResolutionUnit),
        // and it already refuses strips and directories that lie beyond the end of the file.
        codecContext.pointee.err_recognition |= AV_EF_BUFFER | AV_EF_BITSTREAM | AV_EF_CRCCHECK
        if decoder.pointee.id != AV_CODEC_ID_TIFF { codecContext.pointee.err_recognition |= AV_EF_EXPLODE }
        codecContext.pointee.thread_count = 1
        do { try codec.open() } catch { throw notAnImage }

        // A file that does not even start like an image is "not an image", not "damaged".
        let damaged = hasImageSignature(path: path)
            ? MediaError(.inputInvalid, subject: path, message: "is truncated or corrupt; could not decode a whole picture")
            : notAnImage
        let packet = try Packet(subject: path)
        let frame = try Frame(subject: path)
        var flushed = false
        while true {
            let received = codec.receiveFrame(frame)
            if received == .ready {
                if frame.pointer.pointee.flags & AV_FRAME_FLAG_CORRUPT != 0 || frame.pointer.pointee.decode_error_flags != 0
                    || (decoder.pointee.id == AV_CODEC_ID_MJPEG && !jpegEndsWithEndOfImage(path: path)) {
                    throw damaged
                }
                return frame
            }
            if received != .needsInput || flushed { throw damaged }
            packet.unref()
            let read = demuxer.read(into: packet)
            if read < 0 {
                // End of file: drain the decoder once.
                guard codec.sendPacket(nil) >= 0 else { throw damaged }
                flushed = true
                continue
            }
            if packet.streamIndex != streamIndex { continue }
            if codec.sendPacket(packet) < 0 { throw damaged }
        }
    }

    /// Whether the file starts with the signature of a PNG, JPEG, WebP, BMP or TIFF file.
    private static func hasImageSignature(path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let head = [UInt8]((try? handle.read(upToCount: 12)) ?? Data())
        func starts(_ bytes: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + bytes.count && Array(head[offset..<offset + bytes.count]) == bytes
        }
        return starts([0x89, 0x50, 0x4E, 0x47]) || starts([0xFF, 0xD8, 0xFF])
            || (starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8))
            || starts(Array("BM".utf8)) || starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A])
    }

    /// Whether a JPEG file's last scan is followed by an end-of-image marker. FFmpeg's MJPEG
    /// decoder "emulates" a missing EOI and returns a picture whose tail was never coded, even
    /// with `AV_EF_EXPLODE`, so a file cut inside its last scan must be caught from its bytes.
    private static func jpegEndsWithEndOfImage(path: String) -> Bool {
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe) else { return false }
        // In entropy-coded data 0xFF is always followed by 0x00 or a restart marker, so walking
        // back from the end meets EOI (FF D9) first in a whole file and SOS (FF DA) first in a cut one.
        return data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> Bool in
            for i in stride(from: bytes.count - 2, through: 0, by: -1) where bytes[i] == 0xFF {
                if bytes[i + 1] == 0xD9 { return true }
                if bytes[i + 1] == 0xDA { return false }
            }
            return false
        }
    }

    /// Scales and converts a decoded frame to RGBA, honouring its colour matrix and range.
    private static func convertToRGBA(_ frame: Frame, width: Int, height: Int,
                                      path: String) throws(MediaError) -> RGBAImage {
        let encoding = frame.scalerSource
        // An RGB still already at the frame size only needs its bytes reordered: libswscale's
        // unscaled converters do that exactly and ~10× faster than the filtering path.
        let sameSize = frame.width == width && frame.height == height
        let isRGB = encoding.color == .rgb && av_pix_fmt_desc_get(encoding.format).pointee.flags & UInt64(AV_PIX_FMT_FLAG_RGB) != 0
        let scaler = try Scaler(
            from: (frame.width, frame.height, encoding.format, encoding.color),
            to: (width, height, AV_PIX_FMT_RGBA, .rgb),
            flags: sameSize && isRGB ? SWS_POINT : SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT)
        let source = frame.planes()
        // libswscale writes every byte (opaque alpha for formats without alpha), so the buffer
        // is not cleared first: at 4K that would be a 33 MB pass for nothing.
        var failure: MediaError?
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { buffer, count in
            do throws(MediaError) {
                try scaler.scale(source, into: PlanePointers(data: [buffer.baseAddress], strides: [Int32(width * 4)]))
            } catch {
                failure = error
            }
            count = width * height * 4
        }
        if failure != nil { throw MediaError(.inputInvalid, subject: path, message: "could not be converted to RGB (libswscale failed)") }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }
}
