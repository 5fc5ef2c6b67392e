// Writes a single picture as an image file (PNG, JPEG, WebP, BMP, TIFF) with libavcodec: posters
// for users, fixtures for tests.

import CFFmpeg
import Glibc
import SliceKit

/// Image file formats a still can be written in.
package enum StillFormat: String, Sendable, CaseIterable {
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
package enum StillWriter {
    /// Encodes `image` and writes it through `file`, or when nil to `path` by name (replacing
    /// any file there: fixtures).
    /// - Throws: `MediaError` if the encoder is missing or writing fails.
    package static func write(_ image: RGBAImage, to path: String, file: OutputFile? = nil, format: StillFormat) throws(MediaError) {
        guard let encoder = avcodec_find_encoder_by_name(format.encoderName) else {
            throw MediaError(.unavailable, subject: format.encoderName, message: "this libavcodec has no such encoder")
        }
        let codec = try CodecContext(codec: encoder, subject: path)
        let frame = try Frame(subject: path)
        let packet = try Packet(subject: path)
        let settings = codec.pointer
        settings.pointee.width = Int32(image.width)
        settings.pointee.height = Int32(image.height)
        settings.pointee.pix_fmt = format.pixelFormat
        settings.pointee.time_base = AVRational(num: 1, den: 1)
        if format == .jpeg {
            settings.pointee.color_range = AVCOL_RANGE_JPEG
            settings.pointee.flags |= AV_CODEC_FLAG_QSCALE
            settings.pointee.global_quality = 2 * FF_QP2LAMBDA
        }
        try codec.open()
        frame.pointer.pointee.format = format.pixelFormat.rawValue
        frame.pointer.pointee.width = Int32(image.width)
        frame.pointer.pointee.height = Int32(image.height)
        frame.pointer.pointee.pts = 0
        frame.pointer.pointee.quality = settings.pointee.global_quality
        try frame.allocateBuffer(subject: path)
        let target: ColorEncoding = format == .jpeg ? ColorEncoding(matrix: SWS_CS_DEFAULT, fullRange: true)
            : ColorEncoding(matrix: SWS_CS_DEFAULT, fullRange: false)
        let scaler = try Scaler(from: (image.width, image.height, AV_PIX_FMT_RGBA, .rgb),
                                to: (image.width, image.height, format.pixelFormat, target),
                                flags: SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT)
        var pixels = image.pixels
        try pixels.withUnsafeMutableBufferPointer { (buffer) throws(MediaError) in
            try scaler.scale(PlanePointers(data: [buffer.baseAddress], strides: [Int32(image.width * 4)]),
                             into: frame.planes(count: 4))
        }
        try codec.sendFrame(frame)
        try codec.sendFrame(nil)
        var bytes: [UInt8] = []
        while try codec.receivePacket(packet) == .ready {
            bytes.append(contentsOf: UnsafeBufferPointer(start: packet.pointer.pointee.data, count: Int(packet.pointer.pointee.size)))
            packet.unref()
        }
        guard !bytes.isEmpty else { throw MediaError(.output, subject: path, message: "encoder produced nothing") }
        if let file {
            let wrote = bytes.withUnsafeBytes { file.write($0) }
            guard wrote == 0 else { throw MediaError(.output, subject: path, message: "cannot write (\(String(cString: strerror(-wrote))))") }
            return
        }
        var io: UnsafeMutablePointer<AVIOContext>?
        try check(PathBytes.withCString(path) { avio_open(&io, $0, AVIO_FLAG_WRITE) }, "avio_open", subject: path)
        avio_write(io, bytes, Int32(bytes.count))
        // avio_write reports nothing itself: a failed write shows in the context's error, and
        // closing flushes (and reports) what is left.
        let writeError = io?.pointee.error ?? 0
        let closed = avio_closep(&io)
        try check(writeError, "avio_write", subject: path)
        try check(closed, "avio_closep", subject: path)
    }
}
