// An Ogg song's pages, walked before FFmpeg reads it. FFmpeg's Ogg demuxer logs "CRC mismatch!"
// and skips a damaged page, and never looks at the page sequence numbers: a damaged or lost
// first or last page left the bed silent where the song was, with exit 0 (a lost page in the
// middle shows as a jump in the timestamps, which AudioSource refuses). Every page is checked
// here: its CRC, that it follows the one before it in its stream, and that each stream ends
// with its end-of-stream page.

import CFFmpeg

/// The page walk of one Ogg file.
enum OggPages {
    /// Whether `head` (a file's first bytes) starts an Ogg file.
    static func isOgg(_ head: [UInt8]) -> Bool { head.starts(with: Array("OggS".utf8)) }

    /// Why the Ogg file `file` is damaged, as the rest of a message that names the file; nil
    /// when every page is whole and in order. Bytes after every stream has ended (a tag some
    /// programs append) are not pages and are left alone.
    static func problem(in file: InputFile) -> String? {
        let size = file.size
        var offset: Int64 = 0
        var page = 0
        // Each stream's next page sequence number; nil once its end-of-stream page was seen.
        var next: [UInt32: UInt32?] = [:]
        while offset < size {
            if file.cancelled { return nil }
            let header = file.bytes(at: offset, count: 27)
            let ended = !next.isEmpty && next.values.allSatisfy { $0 == nil }
            guard isOgg(header) else {
                return ended ? nil : "damaged audio: no Ogg page where page \(page + 1) should start (byte \(offset))"
            }
            guard header.count == 27, header[4] == 0 else { return "damaged audio: Ogg page \(page + 1) (byte \(offset)) has a damaged header" }
            let lacing = file.bytes(at: offset + 27, count: Int(header[26]))
            let length = 27 + lacing.count + lacing.reduce(0) { $0 + Int($1) }
            guard lacing.count == Int(header[26]), offset + Int64(length) <= size else {
                return "damaged audio: the file ends inside Ogg page \(page + 1) (truncated?)"
            }
            var bytes = file.bytes(at: offset, count: length)
            guard bytes.count == length else { return "damaged audio: Ogg page \(page + 1) (byte \(offset)) cannot be read" }
            let stored = bytes.le32(22)
            bytes.replaceSubrange(22..<26, with: [0, 0, 0, 0])
            guard crc(bytes) == stored else { return "damaged audio: Ogg page \(page + 1) (byte \(offset)) fails its CRC check" }
            let flags = header[5], serial = header.le32(14), sequence = header.le32(18)
            switch next[serial] {
            case nil:
                // A stream starts with its beginning-of-stream page.
                guard flags & 0x02 != 0 else {
                    return "damaged audio: Ogg page \(page + 1) (byte \(offset)) belongs to a stream whose first page is missing"
                }
            case .some(nil):
                // A chained file may start its next stream with the serial number of one that ended.
                guard flags & 0x02 != 0 else {
                    return "damaged audio: Ogg page \(page + 1) (byte \(offset)) comes after its stream's last page"
                }
            case .some(.some(let expected)):
                guard sequence == expected else {
                    return "damaged audio: \(sequence &- expected) Ogg page\(sequence &- expected == 1 ? " is" : "s are") missing before page \(page + 1) (byte \(offset))"
                }
            }
            next[serial] = flags & 0x04 != 0 ? .some(nil) : .some(sequence &+ 1)
            offset += Int64(length)
            page += 1
        }
        if next.values.contains(where: { $0 != nil }) { return "damaged audio: the file ends before its last Ogg page (truncated?)" }
        return nil
    }

    /// Ogg's CRC-32 (polynomial 0x04C11DB7, most significant bit first, from 0) of `bytes`:
    /// libavutil's table, whose big-endian form wants its input and result byte-swapped.
    private static func crc(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { buffer in
            av_crc(av_crc_get_table(AV_CRC_32_IEEE), 0, buffer.baseAddress, buffer.count).byteSwapped
        }
    }
}
