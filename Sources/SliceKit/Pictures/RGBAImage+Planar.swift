// Packed RGB stills into the compositor's planar layouts, with the same BT.709 limited-range
// maths as background colours (`RGBAColor.bt709LimitedYCbCr`), so a still and a background of
// the same colour give the same bytes. Runs once per still; written for speed because the first
// still is converted before the first frame can be encoded. The source is an `RGBAImage`, or a
// decoder's packed RGB picture read in place (one pass fewer for a still already the frame's
// size).

/// The byte order of packed 8-bit pixels a still can be converted from.
package enum PackedOrder: Sendable {
    /// R, G, B, A: `RGBAImage`'s own.
    case rgba
    /// R, G, B, opaque (FFmpeg's `rgb24`).
    case rgb
    /// B, G, R, opaque (`bgr24`).
    case bgr
}

extension RGBAImage {
    /// This picture in `layout` at the same size: Y'CbCr (BT.709, limited range, chroma averaged
    /// over each subsampled block) for YUV layouts, a plain de-interleave for RGB layouts, and
    /// alpha copied where the layout has it. 16-bit layouts get every sample × 257 first.
    package func planar(_ layout: PixelLayout) -> PlanarImage {
        if layout.isDeep { return RGBA16Image(expanding: self, alpha: layout.hasAlpha).planar(layout) }
        return pixels.withUnsafeBufferPointer { buffer in
            PlanarImage.converting(buffer.baseAddress!, width: width, height: height, rowStride: width * 4,
                                   order: .rgba, into: layout)
        }
    }
}

extension PlanarImage {
    /// Packed pixels at `base` (`height` rows, `rowStride` bytes apart) converted to `layout`,
    /// exactly as `RGBAImage.planar` converts the same colours; an order without alpha is opaque.
    /// - Precondition: an 8-bit layout.
    package static func converting(_ base: UnsafePointer<UInt8>, width: Int, height: Int, rowStride: Int,
                                  order: PackedOrder, into layout: PixelLayout) -> PlanarImage {
        precondition(!layout.isDeep, "packed 8-bit pixels convert into 8-bit layouts")
        let target = PlanarImage(width: width, height: height, layout: layout)
        let source = (base: base, width: width, height: height, stride: rowStride)
        // One specialised copy of the loops per byte order: the offsets are constants in each.
        switch order {
        case .rgba: PackedConverter<RGBAOrder>.convert(source, into: target)
        case .rgb: PackedConverter<RGBOrder>.convert(source, into: target)
        case .bgr: PackedConverter<BGROrder>.convert(source, into: target)
        }
        return target
    }
}

/// Where the channels of one packed pixel are, at compile time.
protocol PixelOrder {
    static var size: Int { get }
    static var red: Int { get }
    static var green: Int { get }
    static var blue: Int { get }
    /// The alpha byte's offset, or nil when every pixel is opaque.
    static var alpha: Int? { get }
}

enum RGBAOrder: PixelOrder {
    static var size: Int { 4 }
    static var red: Int { 0 }
    static var green: Int { 1 }
    static var blue: Int { 2 }
    static var alpha: Int? { 3 }
}

enum RGBOrder: PixelOrder {
    static var size: Int { 3 }
    static var red: Int { 0 }
    static var green: Int { 1 }
    static var blue: Int { 2 }
    static var alpha: Int? { nil }
}

enum BGROrder: PixelOrder {
    static var size: Int { 3 }
    static var red: Int { 2 }
    static var green: Int { 1 }
    static var blue: Int { 0 }
    static var alpha: Int? { nil }
}

/// Fixed-point (×2¹⁶) BT.709 limited-range coefficients, derived from the same constants as
/// `RGBAColor.bt709LimitedYCbCr`; `FrameOverlay` converts premultiplied layers with them too.
enum Coefficients {
    static let kr = 0.2126, kb = 0.0722, kg = 1 - kr - kb
    static func fixed(_ value: Double) -> Int { Int((value * 65536).rounded()) }
    static let yR = fixed(219 / 255 * kr), yG = fixed(219 / 255 * kg), yB = fixed(219 / 255 * kb)
    static let cbR = fixed(224 / 255 * -kr / (2 * (1 - kb))), cbG = fixed(224 / 255 * -kg / (2 * (1 - kb)))
    static let cbB = fixed(224 / 255 * 0.5)
    static let crR = fixed(224 / 255 * 0.5), crG = fixed(224 / 255 * -kg / (2 * (1 - kr)))
    static let crB = fixed(224 / 255 * -kb / (2 * (1 - kr)))
}

