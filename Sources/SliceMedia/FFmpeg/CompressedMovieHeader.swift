// A QuickTime movie header compressed with zlib (a `cmov` box), checked before libavformat
// opens the file. Its mov demuxer allocates the size the box declares and inflates into it
// while it opens the file: a 1 MB file declaring a 1 GiB header cost 1.1 GB and 3 s before
// anything was refused, as a still, a song or for probe. Real compressed headers (old
// QuickTime files) are small; one past the limit is refused, so a bomb costs at most that.

import CFFmpeg

/// The compressed movie headers of an ISO-BMFF or QuickTime file.
enum CompressedMovieHeader {
    /// The most bytes a compressed movie header may inflate to.
    static let largest = 16 << 20
    /// Boxes the mov demuxer looks into for more boxes (and so for a `cmov`).
    private static let containers: Set<String> = ["moov", "trak", "mdia", "minf", "stbl", "dinf", "edts", "udta", "mvex",
                                                  "moof", "traf", "tref", "wave", "sinf", "schi", "gmhd", "clip", "matt"]

    /// Why `file`'s compressed movie header cannot be read within the limit, as the rest of a
    /// message naming the file; nil when it has none, or one within it. Only files that start
    /// with a box the mov demuxer knows are walked; a cmov inside a compressed header is refused.
    static func problem(in file: InputFile) -> String? {
        let head = file.bytes(at: 4, count: 4)
        guard ["ftyp", "moov", "mdat", "free", "skip", "wide", "pnot"].contains(String(decoding: head, as: UTF8.self)) else { return nil }
        var budget = 4096
        return walk(at: 0, end: file.size, depth: 0, inflated: false, budget: &budget) { file.bytes(at: $0, count: $1) }
    }

    /// Walks the boxes from `start` to `end` of what `read` reads (at most `budget` boxes in
    /// all); `inflated`: what is read is a compressed header's inflated bytes.
    private static func walk(at start: Int64, end: Int64, depth: Int, inflated: Bool, budget: inout Int,
                             read: (Int64, Int) -> [UInt8]) -> String? {
        var offset = start
        while offset + 8 <= end, budget > 0, depth < 12 {
            budget -= 1
            let header = read(offset, 16)
            guard header.count >= 8 else { return nil }
            var size = Int64(header.be32(0)), payload = offset + 8
            if size == 1 {
                guard header.count == 16 else { return nil }
                size = Int64(truncatingIfNeeded: UInt64(header.be32(8)) << 32 | UInt64(header.be32(12)))
                payload = offset + 16
            } else if size == 0 {
                size = end - offset
            }
            // A box that does not fit is the demuxer's to judge; nothing past it is read as boxes.
            guard size >= payload - offset, size <= end - offset else { return nil }
            let type = String(decoding: header[4..<8], as: UTF8.self)
            if type == "cmov" {
                // No writer nests them; each level could claim the limit again.
                if inflated { return "has a compressed movie header (cmov) inside another; slicevid reads one level" }
                if let problem = compressed(at: payload, end: offset + size, depth: depth, read: read) { return problem }
            } else if containers.contains(type), let problem = walk(at: payload, end: offset + size, depth: depth + 1, inflated: inflated,
                                                                     budget: &budget, read: read) {
                return problem
            }
            offset += size
        }
        return nil
    }

    /// A cmov box's payload, as the mov demuxer reads it: a `dcom` box naming zlib, then a
    /// `cmvd` box with the inflated size and the zlib stream. Refused when it declares or
    /// inflates to more than `largest`, or holds a compressed header of its own.
    private static func compressed(at payload: Int64, end: Int64, depth: Int, read: (Int64, Int) -> [UInt8]) -> String? {
        let head = read(payload, 24)
        // Anything else the demuxer refuses itself, without inflating.
        guard head.count == 24, head[4..<8].elementsEqual("dcom".utf8), head[8..<12].elementsEqual("zlib".utf8),
              head[16..<20].elementsEqual("cmvd".utf8) else { return nil }
        let declared = Int(head.be32(20))
        let tooLarge = "has a compressed movie header (cmov) that inflates to more than the \(largest >> 20) MiB slicevid reads"
        guard declared <= largest else { return tooLarge }
        let stream = read(payload + 24, Int(min(end - payload - 24, Int64(largest))))
        var movie = [UInt8](repeating: 0, count: declared)
        var length = UInt(declared)
        // What the demuxer does (uncompress into the declared size), now known to be small.
        let status = stream.withUnsafeBufferPointer { input in
            movie.withUnsafeMutableBufferPointer { output in
                uncompress(output.baseAddress, &length, input.baseAddress, UInt(input.count))
            }
        }
        guard status == Z_OK else { return nil }
        var budget = 4096
        let inflated = Array(movie.prefix(Int(length)))
        return walk(at: 0, end: Int64(inflated.count), depth: depth + 1, inflated: true, budget: &budget) { at, count in
            guard at >= 0, at < Int64(inflated.count) else { return [] }
            return Array(inflated[Int(at)..<min(inflated.count, Int(at) + count)])
        }
    }
}
