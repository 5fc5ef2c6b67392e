// The planar pixel layouts the compositor renders into: 8-bit ones for 8-bit outputs, and their
// 16-bit twins when an output asks for more than 8 bits. One strip-copy routine serves them all
// (it copies bytes); only plane sizes, sample sizes and fill values differ.

/// A planar pixel layout. Names follow FFmpeg's pixel formats (the 16-bit ones are native
/// little-endian, FFmpeg's `…16le`).
package enum PixelLayout: String, Sendable, CaseIterable {
    /// Y, U, V; chroma halved in both directions. What players expect.
    case yuv420p
    /// Y, U, V, A; chroma halved, full-size alpha.
    case yuva420p
    /// Y, U, V at full resolution.
    case yuv444p
    /// G, B, R planes (FFmpeg's order), for RGB outputs such as PNG.
    case gbrp
    /// G, B, R, A planes.
    case gbrap
    /// The same five with 16-bit samples.
    case yuv420p16, yuva420p16, yuv444p16, gbrp16, gbrap16

    /// Number of planes.
    package var planeCount: Int {
        switch self {
        case .yuv420p, .yuv444p, .gbrp, .yuv420p16, .yuv444p16, .gbrp16: 3
        case .yuva420p, .gbrap, .yuva420p16, .gbrap16: 4
        }
    }

    /// Whether the layout carries an alpha plane.
    package var hasAlpha: Bool { planeCount == 4 }

    /// Bytes of one sample: 1, or 2 for the 16-bit layouts.
    package var bytesPerSample: Int { isDeep ? 2 : 1 }

    /// Whether samples have 16 bits.
    package var isDeep: Bool {
        switch self {
        case .yuv420p16, .yuva420p16, .yuv444p16, .gbrp16, .gbrap16: true
        default: false
        }
    }

    /// Whether the planes hold Y'CbCr (as opposed to RGB).
    package var isYUV: Bool {
        switch self {
        case .yuv420p, .yuva420p, .yuv444p, .yuv420p16, .yuva420p16, .yuv444p16: true
        case .gbrp, .gbrap, .gbrp16, .gbrap16: false
        }
    }

    /// The layout with the same planes and 8-bit samples (itself for 8-bit layouts).
    package var eightBit: PixelLayout {
        switch self {
        case .yuv420p16: .yuv420p
        case .yuva420p16: .yuva420p
        case .yuv444p16: .yuv444p
        case .gbrp16: .gbrp
        case .gbrap16: .gbrap
        default: self
        }
    }

    /// The layout with the same planes and 16-bit samples (itself for 16-bit layouts).
    package var sixteenBit: PixelLayout {
        switch self {
        case .yuv420p: .yuv420p16
        case .yuva420p: .yuva420p16
        case .yuv444p: .yuv444p16
        case .gbrp: .gbrp16
        case .gbrap: .gbrap16
        default: self
        }
    }

    /// log2 of the horizontal and vertical subsampling of `plane`.
    package func subsampling(ofPlane plane: Int) -> (x: Int, y: Int) {
        switch eightBit {
        case .yuv420p, .yuva420p: (plane == 1 || plane == 2) ? (1, 1) : (0, 0)
        default: (0, 0)
        }
    }

    /// The size of `plane`, in samples, for a picture of `width` × `height` (rounded up, as
    /// FFmpeg does).
    package func planeSize(_ plane: Int, width: Int, height: Int) -> (width: Int, height: Int) {
        let s = subsampling(ofPlane: plane)
        return ((width + (1 << s.x) - 1) >> s.x, (height + (1 << s.y) - 1) >> s.y)
    }

    /// Whether `plane` holds limited-range Y'CbCr (scaled by shifting when its depth changes)
    /// rather than full-range RGB or alpha (scaled by 257).
    package func isLimitedRange(plane: Int) -> Bool { isYUV && plane < 3 }

    /// The sample each plane holds for a solid `color`: BT.709 limited-range Y'CbCr or RGB,
    /// then alpha. 16-bit RGB and alpha are the 8-bit values × 257; 16-bit Y'CbCr is computed
    /// from the same 16-bit RGB as stills are (`YCbCr16`), so a still and a background of the
    /// same colour give the same samples.
    package func fillValues(for color: RGBAColor) -> [Int] {
        let rgba = [color.red, color.green, color.blue, color.alpha].map { Int($0) }
        let values: [Int]
        switch (isYUV, isDeep) {
        case (true, false):
            let ycc = color.bt709LimitedYCbCr
            values = [Int(ycc.y), Int(ycc.cb), Int(ycc.cr), rgba[3]]
        case (true, true):
            let wide = rgba.map { $0 * 257 }
            let ycc = YCbCr16(red: 4 * wide[0], green: 4 * wide[1], blue: 4 * wide[2])
            values = [YCbCr16.luma(red: wide[0], green: wide[1], blue: wide[2]), ycc.cb, ycc.cr, wide[3]]
        case (false, _):
            let scale = isDeep ? 257 : 1
            values = [rgba[1], rgba[2], rgba[0], rgba[3]].map { $0 * scale }
        }
        return Array(values.prefix(planeCount))
    }

    /// The bytes of one sample of each plane for a solid `color` (16-bit samples
    /// little-endian): what background fills repeat.
    package func fillPattern(for color: RGBAColor) -> [[UInt8]] {
        fillValues(for: color).map { value in
            isDeep ? [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)] : [UInt8(truncatingIfNeeded: value)]
        }
    }
}