/// The conversion loops, for one byte order.
enum PackedConverter<Order: PixelOrder> {
    typealias Source = (base: UnsafePointer<UInt8>, width: Int, height: Int, stride: Int)

    static func convert(_ source: Source, into target: PlanarImage) {
        switch target.layout {
        case .yuv420p16, .yuva420p16, .yuv444p16, .gbrp16, .gbrap16:
            preconditionFailure("packed 8-bit pixels convert into 8-bit layouts")
        case .gbrp, .gbrap:
            // FFmpeg's planar RGB order is G, B, R(, A).
            extract(Order.green, from: source, into: target.planes[0])
            extract(Order.blue, from: source, into: target.planes[1])
            extract(Order.red, from: source, into: target.planes[2])
            if target.layout.hasAlpha { extractAlpha(from: source, into: target.planes[3]) }
        case .yuv420p, .yuva420p, .yuv444p:
            convertLuma(source, into: target.planes[0])
            convertChroma(source, into: target, subsampling: target.layout.subsampling(ofPlane: 1))
            if target.layout.hasAlpha { extractAlpha(from: source, into: target.planes[3]) }
        }
    }

    // The loops below use wrapping arithmetic (`&+`, `&*`): the values are bounded far below
    // overflow, and skipping the checks makes the conversion several times faster.

    private static func convertLuma(_ source: Source, into plane: Plane) {
        let (r, g, b) = (Coefficients.yR, Coefficients.yG, Coefficients.yB)
        let offset = (16 << 16) + (1 << 15)
        for y in 0..<source.height {
            var pixel = source.base + y * source.stride
            let row = plane.row(y)
            for x in 0..<source.width {
                let value = r &* Int(pixel[Order.red]) &+ g &* Int(pixel[Order.green]) &+ b &* Int(pixel[Order.blue]) &+ offset
                row[x] = UInt8(truncatingIfNeeded: value &>> 16)
                pixel += Order.size
            }
        }
    }

    /// Cb and Cr of each chroma sample from the mean RGB of the (up to 2×2) pixels it covers.
    /// Every block is read as four pixels: at an odd right or bottom edge the last column or
    /// row stands in for the missing one, and for 4:4:4 all four are the pixel itself, so the
    /// mean is always a shift by two and the loop has no branches.
    private static func convertChroma(_ source: Source, into target: PlanarImage, subsampling: (x: Int, y: Int)) {
        let cb = target.planes[1], cr = target.planes[2]
        let half = 1 << 17
        let (r, g, b, size) = (Order.red, Order.green, Order.blue, Order.size)
        for cy in 0..<cb.height {
            let y0 = cy << subsampling.y
            let top = source.base + y0 * source.stride
            let bottom = subsampling.y == 1 && y0 + 1 < source.height ? top + source.stride : top
            let cbRow = cb.row(cy), crRow = cr.row(cy)
            for cx in 0..<cb.width {
                let x0 = cx << subsampling.x
                let dx = subsampling.x == 1 && x0 + 1 < source.width ? size : 0
                let p = top + x0 * size, q = bottom + x0 * size
                let sumR = Int(p[r]) &+ Int(p[dx + r]) &+ Int(q[r]) &+ Int(q[dx + r])
                let sumG = Int(p[g]) &+ Int(p[dx + g]) &+ Int(q[g]) &+ Int(q[dx + g])
                let sumB = Int(p[b]) &+ Int(p[dx + b]) &+ Int(q[b]) &+ Int(q[dx + b])
                let u = (Coefficients.cbR &* sumR &+ Coefficients.cbG &* sumG &+ Coefficients.cbB &* sumB &+ half) &>> 18
                let v = (Coefficients.crR &* sumR &+ Coefficients.crG &* sumG &+ Coefficients.crB &* sumB &+ half) &>> 18
                cbRow[cx] = UInt8(clamping: 128 &+ u)
                crRow[cx] = UInt8(clamping: 128 &+ v)
            }
        }
    }

    private static func extract(_ channel: Int, from source: Source, into plane: Plane) {
        for y in 0..<source.height {
            var pixel = source.base + y * source.stride + channel
            let row = plane.row(y)
            for x in 0..<source.width {
                row[x] = pixel.pointee
                pixel += Order.size
            }
        }
    }

    /// The alpha plane: the source's alpha bytes, or opaque when it has none.
    private static func extractAlpha(from source: Source, into plane: Plane) {
        guard let alpha = Order.alpha else {
            for y in 0..<plane.height { plane.row(y).update(repeating: 255, count: plane.width) }
            return
        }
        extract(alpha, from: source, into: plane)
    }
}
