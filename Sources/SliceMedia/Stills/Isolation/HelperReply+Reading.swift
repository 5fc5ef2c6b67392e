// The parent's side of the answer: the header read and every number in it checked before it
// is used — the helper decoded a file from outside and may have been taken over by it. A
// header that fails a check is garbage, and the still is refused.

import CFFmpeg
import Foundation
import Glibc
import SliceKit

extension HelperReply {
    /// The header of the answer in `descriptor`, `size` bytes long; nil when it is not a
    /// well-formed answer.
    static func read(from descriptor: Int32, size: Int) -> HelperReply? {
        guard size >= headerOffset else { return nil }
        var head = [UInt8](repeating: 0, count: headerOffset)
        guard readAll(&head, at: 0, from: descriptor), Array(head.prefix(8)) == magic else { return nil }
        let length = head[8..<16].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        guard length > 0, length <= UInt64(largestHeader), Int(length) <= size - headerOffset else { return nil }
        var json = [UInt8](repeating: 0, count: Int(length))
        guard readAll(&json, at: headerOffset, from: descriptor) else { return nil }
        return try? JSONDecoder().decode(HelperReply.self, from: Data(json))
    }

    /// The refusal the helper answered with, as the still's error naming `path`; nil when the
    /// answer is not a refusal.
    func refusal(path: String) -> MediaError? {
        guard let refusal else { return nil }
        let kind: MediaError.Kind = switch refusal.kind {
        case "missing": .inputMissing
        case "unavailable": .unavailable
        default: .inputInvalid
        }
        // Escaped again and cut: the helper's words are as untrusted as the file's.
        let message = InputText.escaped(String(refusal.message.unicodeScalars.prefix(600)))
        return MediaError(kind, subject: path, message: message.isEmpty ? "could not be decoded" : message)
    }

    /// The still the answer describes, its planes mapped (not copied) from `descriptor`.
    /// - Throws: `MediaError(.inputInvalid)` naming `path` when a number is out of range.
    func still(mappedFrom descriptor: Int32, size: Int, path: String) throws(MediaError) -> DecodedStill {
        guard let picture else { throw Self.garbage(path, "no picture") }
        let format = av_get_pix_fmt(picture.pixelFormat)
        guard format != AV_PIX_FMT_NONE,
              let layout = PictureLayout(format: format, width: picture.width, height: picture.height) else {
            throw Self.garbage(path, "a \(InputText.excerpt(picture.pixelFormat)) picture of \(picture.width)x\(picture.height)")
        }
        guard (0..<Int(AVCOL_RANGE_NB.rawValue)).contains(picture.range), (0..<Int(AVCOL_SPC_NB.rawValue)).contains(picture.matrix),
              let orientation = Orientation(exif: picture.orientation),
              StillHeader.Format(rawValue: picture.format) != nil || picture.format == "image" else {
            throw Self.garbage(path, "a description out of range")
        }
        guard picture.pixels >= Self.profileOffset, picture.pixels % 4096 == 0,
              picture.pixels <= size, layout.byteCount <= size - picture.pixels else {
            throw Self.garbage(path, "a picture past the end of its answer")
        }
        let colour = try colour(picture.colour, from: descriptor, size: size, before: picture.pixels, path: path)
        let frame = try MappedPicture.frame(from: descriptor, at: picture.pixels, layout: layout, format: format,
                                            width: picture.width, height: picture.height, path: path)
        frame.pointer.pointee.color_range = AVColorRange(rawValue: UInt32(picture.range))
        frame.pointer.pointee.colorspace = AVColorSpace(rawValue: UInt32(picture.matrix))
        return DecodedStill(picture: frame, orientation: orientation, colour: colour,
                            premultiplied: picture.premultiplied, format: picture.format)
    }

