// A TIFF's first image directory, read to check the picture against its data before FFmpeg
// decodes it. FFmpeg's TIFF decoder cannot be made strict the way the others are (it treats any
// tag it does not know as damage once errors explode), and when a strip is short it quietly
// leaves rows unwritten: a header that claims 60000 columns over a few KB of data still "decodes".
// Here every strip is checked to hold the rows it must.

import CFFmpeg

/// The fields of a TIFF's first directory (IFD0) that say what its strips must hold.
struct TIFFDirectory {
    /// ImageWidth and ImageLength; the rest as their tags name them (defaults as TIFF 6.0 has them).
    var width = 0, height = 0
    var compression = 1
    var samplesPerPixel = 1
    var bitsPerSample: [Int] = [1]
    var rowsPerStrip = Int(UInt32.max)
    var planar = false
    var subsampledYCbCr = false
    var stripOffsets: [Int] = []
    var stripByteCounts: [Int] = []
    var isTiled = false
    /// Orientation (274), 1…8 as in EXIF; FFmpeg's decoder does not pass it on.
    var orientation = 1

    /// Reads IFD0; nil when the file is not a classic TIFF or its directory is unreadable
    /// (FFmpeg's decoder then has its say).
    init?(reading file: InputFile) {
        let head = file.bytes(at: 0, count: 8)
        guard head.count == 8 else { return nil }
        let little = head[0] == 0x49
        let reader = Reader(file: file, little: little)
        let directory = Int64(reader.u32(head, 4))
        let countBytes = file.bytes(at: directory, count: 2)
        guard countBytes.count == 2 else { return nil }
        let entries = Int(reader.u16(countBytes, 0))
        let table = file.bytes(at: directory + 2, count: entries * 12)
        guard table.count == entries * 12 else { return nil }
        for index in 0..<entries {
            let entry = Array(table[(index * 12)..<(index * 12 + 12)])
            let tag = reader.u16(entry, 0)
            let values = { reader.values(of: entry) }
            switch tag {
            case 256: width = values().first ?? 0
            case 257: height = values().first ?? 0
            case 258: bitsPerSample = values()
            case 259: compression = values().first ?? 1
            case 262: subsampledYCbCr = subsampledYCbCr || values().first == 6
            case 273: stripOffsets = values()
            case 274: orientation = values().first ?? 1
            case 277: samplesPerPixel = values().first ?? 1
            case 278: rowsPerStrip = values().first ?? Int(UInt32.max)
            case 279: stripByteCounts = values()
            case 284: planar = values().first == 2
            case 322, 323, 324, 325: isTiled = true
            case 530: subsampledYCbCr = subsampledYCbCr || values().contains { $0 != 1 }
            default: break
            }
        }
        guard width > 0, height > 0 else { return nil }
    }

    /// Reads a directory entry's values in the file's byte order.
    private struct Reader {
        let file: InputFile
        let little: Bool

        func u16(_ bytes: [UInt8], _ i: Int) -> UInt16 { little ? bytes.le16(i) : bytes.be16(i) }
        func u32(_ bytes: [UInt8], _ i: Int) -> UInt32 { little ? bytes.le32(i) : bytes.be32(i) }

        /// The SHORT or LONG values of an entry, inline or at their offset; at most a million
        /// (a strip table longer than that is not a still this reader needs to trust).
        func values(of entry: [UInt8]) -> [Int] {
            let type = u16(entry, 2), count = Int(u32(entry, 4))
            let size = type == 3 ? 2 : type == 4 ? 4 : 0
            guard size > 0, count > 0, count <= 1_000_000 else { return [] }
            let bytes = count * size <= 4 ? Array(entry[8..<12]) : file.bytes(at: Int64(u32(entry, 8)), count: count * size)
            guard bytes.count >= count * size else { return [] }
            return (0..<count).map { size == 2 ? Int(u16(bytes, $0 * 2)) : Int(u32(bytes, $0 * 4)) }
        }
    }
}

extension TIFFDirectory {
    /// Why the strips cannot hold the picture the directory declares, or nil when they can
    /// (or when this check does not know the layout: tiles, subsampled YCbCr, codecs other
    /// than none, PackBits and Deflate, whose damage FFmpeg's decoder reports itself).
    func strippedPictureProblem(in file: InputFile) -> String? {
        guard !isTiled, !subsampledYCbCr, rowsPerStrip > 0, (1...64).contains(samplesPerPixel),
              bitsPerSample.allSatisfy({ (1...64).contains($0) }) else { return nil }
        let planes = planar ? samplesPerPixel : 1
        let rows = min(rowsPerStrip, height)
        let stripsPerPlane = (height + rows - 1) / rows
        guard stripOffsets.count >= stripsPerPlane * planes else {
            return "declares \(height) rows in strips of \(rows) but has \(stripOffsets.count) strips"
        }
        // Missing byte counts: FFmpeg reads a single strip to the end of the file.
        guard !stripByteCounts.isEmpty || stripOffsets.count == 1 else { return "has no strip byte counts" }
        let bits = planar ? (bitsPerSample.first ?? 1) : bitsPerSample.reduce(0, +) * (bitsPerSample.count == 1 ? samplesPerPixel : 1)
        let rowBytes = (width * bits + 7) / 8
        let fileSize = Int(file.size)
        for strip in 0..<(stripsPerPlane * planes) {
            if file.cancelled { return nil }
            let offset = stripOffsets[strip]
            let count = stripByteCounts.isEmpty ? fileSize - offset : (strip < stripByteCounts.count ? stripByteCounts[strip] : 0)
            guard offset >= 0, count >= 0, offset <= fileSize, count <= fileSize - offset else {
                return "strip \(strip) lies beyond the end of the file"
            }
            let stripRows = min(rows, height - (strip % stripsPerPlane) * rows)
            let needed = stripRows * rowBytes
            let held: Int
            switch compression {
            case 1: held = count
            case 32773: held = Self.packBitsLength(file, offset: offset, count: count, limit: needed)
            case 8, 32946: held = Inflation.measure(file, offset: offset, count: count, limit: needed).count(limit: needed) ?? -1
            default: continue
            }
            if held < 0 { return "strip \(strip) is not valid Deflate data" }
            if held < needed { return "strip \(strip) holds \(held) bytes of the \(needed) its \(stripRows) rows of \(width) pixels need" }
        }
        return nil
    }

    /// How many bytes a PackBits strip unpacks to (counting stops at `limit`).
    private static func packBitsLength(_ file: InputFile, offset: Int, count: Int, limit: Int) -> Int {
        var total = 0, position = 0
        var chunk: [UInt8] = [], chunkStart = 0
        func byte(_ at: Int) -> UInt8? {
            if at - chunkStart >= chunk.count {
                chunkStart = at
                chunk = file.bytes(at: Int64(offset + at), count: min(1 << 16, count - at))
            }
            return at - chunkStart < chunk.count ? chunk[at - chunkStart] : nil
        }
        while position < count, total < limit, let code = byte(position) {
            let n = Int(Int8(bitPattern: code))
            if n >= 0 {
                total += n + 1
                position += n + 2
            } else if n != -128 {
                total += 1 - n
                position += 2
            } else {
                position += 1
            }
        }
        // A literal run cut by the end of the strip does not count in full.
        return position > count ? total - (position - count) : total
    }
}
