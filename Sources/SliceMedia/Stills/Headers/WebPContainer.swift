// A WebP's RIFF container, checked before FFmpeg decodes it. A WebP is one RIFF chunk: the
// picture ends where the RIFF header's size says, as a PNG's ends at IEND. FFmpeg's WebP decoder
// does not hold the file to that size: given a size too small for the chunks inside, it walks on
// past it and draws the picture anyway. Here the chunks must fill the RIFF chunk exactly. Bytes
// after the RIFF chunk are no part of the picture, and FFmpeg never sees them: its demuxer would
// hand the decoder the whole file as one packet, and the decoder's bit reader looks past the end
// of an image chunk into whatever follows, so the same RIFF chunk could decode or not by the bytes
// after it (make fuzz seed 2 case 4033).

/// What is wrong with a WebP's chunk structure, if anything.
struct WebPContainer {
    /// Why the container is damaged, in words for a message; nil for a sound one.
    let problem: String?
    /// Where the picture ends: just past the RIFF chunk (nil when the header is cut short).
    let end: Int64?

    /// More chunks than any WebP still has (a few, or one per frame of an animation); walking
    /// more would read a damaged file's garbage 8 bytes at a time.
    static let chunkLimit = 1 << 16

    /// Reads the RIFF header and walks the chunks inside it.
    init(reading file: InputFile) {
        let fileSize = file.size
        let head = file.bytes(at: 0, count: 12)
        guard head.count == 12 else {
            problem = "its RIFF header is cut short"
            end = nil
            return
        }
        // The size field counts the bytes after it: "WEBP" and the chunks.
        let declared = Int64(head.le32(4))
        end = 8 + declared
        problem = Self.structureProblem(file, declared: declared, end: 8 + declared, fileSize: fileSize)
    }

    private static func structureProblem(_ file: InputFile, declared: Int64, end: Int64, fileSize: Int64) -> String? {
        guard declared >= 4 + 8 else { return "its RIFF chunk declares \(declared) bytes, too few for a picture" }
        guard end <= fileSize else {
            return "its RIFF chunk declares \(declared) bytes but only \(fileSize - 8) follow"
        }
        var offset: Int64 = 12
        for _ in 0..<chunkLimit {
            if offset == end { return nil }
            let header = file.bytes(at: offset, count: 8)
            guard end - offset >= 8, header.count == 8 else {
                return "\(end - offset) stray bytes end its RIFF chunk where a chunk header should be"
            }
            let size = Int64(header.le32(4))
            let next = offset + 8 + size + (size & 1)
            // An odd-sized last chunk whose writer left out the pad byte is still whole.
            if next == end + 1 && size & 1 == 1 { return nil }
            guard next <= end else {
                return "its \(tag(header)) chunk (\(size) bytes at offset \(offset)) runs past the RIFF chunk's end at \(end)"
            }
            offset = next
        }
        return "it has more than \(chunkLimit) chunks"
    }

    /// A chunk's four-character tag, printable characters only (the rest as "?").
    private static func tag(_ header: [UInt8]) -> String {
        String(header[0..<4].map { (0x20...0x7E).contains($0) ? Character(UnicodeScalar($0)) : "?" })
    }
}