/// BT.709 limited-range Y'CbCr at 16 bits from 16-bit full-range RGB, in fixed point: Y' in
/// 4096…60160 and Cb, Cr in 4096…61440 (the 8-bit ranges × 256, as FFmpeg scales limited range
/// to more bits). Chroma is taken from sums of four RGB samples (a 2×2 block, or one pixel
/// four times), as the 8-bit converter does.
package struct YCbCr16: Equatable {
    package let cb: Int, cr: Int

    private static let kr = 0.2126, kb = 0.0722, kg = 1 - kr - kb
    /// Coefficients × 2^24 that turn 16-bit RGB into 16-bit limited-range values (also what
    /// `FrameOverlay` converts premultiplied layers with).
    private static func fixed(_ value: Double) -> Int { Int((value * Double(1 << 24)).rounded()) }
    private static let yScale = 219.0 * 256 / 65535, cScale = 224.0 * 256 / 65535
    static let yR = fixed(yScale * kr), yG = fixed(yScale * kg), yB = fixed(yScale * kb)
    static let cbR = fixed(cScale * -kr / (2 * (1 - kb))), cbG = fixed(cScale * -kg / (2 * (1 - kb)))
    static let cbB = fixed(cScale * 0.5)
    static let crR = fixed(cScale * 0.5), crG = fixed(cScale * -kg / (2 * (1 - kr)))
    static let crB = fixed(cScale * -kb / (2 * (1 - kr)))

    /// Y' of one pixel.
    @inline(__always)
    package static func luma(red: Int, green: Int, blue: Int) -> Int {
        (yR &* red &+ yG &* green &+ yB &* blue &+ (4096 << 24) &+ (1 << 23)) &>> 24
    }

    /// Cb and Cr from the sums of four pixels' R, G and B.
    @inline(__always)
    package init(red: Int, green: Int, blue: Int) {
        let half = 1 << 25
        let u = (YCbCr16.cbR &* red &+ YCbCr16.cbG &* green &+ YCbCr16.cbB &* blue &+ half) &>> 26
        let v = (YCbCr16.crR &* red &+ YCbCr16.crG &* green &+ YCbCr16.crB &* blue &+ half) &>> 26
        cb = min(65535, max(0, 32768 &+ u))
        cr = min(65535, max(0, 32768 &+ v))
    }
}
