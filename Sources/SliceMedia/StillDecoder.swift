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
        defer { var f: UnsafeMutablePointer<AVFrame>? = frame; av_frame_free(&f) }
        return try fitted(frame, path: path, width: width, height: height, fit: fit, background: background)
    }

    /// Like `load`, converted to the render's `layout`: what the compositor draws from. A still
    /// that is already packed RGB at the frame's size and upright (a PNG made for the frame) is
    /// converted straight from the decoder's picture, with no RGBA copy in between; the bytes
    /// are the same either way.
    public static func loadPlanar(path: String, width: Int, height: Int, fit: FitMode, background: RGBAColor,
                                  layout: PixelLayout) throws(MediaError) -> PlanarImage {
        let frame = try decodeFirstFrame(path: path)
        defer { var f: UnsafeMutablePointer<AVFrame>? = frame; av_frame_free(&f) }
        if let order = frame.packedOrder, Int(frame.pointee.width) == width, Int(frame.pointee.height) == height,
           frame.orientation == .upright, let base = frame.pointee.data.0 {
            return PlanarImage.converting(UnsafePointer(base), width: width, height: height,
                                          rowStride: Int(frame.pointee.linesize.0), order: order, into: layout)
        }
        return try fitted(frame, path: path, width: width, height: height, fit: fit, background: background).planar(layout)
    }

    /// A decoded picture turned upright, scaled and placed on a `width` × `height` canvas.
    private static func fitted(_ frame: UnsafeMutablePointer<AVFrame>, path: String, width: Int, height: Int,
                               fit: FitMode, background: RGBAColor) throws(MediaError) -> RGBAImage {
        let sourceWidth = Int(frame.pointee.width), sourceHeight = Int(frame.pointee.height)
        // A photo stored sideways with an EXIF orientation is fitted as it is meant to be seen.
        let orientation = frame.orientation
        let upright = orientation.turnedSize(width: sourceWidth, height: sourceHeight)
        let scaled = fittedSize(source: upright, frame: (width, height), fit: fit)
        // Scaled as stored, to the size that is `scaled` once turned; turning is then an exact
        // reshuffle of the small picture, not of the full-size photo.
        let stored = orientation.turnedSize(width: scaled.width, height: scaled.height)
        let rgba = orientation.apply(to: try convertToRGBA(frame, width: stored.width, height: stored.height, path: path))
        // An opaque picture that already fills the frame needs no placing: skip the copy.
        let hasAlpha = av_pix_fmt_desc_get(AVPixelFormat(rawValue: frame.pointee.format)).pointee.flags & UInt64(AV_PIX_FMT_FLAG_ALPHA) != 0
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
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw MediaError(.inputMissing, subject: path, message: "no such file")
        }
        guard !isFolder.boolValue else {
            throw MediaError(.inputMissing, subject: path, message: "is a folder, not an image file")
        }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw MediaError(.inputMissing, subject: path, message: "cannot be read (permission denied)")
        }
    }

    private static func decodeFirstFrame(path: String) throws(MediaError) -> UnsafeMutablePointer<AVFrame> {
        try checkReadable(path: path)
        let notAnImage = MediaError(.inputInvalid, subject: path,
                                    message: "is not a readable image (accepted: PNG, JPEG, WebP, BMP, TIFF)")
        var format: UnsafeMutablePointer<AVFormatContext>?
        guard avformat_open_input(&format, path, nil, nil) >= 0, let format else { throw notAnImage }
        defer { var f: UnsafeMutablePointer<AVFormatContext>? = format; avformat_close_input(&f) }
        guard avformat_find_stream_info(format, nil) >= 0 else { throw notAnImage }
        var decoderPointer: UnsafePointer<AVCodec>?
        let streamIndex = av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, &decoderPointer, 0)
        guard streamIndex >= 0, let decoder = decoderPointer,
              let stream = format.pointee.streams[Int(streamIndex)] else { throw notAnImage }

        guard let codecContext = avcodec_alloc_context3(decoder) else {
            throw MediaError(.output, subject: path, message: "out of memory")
        }
        var context: UnsafeMutablePointer<AVCodecContext>? = codecContext
        defer { avcodec_free_context(&context) }
        guard avcodec_parameters_to_context(codecContext, stream.pointee.codecpar) >= 0 else { throw notAnImage }
        // Explode on damage: a truncated or corrupt still must be refused, not half-drawn. Not for
        // TIFF: its decoder explodes on any tag it does not know (even FFmpeg's own ResolutionUnit),
        // and it already refuses strips and directories that lie beyond the end of the file.
        codecContext.pointee.err_recognition |= AV_EF_BUFFER | AV_EF_BITSTREAM | AV_EF_CRCCHECK
        if decoder.pointee.id != AV_CODEC_ID_TIFF { codecContext.pointee.err_recognition |= AV_EF_EXPLODE }
        codecContext.pointee.thread_count = 1
        guard avcodec_open2(codecContext, decoder, nil) >= 0 else { throw notAnImage }

        // A file that does not even start like an image is "not an image", not "damaged".
        let damaged = hasImageSignature(path: path)
            ? MediaError(.inputInvalid, subject: path, message: "is truncated or corrupt; could not decode a whole picture")
            : notAnImage
        guard let packet = av_packet_alloc() else { throw MediaError(.output, subject: path, message: "out of memory") }
        var packetRef: UnsafeMutablePointer<AVPacket>? = packet
        defer { av_packet_free(&packetRef) }
        guard let frame = av_frame_alloc() else { throw MediaError(.output, subject: path, message: "out of memory") }
        var flushed = false
        while true {
            let received = avcodec_receive_frame(codecContext, frame)
            if received >= 0 {
                if frame.pointee.flags & AV_FRAME_FLAG_CORRUPT != 0 || frame.pointee.decode_error_flags != 0
                    || (decoder.pointee.id == AV_CODEC_ID_MJPEG && !jpegEndsWithEndOfImage(path: path)) {
                    var f: UnsafeMutablePointer<AVFrame>? = frame; av_frame_free(&f)
                    throw damaged
                }
                return frame
            }
            if received != AVStatus.again || flushed {
                var f: UnsafeMutablePointer<AVFrame>? = frame; av_frame_free(&f)
                throw damaged
            }
            let read = av_read_frame(format, packet)
            if read < 0 {
                // End of file: drain the decoder once.
                avcodec_send_packet(codecContext, nil)
                flushed = true
                continue
            }
            defer { av_packet_unref(packet) }
            if packet.pointee.stream_index != streamIndex { continue }
            if avcodec_send_packet(codecContext, packet) < 0 {
                var f: UnsafeMutablePointer<AVFrame>? = frame; av_frame_free(&f)
                throw damaged
            }
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
    private static func convertToRGBA(_ frame: UnsafeMutablePointer<AVFrame>, width: Int, height: Int,
                                      path: String) throws(MediaError) -> RGBAImage {
        let encoding = frame.scalerSource
        // An RGB still already at the frame size only needs its bytes reordered: libswscale's
        // unscaled converters do that exactly and ~10× faster than the filtering path.
        let sameSize = Int(frame.pointee.width) == width && Int(frame.pointee.height) == height
        let isRGB = encoding.color == .rgb && av_pix_fmt_desc_get(encoding.format).pointee.flags & UInt64(AV_PIX_FMT_FLAG_RGB) != 0
        let scaler = try Scaler(
            from: (Int(frame.pointee.width), Int(frame.pointee.height), encoding.format, encoding.color),
            to: (width, height, AV_PIX_FMT_RGBA, .rgb),
            flags: sameSize && isRGB ? SWS_POINT : SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT)
        let source = frame.planePointers(count: 4)
        // libswscale writes every byte (opaque alpha for formats without alpha), so the buffer
        // is not cleared first: at 4K that would be a 33 MB pass for nothing.
        var scaled = false
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { buffer, count in
            scaled = scaler.scale(source, into: PlanePointers(data: [buffer.baseAddress], strides: [Int32(width * 4)]))
            count = width * height * 4
        }
        guard scaled else { throw MediaError(.inputInvalid, subject: path, message: "could not be converted to RGB (libswscale failed)") }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }
}

