// A JPEG's marker segments, walked from the start: whether any image data (a scan) follows the
// headers. FFmpeg's MJPEG decoder returns a grey picture for a file of headers alone, which must
// be refused as holding no image, not drawn.

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
}
