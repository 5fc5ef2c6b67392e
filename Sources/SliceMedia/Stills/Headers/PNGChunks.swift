// What a PNG says about itself in the chunks before its pixels that FFmpeg 5.1 does not pass on:
// the EXIF orientation in eXIf (ignored by its decoder), and how to read its colours: cICP
// (H.273 codes, which outrank every other colour chunk, and may say HDR), else gAMA and cHRM,
// which count only when neither an ICC profile, iCCP, nor the sRGB chunk is present.

/// The colour and orientation chunks of a PNG, read from the chunks before the first IDAT.
struct PNGChunks {
    /// The eXIf chunk's orientation (1…8), if it has one.
    var orientation: Int?
    /// gAMA: the file gamma (sample = light^gamma, 0.45455 for sRGB-like files).
    var gamma: Double?
    /// cHRM: white point and primaries.
    var chromaticities: Chromaticities?
    /// cICP's colour primaries and transfer characteristics (H.273 codes), if present.
    var cicp: (primaries: Int, transfer: Int)?
    /// Whether iCCP or sRGB is present: then gAMA and cHRM are only hints.
    var declaresProfile = false

    /// Walks the chunks of the PNG `file` up to its first IDAT (at most 1024 chunks).
    init(reading file: InputFile) {
        var offset: Int64 = 8
        for _ in 0..<1024 {
            let header = file.bytes(at: offset, count: 8)
            guard header.count == 8 else { return }
            let length = Int(header.be32(0)), type = String(decoding: header[4..<8], as: UTF8.self)
            // Only small chunks are read; a length past 2^31 is not PNG (the decoder judges it).
            guard length < 1 << 31, type != "IDAT" else { return }
            switch type {
            case "iCCP", "sRGB": declaresProfile = true
            case "gAMA" where length == 4:
                let value = file.bytes(at: offset + 8, count: 4)
                if value.count == 4, value.be32(0) > 0 { gamma = Double(value.be32(0)) / 100_000 }
            case "cHRM" where length == 32:
                let value = file.bytes(at: offset + 8, count: 32)
                if value.count == 32 {
                    let n = (0..<8).map { Double(value.be32(4 * $0)) / 100_000 }
                    chromaticities = Chromaticities(red: (n[2], n[3]), green: (n[4], n[5]), blue: (n[6], n[7]), white: (n[0], n[1]))
                }
            case "cICP" where length == 4:
                let value = file.bytes(at: offset + 8, count: 4)
                if value.count == 4 { cicp = (Int(value[0]), Int(value[1])) }
            case "eXIf" where length <= 1 << 20:
                orientation = Self.exifOrientation(file.bytes(at: offset + 8, count: length))
            default:
                break
            }
            offset += 12 + Int64(length)
        }
    }

    /// How the PNG's colours are to be read when it carries no ICC profile: sRGB unless gAMA
    /// says another curve (a gamma within 1 % of 1/2.2 is taken as sRGB, as the PNG spec's own
    /// sRGB files write it) or cHRM other primaries.
    var colour: StillColour {
        guard !declaresProfile, gamma != nil || chromaticities != nil else { return .sRGB }
        var curve = ToneCurve.sRGB
        if let gamma, gamma > 0, abs(gamma * 2.2 - 1) > 0.01 { curve = .gamma(1 / gamma) }
        let primaries = chromaticities.flatMap { chroma in
            chroma.values.allSatisfy { $0 > 0 && $0 < 1 } && !Self.isBT709(chroma) ? chroma : nil
        }
        if primaries == nil && curve == .sRGB { return .sRGB }
        return .tagged(primaries ?? .bt709, curve)
    }

    /// Within the precision cHRM stores (1e-5) and writers round to: sRGB's own.
    private static func isBT709(_ chroma: Chromaticities) -> Bool {
        zip(chroma.values, Chromaticities.bt709.values).allSatisfy { abs($0 - $1) < 0.0006 }
    }

    /// Tag 0x0112 of the first directory of a TIFF-structured EXIF block.
    static func exifOrientation(_ exif: [UInt8]) -> Int? {
        guard exif.count >= 8 else { return nil }
        let little: Bool
        switch (exif[0], exif[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func u16(_ i: Int) -> Int { Int(little ? exif.le16(i) : exif.be16(i)) }
        func u32(_ i: Int) -> Int { Int(little ? exif.le32(i) : exif.be32(i)) }
        guard u16(2) == 42 else { return nil }
        let directory = u32(4)
        guard directory >= 8, directory + 2 <= exif.count else { return nil }
        let count = u16(directory)
        for index in 0..<count {
            let entry = directory + 2 + 12 * index
            guard entry + 12 <= exif.count else { return nil }
            // SHORT (3), one value, in the entry's first two value bytes.
            if u16(entry) == 0x0112, u16(entry + 2) == 3, u32(entry + 4) == 1 { return u16(entry + 8) }
        }
        return nil
    }
}
