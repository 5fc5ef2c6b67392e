// Still files written by the tests with libavcodec's encoders directly: PNG and JPEG carrying
// an ICC profile (both encoders write it from frame side data), 16-bit PNGs, and PNG chunks
// (gAMA, eXIf) spliced in after IHDR.

import CFFmpeg
import Foundation
import SliceKit

/// Image files written with libavcodec's encoders directly.
package enum FixtureFiles {
    /// `image` as a PNG (RGB, or RGBA with `alpha`) or a JPEG (4:4:4, best quality), with
    /// `profile` attached as frame side data, which both encoders write into the file.
    package static func write(_ image: RGBAImage, to path: String, jpeg: Bool = false, alpha: Bool = false, profile: [UInt8]? = nil) throws {
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
    package static func png16(width: Int, height: Int, to path: String, sample: (Int, Int, Int) -> UInt16) throws {
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
    package static func splice(png path: String, chunk type: String, data: [UInt8]) throws {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let body = Array(type.utf8) + data
        let crc = UInt32(body.withUnsafeBufferPointer { crc32(0, $0.baseAddress, UInt32($0.count)) })
        bytes.insert(contentsOf: be32(UInt32(data.count)) + body + be32(crc), at: 33)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    /// A big-endian EXIF block holding only an Orientation tag.
    package static func exif(orientation: Int) -> [UInt8] {
        [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, UInt8(orientation), 0, 0, 0, 0, 0, 0]
    }

    /// A 32-bit big-endian number, as PNG chunks hold them.
    package static func be32(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> UInt32($0)) } }
}

/// A failure of a fixture's own making.
package struct FixtureError: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}
