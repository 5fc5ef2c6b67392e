// A JPEG's marker segments, walked from the start: whether any image data (a scan) follows the
// headers. FFmpeg's MJPEG decoder returns a grey picture for a file of headers alone, which must
// be refused as holding no image, not drawn; and where its first picture ends.

/// Facts found by walking a JPEG's marker segments.
enum JPEGMarkers {
    /// Whether a start-of-scan (FF DA) comes before the end-of-image (or the end of the file),
    /// walking segment by segment from SOI so a byte pair inside a segment is never mistaken
    /// for a marker.
    static func hasScan(in file: InputFile) -> Bool {
        var offset: Int64 = 2
        // Each step passes at least two bytes; the bound only stops a walk over garbage.
        for _ in 0..<100_000 {
            let head = file.bytes(at: offset, count: 4)
            guard head.count >= 2, head[0] == 0xFF else { return false }
            let marker = head[1]
            switch marker {
            case 0xDA: return true
            case 0xD9: return false
            // Fill bytes, TEM and RSTn stand alone, with no length.
            case 0xFF: offset += 1
            case 0x01, 0xD0...0xD7: offset += 2
            default:
                guard head.count == 4 else { return false }
                let length = Int64(head[2]) << 8 | Int64(head[3])
                guard length >= 2 else { return false }
                offset += 2 + length
            }
        }
        return false
    }

    /// Where the first picture ends, just past its end-of-image marker (FF D9): walked segment
    /// by segment from SOI, and through each scan's entropy-coded data, where 0xFF is only ever
    /// followed by 0x00 or a restart marker. nil when the file ends, or another picture starts,
    /// first: a file cut inside its last scan, which FFmpeg's decoder would draw anyway (it
    /// "emulates" the missing EOI even with `AV_EF_EXPLODE`). Bytes after the end — a phone's
    /// second picture, a trailer — are no part of the still, whatever they hold.
    static func pictureEnd(in file: InputFile) -> Int64? {
        let size = file.size
        var chunk: [UInt8] = []
        var chunkStart: Int64 = 0
        // The byte at `at`, read 64 KiB at a time.
        func byte(_ at: Int64) -> UInt8? {
            if at < chunkStart || at >= chunkStart + Int64(chunk.count) {
                guard at >= 0, at < size else { return nil }
                chunk = file.bytes(at: at, count: 1 << 16)
                chunkStart = at
                guard !chunk.isEmpty else { return nil }
            }
            return chunk[Int(at - chunkStart)]
        }
        var offset: Int64 = 2
        while let first = byte(offset) {
            // Junk between segments: FFmpeg's decoder skips to the next marker, and so does this.
            guard first == 0xFF else {
                offset += 1
                continue
            }
            guard let marker = byte(offset + 1) else { return nil }
            switch marker {
            case 0xD9: return offset + 2
            case 0xD8: return nil
            case 0xFF: offset += 1
            case 0x00, 0x01, 0xD0...0xD7: offset += 2
            default:
                guard let high = byte(offset + 2), let low = byte(offset + 3) else { return nil }
                let length = Int64(high) << 8 | Int64(low)
                guard length >= 2 else { return nil }
                offset += 2 + length
                guard marker == 0xDA else { continue }
                // The scan's data runs to the next marker that is not a stuffed 0xFF or a restart.
                scan: while byte(offset) != nil {
                    let local = Int(offset - chunkStart)
                    guard let found = chunk[local...].firstIndex(of: 0xFF) else {
                        offset = chunkStart + Int64(chunk.count)
                        continue
                    }
                    offset = chunkStart + Int64(found)
                    guard let following = byte(offset + 1) else { return nil }
                    if following != 0x00 && !(0xD0...0xD7).contains(following) { break scan }
                    offset += 2
                }
            }
        }
        return nil
    }
}