    /// The colours the answer describes, checked: a profile within the file and the size
    /// limit, eight finite chromaticities within 0…1, a finite exponent within 0.1…10.
    private func colour(_ colour: Colour, from descriptor: Int32, size: Int, before end: Int,
                        path: String) throws(MediaError) -> StillColour {
        if let span = colour.profile {
            guard span.offset == Self.profileOffset, span.count > 0, span.count <= StillColour.largestProfile,
                  span.count <= end - span.offset else { throw Self.garbage(path, "a colour profile out of range") }
            var bytes = [UInt8](repeating: 0, count: span.count)
            guard Self.readAll(&bytes, at: span.offset, from: descriptor) else { throw Self.garbage(path, "a colour profile out of range") }
            return .profile(bytes)
        }
        guard let values = colour.primaries else { return .sRGB }
        guard values.count == 8, values.allSatisfy({ $0.isFinite && (0...1).contains($0) }),
              colour.gamma.map({ $0.isFinite && (0.1...10).contains($0) }) ?? true else {
            throw Self.garbage(path, "colour tags out of range")
        }
        let primaries = Chromaticities(red: (values[0], values[1]), green: (values[2], values[3]),
                                       blue: (values[4], values[5]), white: (values[6], values[7]))
        return .tagged(primaries, colour.gamma.map { .gamma($0) } ?? .sRGB)
    }

    /// What `probe` says of the file, from the answer's facts, checked.
    /// - Throws: `MediaError(.inputInvalid)` naming `path` when a fact is out of range.
    func mediaInfo(path: String) throws(MediaError) -> MediaInfo {
        guard let facts else { throw Self.garbage(path, "no facts") }
        let names = [facts.container, facts.codec, facts.tag, facts.pixelFormat, facts.primaries, facts.transfer, facts.space,
                     facts.range] + [facts.profile, facts.audioCodec].compactMap { $0 }
        // FFmpeg's names: short printable ASCII. Anything else did not come from FFmpeg.
        guard names.allSatisfy({ $0.utf8.count <= 64 && $0.utf8.allSatisfy { (0x20..<0x7F).contains($0) } }),
              (0...StillLimits.maxSide).contains(facts.width), (0...StillLimits.maxSide).contains(facts.height),
              facts.frameRate.isFinite, facts.frameRate >= 0, (0...Int(Int32.max)).contains(facts.frames),
              facts.duration.isFinite, facts.duration >= 0 else { throw Self.garbage(path, "facts out of range") }
        var info = MediaInfo(containerName: facts.container, codecName: facts.codec, profileName: facts.profile, codecTag: facts.tag,
                             width: facts.width, height: facts.height, pixelFormat: facts.pixelFormat, hasAlpha: facts.alpha,
                             colorPrimaries: facts.primaries, colorTransfer: facts.transfer, colorSpace: facts.space,
                             colorRange: facts.range, frameRate: facts.frameRate, frameCount: facts.frames, duration: facts.duration)
        if let rate = facts.rate {
            guard rate.count == 2, rate.allSatisfy({ (1...Int(Int32.max)).contains($0) }) else { throw Self.garbage(path, "a frame rate out of range") }
            info.averageFrameRate = FrameRate(rate[0], rate[1])
        }
        if let codec = facts.audioCodec {
            guard let rate = facts.audioRate, let channels = facts.audioChannels, (0...10_000_000).contains(rate),
                  (0...1024).contains(channels), facts.audioDuration.map({ $0.isFinite && $0 >= 0 }) ?? true else {
                throw Self.garbage(path, "audio facts out of range")
            }
            info.audio = AudioStreamFacts(codec: codec, sampleRate: rate, channels: channels, duration: facts.audioDuration)
        }
        return info
    }

    /// The refusal for an answer that fails a check.
    static func garbage(_ path: String, _ what: String) -> MediaError {
        MediaError(.inputInvalid, subject: path, message: "could not be decoded: its decode helper answered with \(what)")
    }

    private static func readAll(_ bytes: inout [UInt8], at offset: Int, from descriptor: Int32) -> Bool {
        let count = bytes.count
        return bytes.withUnsafeMutableBytes { buffer in
            var done = 0
            while done < count {
                let read = pread(descriptor, buffer.baseAddress! + done, count - done, off_t(offset + done))
                if read < 0 && errno == EINTR { continue }
                guard read > 0 else { return false }
                done += read
            }
            return true
        }
    }
}
