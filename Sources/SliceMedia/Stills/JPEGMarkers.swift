// A JPEG's first picture, walked from SOI: whether any image data (a scan) comes before its
// end, and where it ends. FFmpeg's MJPEG decoder returns a grey picture for a file of headers
// alone, and "emulates" a missing EOI for a file cut inside its last scan (even with
// `AV_EF_EXPLODE`): both must be refused, not drawn.

/// What walking a JPEG's first picture finds.
struct JPEGMarkers {
    /// Whether a start-of-scan (FF DA) comes before the end of the picture.
    let hasScan: Bool
    /// Just past the picture's end-of-image marker (FF D9); nil when the file ends, or another
    /// picture starts, first. Bytes after it — a phone's second picture, a trailer — are no part
    /// of the still, whatever they hold.
    let end: Int64?

    /// Walks `file` segment by segment from SOI (so a byte pair inside a segment is never taken
    /// for a marker), and through each scan's entropy-coded data, where 0xFF is only ever
    /// followed by 0x00 or a restart marker.
    init(walking file: InputFile) {
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
        var scans = false
        var offset: Int64 = 2
        func found(_ end: Int64?) -> JPEGMarkers { JPEGMarkers(hasScan: scans, end: end) }
        walk: while let first = byte(offset) {
            // Junk between segments: FFmpeg's decoder skips to the next marker, and so does this.
            guard first == 0xFF else {
                offset += 1
                continue
            }
            guard let marker = byte(offset + 1) else { break walk }
            switch marker {
            case 0xD9:
                self = found(offset + 2)
                return
            case 0xD8: break walk   // another picture starts: this one never ended
            case 0xFF: offset += 1
            case 0x00, 0x01, 0xD0...0xD7: offset += 2
            default:
                guard let high = byte(offset + 2), let low = byte(offset + 3) else { break walk }
                let length = Int64(high) << 8 | Int64(low)
                guard length >= 2 else { break walk }
                offset += 2 + length
                guard marker == 0xDA else { continue }
                scans = true
                // The scan's data runs to the next marker that is not a stuffed 0xFF or a restart.
                while byte(offset) != nil {
                    let local = Int(offset - chunkStart)
                    guard let at = chunk[local...].firstIndex(of: 0xFF) else {
                        offset = chunkStart + Int64(chunk.count)
                        continue
                    }
                    offset = chunkStart + Int64(at)
                    guard let following = byte(offset + 1), following == 0x00 || (0xD0...0xD7).contains(following) else { break }
                    offset += 2
                }
            }
        }
        self = found(nil)
    }

    private init(hasScan: Bool, end: Int64?) {
        self.hasScan = hasScan
        self.end = end
    }
}