extension UnsafeMutablePointer where Pointee == AVFrame {
    /// The byte order when the picture is opaque packed 8-bit RGB, which the planar converter
    /// reads in place; nil for anything else (YUV, palettes, alpha, more than 8 bits).
    var packedOrder: PackedOrder? {
        switch AVPixelFormat(rawValue: pointee.format) {
        case AV_PIX_FMT_RGB24: .rgb
        case AV_PIX_FMT_BGR24: .bgr
        default: nil
        }
    }

    /// How the decoder says the picture must be turned to be seen upright (a JPEG's EXIF
    /// orientation arrives as a display matrix, a WebP's as metadata); upright when it says
    /// nothing, or something that is not a quarter turn or a mirror.
    var orientation: Orientation {
        if let side = av_frame_get_side_data(self, AV_FRAME_DATA_DISPLAYMATRIX),
           side.pointee.size >= 9 * MemoryLayout<Int32>.size, let data = side.pointee.data {
            return UnsafeRawPointer(data).withMemoryRebound(to: Int32.self, capacity: 9) { m in
                Orientation(matrix: m[0], m[1], m[3], m[4]) ?? .upright
            }
        }
        // WebP's decoder passes the EXIF tag on only as metadata (padded: "    6" from JPEG).
        if let entry = av_dict_get(pointee.metadata, "Orientation", nil, 0), let value = entry.pointee.value,
           let number = Int(String(cString: value).trimmingCharacters(in: .whitespaces)) {
            return Orientation(exif: number) ?? .upright
        }
        return .upright
    }

