// What a still says about its colours: an embedded ICC profile, colour tags (primaries and
// transfer, from a HEIF's nclx box, a decoder's tags or a PNG's gAMA/cHRM), or nothing, which
// means sRGB. HDR transfers are refused here, before any pixel work.

import CFFmpeg

/// The chromaticities (CIE xy) of a set of RGB primaries and their white point.
struct Chromaticities: Equatable, Sendable {
    var red: (x: Double, y: Double), green: (x: Double, y: Double), blue: (x: Double, y: Double)
    var white: (x: Double, y: Double)

    static func == (a: Chromaticities, b: Chromaticities) -> Bool { a.values == b.values }

    /// The eight numbers, red x first.
    var values: [Double] { [red.x, red.y, green.x, green.y, blue.x, blue.y, white.x, white.y] }

    /// BT.709 and sRGB, D65.
    static let bt709 = Chromaticities(red: (0.64, 0.33), green: (0.30, 0.60), blue: (0.15, 0.06), white: (0.3127, 0.3290))

    /// An H.273 colour-primaries code (FFmpeg's `AVColorPrimaries` numbers are the same), as
    /// libavutil knows them; nil for codes that mean BT.709 or nothing, or that it does not know.
    init?(primariesCode code: Int) {
        guard code != Int(AVCOL_PRI_BT709.rawValue), code != Int(AVCOL_PRI_UNSPECIFIED.rawValue),
              let value = UInt32(exactly: code),
              let description = av_csp_primaries_desc_from_id(AVColorPrimaries(rawValue: value))?.pointee else { return nil }
        func xy(_ point: AVCIExy) -> (x: Double, y: Double) { (av_q2d(point.x), av_q2d(point.y)) }
        self.init(red: xy(description.prim.r), green: xy(description.prim.g), blue: xy(description.prim.b),
                  white: xy(description.wp))
    }

    init(red: (x: Double, y: Double), green: (x: Double, y: Double), blue: (x: Double, y: Double), white: (x: Double, y: Double)) {
        self.red = red
        self.green = green
        self.blue = blue
        self.white = white
    }
}

/// How tagged samples map to light.
enum ToneCurve: Equatable, Sendable {
    /// The sRGB curve: also what every SDR video transfer (BT.709, BT.601, BT.2020) is read as.
    case sRGB
    /// A pure power law, light = sample^gamma (1 for linear samples).
    case gamma(Double)
}

/// Where a still's colours are defined, as its file says.
enum StillColour: Equatable, Sendable {
    /// sRGB: no profile and no tags, or tags that say BT.709/sRGB primaries and an SDR curve.
    case sRGB
    /// An embedded ICC profile.
    case profile([UInt8])
    /// Tagged primaries and tone curve.
    case tagged(Chromaticities, ToneCurve)

    /// The most bytes of ICC profile read: JPEG's APP2 segments can carry about 16 MB.
    static let largestProfile = 16 << 20

    /// Colours from H.273 tags (nclx, or a decoder's frame tags), refusing HDR.
    /// - Throws: `ColourRefusal` for a PQ or HLG transfer.
    static func tagged(primaries: Int, transfer: Int, chromaticities: Chromaticities? = nil) throws(ColourRefusal) -> StillColour {
        let curve: ToneCurve
        switch UInt32(clamping: transfer) {
        case AVCOL_TRC_SMPTE2084.rawValue: throw ColourRefusal.hdr("PQ")
        case AVCOL_TRC_ARIB_STD_B67.rawValue: throw ColourRefusal.hdr("HLG")
        case AVCOL_TRC_LINEAR.rawValue: curve = .gamma(1)
        case AVCOL_TRC_GAMMA22.rawValue: curve = .gamma(2.2)
        case AVCOL_TRC_GAMMA28.rawValue: curve = .gamma(2.8)
        default: curve = .sRGB
        }
        let primaries = chromaticities ?? Chromaticities(primariesCode: primaries)
        if primaries == nil && curve == .sRGB { return .sRGB }
        return .tagged(primaries ?? .bt709, curve)
    }

    /// The key a conversion is cached under: the profile's SHA-256, or the tags' numbers.
    var key: String {
        switch self {
        case .sRGB: return "srgb"
        case .profile(let bytes):
            let hash = SHA256()
            bytes.withUnsafeBytes { hash.update($0) }
            return "icc " + hash.finalHex()
        case .tagged(let primaries, let curve):
            return "tagged " + primaries.values.map { String($0) }.joined(separator: ",") + " \(curve)"
        }
    }
}

/// Why a still's colours cannot be converted: a one-line reason for the user.
struct ColourRefusal: Error, Equatable {
    let message: String

    static func hdr(_ transfer: String) -> ColourRefusal {
        ColourRefusal(message: "is an HDR still (\(transfer) transfer); slicevid renders SDR only: tone-map it to SDR first")
    }
}
