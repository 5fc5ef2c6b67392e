// An ICC profile's tag table, read from its bytes: for the tags Little CMS cannot be trusted
// with. Debian's lcms2 2.14 returns NULL from cmsReadTag for a `cicp` tag laid out as ICC.1:2022
// says (a 4-byte payload; it wants 8), so a profile declaring PQ or HLG that way was drawn as SDR.

/// The tags of one ICC profile: where each lies in the profile's bytes.
struct ICCTagTable {
    private let profile: [UInt8]
    /// Each tag's signature, offset and size, as the table lists them.
    private let entries: [(signature: UInt32, offset: Int, size: Int)]

    /// Reads the table after the 128-byte header; a profile too short for the table it
    /// declares has no tags here (Little CMS refuses it when it opens it).
    init(_ profile: [UInt8]) {
        self.profile = profile
        guard profile.count >= 132 else { entries = []; return }
        let count = Int(profile.be32(128))
        guard count <= (profile.count - 132) / 12 else { entries = []; return }
        entries = (0..<count).map { index in
            let at = 132 + 12 * index
            return (profile.be32(at), Int(profile.be32(at + 4)), Int(profile.be32(at + 8)))
        }
    }

    /// What a `cicp` tag can say.
    enum VideoSignal: Equatable {
        /// No cicp tag.
        case absent
        /// H.273 colour primaries and transfer characteristics (the matrix and range that
        /// follow them describe YCbCr samples, which an ICC profile's RGB never is).
        case codes(primaries: Int, transfer: Int)
        /// A cicp tag that lies outside the profile, is of another type or is too short.
        case damaged
    }

    /// The `cicp` tag (ICC.1:2022 §10.3): type signature `cicp`, four reserved bytes, then one
    /// byte each of colour primaries, transfer characteristics, matrix coefficients and range.
    var videoSignal: VideoSignal {
        let cicp: UInt32 = 0x6369_6370
        guard let entry = entries.first(where: { $0.signature == cicp }) else { return .absent }
        guard entry.offset >= 0, entry.size >= 12, entry.offset <= profile.count - 12, profile.be32(entry.offset) == cicp else {
            return .damaged
        }
        return .codes(primaries: Int(profile[entry.offset + 8]), transfer: Int(profile[entry.offset + 9]))
    }
}
