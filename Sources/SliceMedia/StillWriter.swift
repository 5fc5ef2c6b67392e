// Writes a single picture as an image file (PNG, JPEG, WebP, BMP, TIFF) with libavcodec: posters
// for users, fixtures for tests.

import CFFmpeg
import SliceKit

/// Image file formats a still can be written in.
public enum StillFormat: String, Sendable, CaseIterable {
    case png, jpeg, webp, bmp, tiff

    var encoderName: String {
        switch self {
        case .png: "png"
        case .jpeg: "mjpeg"
        case .webp: "libwebp"
        case .bmp: "bmp"
        case .tiff: "tiff"
        }
    }

    var pixelFormat: AVPixelFormat {
        switch self {
        case .png, .tiff: AV_PIX_FMT_RGBA
        case .jpeg: AV_PIX_FMT_YUVJ444P
        case .webp: AV_PIX_FMT_YUV420P
        case .bmp: AV_PIX_FMT_BGR24
        }
    }
}

/// Encodes RGBA pictures to image files.
public enum StillWriter {
    /// Encodes `image` and writes it to `path` (replacing any file there).
    /// - Throws: `MediaError` if the encoder is missing or writing fails.
    public static func write(_ image: RGBAImage, to path: String, format: StillFormat) throws(MediaError) {
        guard let encoder = avcodec_find_encoder_by_name(format.encoderName) else {
            throw MediaError(.unavailable, subject: format.encoderName, message: "this libavcodec has no such encoder")
        }
        var codecPointer = avcodec_alloc_context3(encoder)
        var framePointer = av_frame_alloc()
        var packetPointer = av_packet_alloc()
        defer { avcodec_free_context(&codecPointer); av_frame_free(&framePointer); av_packet_free(&packetPointer) }
        guard let codec = codecPointer, let frame = framePointer, let packet = packetPointer else {
            throw MediaError(.output, subject: path, message: "out of memory")
        }
        codec.pointee.width = Int32(image.width)
        codec.pointee.height = Int32(image.height)
        codec.pointee.pix_fmt = format.pixelFormat
        codec.pointee.time_base = AVRational(num: 1, den: 1)
        if format == .jpeg {
            codec.pointee.color_range = AVCOL_RANGE_JPEG
            codec.pointee.flags |= AV_CODEC_FLAG_QSCALE
            codec.pointee.global_quality = 2 * FF_QP2LAMBDA
        }
        try check(avcodec_open2(codec, encoder, nil), "avcodec_open2", subject: path)
        frame.pointee.format = format.pixelFormat.rawValue
        frame.pointee.width = Int32(image.width)
        frame.pointee.height = Int32(image.height)
        frame.pointee.pts = 0
        frame.pointee.quality = codec.pointee.global_quality
        try check(av_frame_get_buffer(frame, 0), "av_frame_get_buffer", subject: path)
        let target: ColorEncoding = format == .jpeg ? ColorEncoding(matrix: SWS_CS_DEFAULT, fullRange: true)
            : ColorEncoding(matrix: SWS_CS_DEFAULT, fullRange: false)
        let scaler = try Scaler(from: (image.width, image.height, AV_PIX_FMT_RGBA, .rgb),
                                to: (image.width, image.height, format.pixelFormat, target),
                                flags: SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT)
        var pixels = image.pixels
        pixels.withUnsafeMutableBufferPointer { buffer in
            scaler.scale(PlanePointers(data: [buffer.baseAddress], strides: [Int32(image.width * 4)]),
                         into: frame.planePointers(count: 4))
        }
        try check(avcodec_send_frame(codec, frame), "avcodec_send_frame", subject: path)
        try check(avcodec_send_frame(codec, nil), "avcodec_send_frame", subject: path)
        var bytes: [UInt8] = []
        while avcodec_receive_packet(codec, packet) >= 0 {
            bytes.append(contentsOf: UnsafeBufferPointer(start: packet.pointee.data, count: Int(packet.pointee.size)))
            av_packet_unref(packet)
        }
        guard !bytes.isEmpty else { throw MediaError(.output, subject: path, message: "encoder produced nothing") }
        var io: UnsafeMutablePointer<AVIOContext>?
        try check(avio_open(&io, path, AVIO_FLAG_WRITE), "avio_open", subject: path)
        avio_write(io, bytes, Int32(bytes.count))
        try check(avio_closep(&io), "avio_closep", subject: path)
    }
}
