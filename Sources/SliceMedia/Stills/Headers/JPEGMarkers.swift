// A JPEG's first picture, walked from SOI: whether any image data (a scan) comes before its
// end, where it ends, and whether its ICC profile's APP2 chunks are whole. FFmpeg's MJPEG
// decoder returns a grey picture for a file of headers alone, "emulates" a missing EOI for a
// file cut inside its last scan (even with `AV_EF_EXPLODE`), and drops a profile whose chunks
// are missing or numbered wrong with only a warning: all must be refused, not drawn.

/// What walking a JPEG's first picture finds.
struct JPEGMarkers {
    /// Whether a start-of-scan (FF DA) comes before the end of the picture.
    let hasScan: Bool
    /// Just past the picture's end-of-image marker (FF D9); nil when the file ends, or another
    /// picture starts, first. Bytes after it — a phone's second picture, a trailer — are no part
    /// of the still, whatever they hold.
    let end: Int64?

    /// Why the ICC profile's chunks (APP2 segments named ICC_PROFILE, each numbered "n of N")
    /// cannot make one profile: one missing, one twice, a number 0 or past the count, counts
    /// that disagree, a chunk too short for its numbers; nil when they can, or there are none.
    /// Their order in the file does not matter: readers put them together by number.
    let iccProblem: String?

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
        var icc = ICCChunks()
        func found(_ end: Int64?) -> JPEGMarkers { JPEGMarkers(hasScan: scans, end: end, iccProblem: icc.problem) }
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
                if marker == 0xE2 { icc.add(file.bytes(at: offset + 4, count: 14), length: length) }
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

    private init(hasScan: Bool, end: Int64?, iccProblem: String?) {
        self.hasScan = hasScan
        self.end = end
        self.iccProblem = iccProblem
    }

    /// The ICC_PROFILE chunks seen so far, and the first thing wrong with them.
    private struct ICCChunks {
        private var count: Int?
        private var seen = Set<Int>()
        private var wrong: String?

        /// One APP2 segment of `length` (its length field) whose data starts with `head`.
        mutating func add(_ head: [UInt8], length: Int64) {
            // The name FFmpeg matches ("ICC_PROFILE", then any byte); other APP2 data is not a profile.
            guard head.count >= 11, head.prefix(11).elementsEqual("ICC_PROFILE".utf8), wrong == nil else { return }
            guard head.count == 14, length >= 16 else { wrong = "an ICC profile chunk too short for its numbers"; return }
            let number = Int(head[12]), total = Int(head[13])
            if total == 0 || number == 0 || number > total {
                wrong = "ICC profile chunk \(number) of \(total)"
            } else if let count, count != total {
                wrong = "ICC profile chunks that disagree on their count (\(count) and \(total))"
            } else if !seen.insert(number).inserted {
                wrong = "ICC profile chunk \(number) of \(total) twice"
            }
            count = total
        }

        var problem: String? {
            if let wrong { return "its ICC colour profile is damaged: \(wrong)" }
            guard let count, seen.count < count else { return nil }
            let missing = (1...count).filter { !seen.contains($0) }
            let list = missing.prefix(3).map(String.init).joined(separator: ", ") + (missing.count > 3 ? ", …" : "")
            return "its ICC colour profile is incomplete: chunk\(missing.count == 1 ? "" : "s") \(list) of \(count) missing"
        }
    }
}
