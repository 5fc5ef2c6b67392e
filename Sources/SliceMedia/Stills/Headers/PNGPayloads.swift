// A PNG's compressed chunks — iCCP, zTXt and compressed iTXt — inflated with a limit before
// FFmpeg's decoder sees them. FFmpeg 5.1 inflates iCCP and zTXt with no limit at all (a 1 MB
// iCCP became a 1 GiB profile, 8 s and 2.1 GB later) and keeps every text chunk as metadata,
// looking each keyword up in a list (80,000 tEXt chunks took 30 s). It skips iTXt, but later
// FFmpeg versions read it, so iTXt is held to the same limits.

import CFFmpeg

/// The limits a PNG's compressed and text chunks are held to, checked on the bytes FFmpeg's
/// PNG decoder is about to be given.
enum PNGPayloads {
    /// The most bytes of text all zTXt and iTXt chunks may inflate to together: far more than
    /// any real XMP packet or comment, and little enough that FFmpeg's copies of it stay small.
    static let largestText = 16 << 20
    /// The most text chunks (tEXt, zTXt, iTXt) a PNG may have.
    static let mostTextChunks = 4096

    /// Why the packet about to reach `decoder` cannot be decoded within the limits, or nil.
    /// Only PNG and APNG packets are looked at: PNG's chunks reach libavcodec inside a PNG
    /// file, a movie's PNG frames, or an APNG's header (`extradata`).
    static func problem(in packet: Packet, decoder: UnsafePointer<AVCodec>) -> String? {
        let id = decoder.pointee.id
        guard id == AV_CODEC_ID_PNG || id == AV_CODEC_ID_APNG, let data = packet.pointer.pointee.data else { return nil }
        return problem(in: UnsafeRawBufferPointer(start: data, count: Int(packet.pointer.pointee.size)))
    }

    /// Why the chunks a PNG or APNG stream's decoder reads from its header (an APNG's chunks
    /// before its first frame, which libavformat hands over as extradata) break a limit, or nil.
    static func problem(inHeaderOf stream: UnsafeMutablePointer<AVStream>, decoder: UnsafePointer<AVCodec>) -> String? {
        let id = decoder.pointee.id, parameters = stream.pointee.codecpar.pointee
        guard id == AV_CODEC_ID_PNG || id == AV_CODEC_ID_APNG, let data = parameters.extradata else { return nil }
        return problem(in: UnsafeRawBufferPointer(start: data, count: Int(parameters.extradata_size)))
    }

    /// Why the PNG chunks in `bytes` (after an optional signature) break a limit or are
    /// damaged, as the rest of a message that names the file; nil when they are fine. Chunks
    /// are walked to IEND, or to one whose length runs past the data (which the decoder refuses).
    static func problem(in bytes: UnsafeRawBufferPointer) -> String? {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var offset = bytes.count >= 8 && zip(bytes.prefix(8), signature).allSatisfy({ $0 == $1 }) ? 8 : 0
        var profileBytes = 0, textBytes = 0, textChunks = 0
        func be32(_ at: Int) -> Int { (0..<4).reduce(0) { $0 << 8 | Int(bytes[at + $1]) } }
        while bytes.count - offset >= 12 {
            let length = be32(offset)
            guard length <= bytes.count - offset - 12 else { return nil }
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            let data = UnsafeRawBufferPointer(rebasing: bytes[(offset + 8)..<(offset + 8 + length)])
            offset += 12 + length
            switch type {
            case "IEND":
                return nil
            case "iCCP":
                                guard let stream = Self.stream(in: data) else { return damaged(type) }
                switch Inflation.measure(stream, limit: StillColour.largestProfile - profileBytes) {
                case .whole(let count): profileBytes += count
                case .beyondLimit:
                    return "carries an ICC colour profile (iCCP) that inflates to more than the \(StillColour.largestProfile >> 20) MiB slicevid reads"
                case .cutShort, .invalid: return damaged(type)
                }
            case "tEXt", "zTXt", "iTXt":
                textChunks += 1
                guard textChunks <= mostTextChunks else {
                    return "has more than \(mostTextChunks) text chunks (tEXt, zTXt, iTXt); slicevid reads PNGs with at most \(mostTextChunks)"
                }
                let stream: UnsafeRawBufferPointer?
                switch type {
                case "zTXt": stream = Self.stream(in: data)
                case "iTXt":
                    // Uncompressed international text holds its text as it is.
                    guard let text = Self.internationalText(data) else { return damaged(type) }
                    guard let compressed = text else { continue }
                    stream = compressed
                default: continue
                }
                guard let stream else { return damaged(type) }
                switch Inflation.measure(stream, limit: largestText - textBytes) {
                case .whole(let count): textBytes += count
                case .beyondLimit:
                    return "has text chunks (\(type)) that inflate to more than the \(largestText >> 20) MiB of text slicevid reads"
                case .cutShort, .invalid: return damaged(type)
                }
            default:
                break
            }
        }
        return nil
    }

    private static func damaged(_ type: String) -> String {
        "is truncated or corrupt (its \(type) chunk's compressed data is damaged)"
    }

    /// The zlib stream of an iCCP or zTXt chunk: after a keyword of at most 79 bytes, its NUL
    /// and a compression method byte that must be 0 (zlib); nil when the chunk is not laid out so.
    private static func stream(in data: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        guard let end = data.prefix(80).firstIndex(of: 0), end + 1 < data.count, data[end + 1] == 0 else { return nil }
        return UnsafeRawBufferPointer(rebasing: data[(end + 2)...])
    }

    /// An iTXt chunk's zlib stream, nil inside when its text is not compressed, or nil when
    /// the chunk is not laid out as keyword, NUL, compression flag (0 or 1), method (0),
    /// language tag, NUL, translated keyword, NUL, text.
    private static func internationalText(_ data: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer?? {
        guard let keyword = data.prefix(80).firstIndex(of: 0), keyword + 2 < data.count,
              data[keyword + 1] <= 1, data[keyword + 2] == 0,
              let language = data[(keyword + 3)...].firstIndex(of: 0),
              let translated = data[(language + 1)...].firstIndex(of: 0) else { return nil }
        guard data[keyword + 1] == 1 else { return .some(nil) }
        return UnsafeRawBufferPointer(rebasing: data[(translated + 1)...])
    }
}