    /// The frame's first `count` planes as libswscale takes them.
    func planePointers(count: Int) -> PlanePointers {
        let data = withUnsafeBytes(of: pointee.data) { Array($0.bindMemory(to: UnsafeMutablePointer<UInt8>?.self).prefix(count)) }
        let strides = withUnsafeBytes(of: pointee.linesize) { Array($0.bindMemory(to: Int32.self).prefix(count)) }
        return PlanePointers(data: data, strides: strides)
    }

    /// The frame's pixel format and colour encoding as a `Scaler` source.
    ///
    /// YUV follows the frame's tags (the deprecated "J" formats become their plain twins, full
    /// range). RGB, palette and grey samples are full range and carry no matrix; they get the
    /// matrix of `.rgb`, because when libswscale resizes RGB to RGB it passes through YUV with the
    /// target's matrix one way and the source's the other, and a mismatch shifts every colour.
    var scalerSource: (format: AVPixelFormat, color: ColorEncoding) {
        var format = AVPixelFormat(rawValue: pointee.format)
        let descriptor = av_pix_fmt_desc_get(format)
        let flags = descriptor?.pointee.flags ?? 0
        if flags & UInt64(AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_PAL) != 0 { return (format, .rgb) }
        if (descriptor?.pointee.nb_components ?? 3) < 3 {
            return (format, ColorEncoding(matrix: ColorEncoding.rgb.matrix, fullRange: pointee.color_range != AVCOL_RANGE_MPEG))
        }
        var fullRange = pointee.color_range == AVCOL_RANGE_JPEG
        let jFormats: [(AVPixelFormat, AVPixelFormat)] = [
            (AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUV420P), (AV_PIX_FMT_YUVJ422P, AV_PIX_FMT_YUV422P),
            (AV_PIX_FMT_YUVJ444P, AV_PIX_FMT_YUV444P), (AV_PIX_FMT_YUVJ440P, AV_PIX_FMT_YUV440P),
            (AV_PIX_FMT_YUVJ411P, AV_PIX_FMT_YUV411P),
        ]
        if let match = jFormats.first(where: { $0.0 == format }) {
            format = match.1
            fullRange = true
        }
        let matrix: Int32 = pointee.colorspace == AVCOL_SPC_BT709 ? SWS_CS_ITU709 : SWS_CS_DEFAULT
        return (format, ColorEncoding(matrix: matrix, fullRange: fullRange))
    }
}
