// The helper's side of the answer: the decoded picture's planes copied once into the memory
// file the parent handed over (descriptor 4), laid out as PictureLayout says, with the header
// written last. Nothing else of the helper's is writable.

import CFFmpeg
import Foundation
import Glibc

extension HelperReply {
    /// Where an answer's ICC profile starts: just past the largest header.
    static let profileOffset = headerOffset + largestHeader

    /// Writes `still` into the answer file `descriptor`.
    /// - Throws: `MediaError(.inputInvalid)` when the picture's format cannot be handed over;
    ///   `.output` when the file cannot be written (out of memory).
    static func write(_ still: DecodedStill, to descriptor: Int32) throws(MediaError) {
        let frame = still.picture
        let name = av_get_pix_fmt_name(frame.pixelFormat).map { String(cString: $0) } ?? "unknown"
        guard let layout = PictureLayout(format: frame.pixelFormat, width: frame.width, height: frame.height) else {
            throw MediaError(.inputInvalid, subject: "", message: "decodes to a pixel layout (\(name)) slicevid does not take")
        }
        var colour = Colour()
        var profileBytes: [UInt8] = []
        switch still.colour {
        case .sRGB: break
        case .profile(let bytes):
            colour.profile = Span(offset: profileOffset, count: bytes.count)
            profileBytes = bytes
        case .tagged(let primaries, let curve):
            colour.primaries = primaries.values
            if case .gamma(let value) = curve { colour.gamma = value }
        }
        let pixels = (profileOffset + profileBytes.count + 4095) / 4096 * 4096
        let picture = Picture(width: frame.width, height: frame.height, pixelFormat: name,
                              range: Int(frame.pointer.pointee.color_range.rawValue),
                              matrix: Int(frame.pointer.pointee.colorspace.rawValue),
                              orientation: still.orientation.exifValue, premultiplied: still.premultiplied,
                              colour: colour, format: still.format, pixels: pixels)
        guard ftruncate(descriptor, off_t(pixels + layout.byteCount)) == 0 else { throw MediaError.outOfMemory(subject: "") }
        let planes = frame.planes(count: layout.planes.count)
        for (index, plane) in layout.planes.enumerated() {
            guard let source = planes.data[index] else {
                throw MediaError(.inputInvalid, subject: "", message: "decodes to a picture without its \(name) plane \(index)")
            }
            let sourceStride = Int(planes.strides[index])
            for row in 0..<plane.rows {
                let at = pixels + plane.offset + row * plane.stride
                guard writeAll(UnsafeRawPointer(source + row * sourceStride), count: plane.rowBytes, at: at, to: descriptor) else {
                    throw MediaError.outOfMemory(subject: "")
                }
            }
        }
        guard profileBytes.isEmpty
                || profileBytes.withUnsafeBytes({ writeAll($0.baseAddress!, count: $0.count, at: profileOffset, to: descriptor) }),
              writeHeader(HelperReply(picture: picture), to: descriptor) else { throw MediaError.outOfMemory(subject: "") }
    }

    /// Writes a refusal (`error`'s kind and message) as the whole answer.
    /// - Returns: false when the file cannot be written.
    static func write(_ error: MediaError, to descriptor: Int32) -> Bool {
        let kind = switch error.kind {
        case .inputMissing: "missing"
        case .unavailable: "unavailable"
        case .inputInvalid, .output, .unreachable: "invalid"
        }
        return ftruncate(descriptor, 0) == 0 && writeHeader(HelperReply(refusal: Refusal(kind: kind, message: error.message)), to: descriptor)
    }

    /// Writes `facts` as the whole answer.
    /// - Returns: false when the file cannot be written.
    static func write(_ info: MediaInfo, to descriptor: Int32) -> Bool {
        let facts = Facts(container: info.containerName, codec: info.codecName, profile: info.profileName, tag: info.codecTag,
                          width: info.width, height: info.height, pixelFormat: info.pixelFormat, alpha: info.hasAlpha,
                          primaries: info.colorPrimaries, transfer: info.colorTransfer, space: info.colorSpace, range: info.colorRange,
                          frameRate: info.frameRate, frames: info.frameCount, duration: info.duration,
                          rate: info.averageFrameRate.map { [$0.numerator, $0.denominator] },
                          audioCodec: info.audio?.codec, audioRate: info.audio?.sampleRate, audioChannels: info.audio?.channels,
                          audioDuration: info.audio?.duration)
        return ftruncate(descriptor, 0) == 0 && writeHeader(HelperReply(facts: facts), to: descriptor)
    }

    /// The magic, the header's length and the header, at the start of the file.
    static func writeHeader(_ reply: HelperReply, to descriptor: Int32) -> Bool {
        guard let json = try? JSONEncoder().encode(reply), json.count <= largestHeader else { return false }
        var bytes = magic
        withUnsafeBytes(of: UInt64(json.count).littleEndian) { bytes += $0 }
        bytes += json
        return bytes.withUnsafeBytes { writeAll($0.baseAddress!, count: $0.count, at: 0, to: descriptor) }
    }

    private static func writeAll(_ bytes: UnsafeRawPointer, count: Int, at offset: Int, to descriptor: Int32) -> Bool {
        var done = 0
        while done < count {
            let written = pwrite(descriptor, bytes + done, count - done, off_t(offset + done))
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return false }
            done += written
        }
        return true
    }
}
