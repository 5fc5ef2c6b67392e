// Still files in the formats and variants slicevid itself never writes (TIFF with a chosen
// compression, GIF, AVIF, JPEG XL, RLE BMP, PNGs built chunk by chunk), made by code for the
// decoder's tests: FFmpeg's own encoders for the valid originals, byte surgery for the damage.

import CFFmpeg
import Foundation
import SliceKit
@testable import SliceMedia

enum StillEncoding {
    /// Encodes `image` with libavcodec's `encoder` and writes the file: the packets themselves
    /// (image codecs whose packet is the file), or through `muxer`.
    static func encode(_ image: RGBAImage, to path: String, encoder: String, pixelFormat: AVPixelFormat,
                       options: [(String, String)] = [], muxer: String? = nil) throws {
        guard let codecRef = avcodec_find_encoder_by_name(encoder) else { throw HarnessError("no encoder \(encoder)") }
        let codec = try CodecContext(codec: codecRef, subject: path)
        let settings = codec.pointer
        settings.pointee.width = Int32(image.width)
        settings.pointee.height = Int32(image.height)
        settings.pointee.pix_fmt = pixelFormat
        settings.pointee.time_base = AVRational(num: 1, den: 25)
        settings.pointee.framerate = AVRational(num: 25, den: 1)
        let output = try muxer.map { try Muxer(formatName: $0, path: path) }
        if let output, output.formatFlags & AVFMT_GLOBALHEADER != 0 { settings.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }
        var dictionary: OpaquePointer?
        defer { av_dict_free(&dictionary) }
        for (key, value) in options { av_dict_set(&dictionary, key, value, 0) }
        try codec.open(options: &dictionary)

        let frame = try Frame(subject: path)
        frame.pointer.pointee.format = pixelFormat.rawValue
        frame.pointer.pointee.width = Int32(image.width)
        frame.pointer.pointee.height = Int32(image.height)
        frame.pointer.pointee.pts = 0
        try frame.allocateBuffer(subject: path)
        let isRGB = (av_pix_fmt_desc_get(pixelFormat)?.pointee.flags ?? 0) & UInt64(AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_PAL) != 0
        let scaler = try Scaler(from: (image.width, image.height, AV_PIX_FMT_RGBA, .rgb),
                                to: (image.width, image.height, pixelFormat, isRGB ? .rgb : ColorEncoding(matrix: SWS_CS_DEFAULT, fullRange: false)),
                                flags: SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT)
        var pixels = image.pixels
        try pixels.withUnsafeMutableBufferPointer { (buffer) throws(MediaError) in
            try scaler.scale(PlanePointers(data: [buffer.baseAddress], strides: [Int32(image.width * 4)]), into: frame.planes())
        }
        try codec.sendFrame(frame)
        try codec.sendFrame(nil)
        let packet = try Packet(subject: path)
        if let output {
            let stream = try output.addStream()
            try check(avcodec_parameters_from_context(stream.pointee.codecpar, settings), "parameters", subject: path)
            stream.pointee.time_base = settings.pointee.time_base
            try output.openFile()
            var none: OpaquePointer?
            try output.writeHeader(options: &none)
            av_dict_free(&none)
            while try codec.receivePacket(packet) == .ready {
                av_packet_rescale_ts(packet.pointer, settings.pointee.time_base, stream.pointee.time_base)
                packet.streamIndex = stream.pointee.index
                try output.write(packet)
            }
            try output.finish()
        } else {
            var bytes: [UInt8] = []
            while try codec.receivePacket(packet) == .ready {
                bytes += UnsafeBufferPointer(start: packet.pointer.pointee.data, count: Int(packet.pointer.pointee.size))
                packet.unref()
            }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        }
    }

    /// A TIFF with the given compression (`raw`, `packbits`, `lzw`, `deflate`).
    static func tiff(_ image: RGBAImage, to path: String, compression: String) throws {
        try encode(image, to: path, encoder: "tiff", pixelFormat: AV_PIX_FMT_RGB24, options: [("compression_algo", compression)])
    }

    /// A one-frame GIF (through slicevid's own GIF writer, which builds the palette).
    static func gif(_ image: RGBAImage, to path: String) throws {
        let writer = try VideoWriter(path: path, outputFormat: .gif, width: image.width, height: image.height,
                                     frameRate: FrameRate(10), inputLayout: .gbrp, settings: EncoderSettings())
        try writer.write(image.planar(.gbrp))
        try writer.finish()
    }

    /// An AVIF still (libaom-av1 in the avif muxer).
    static func avif(_ image: RGBAImage, to path: String) throws {
        try encode(image, to: path, encoder: "libaom-av1", pixelFormat: AV_PIX_FMT_YUV444P,
                   options: [("still-picture", "1"), ("cpu-used", "8"), ("crf", "10")], muxer: "avif")
    }

    /// A JPEG XL codestream (libjxl), lossless.
    static func jpegXL(_ image: RGBAImage, to path: String) throws {
        try encode(image, to: path, encoder: "libjxl", pixelFormat: AV_PIX_FMT_RGB24, options: [("distance", "0")])
    }

    /// Whether this libavcodec has `encoder` (AVIF and JPEG XL are optional in FFmpeg builds).
    static func has(_ encoder: String) -> Bool { avcodec_find_encoder_by_name(encoder) != nil }
}

/// A failure of the test harness itself.
struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
