// RGBA stills into the compositor's planar layouts, with the same BT.709 limited-range maths as
// background colours (`RGBAColor.bt709LimitedYCbCr`), so a still and a background of the same
// colour give the same bytes. Runs once per still; written for speed because the first still
// is converted before the first frame can be encoded.

extension RGBAImage {
    /// This picture in `layout` at the same size: Y'CbCr (BT.709, limited range, chroma averaged
    /// over each subsampled block) for YUV layouts, a plain de-interleave for RGB layouts, and
    /// alpha copied where the layout has it.
    public func planar(_ layout: PixelLayout) -> PlanarImage {
        let target = PlanarImage(width: width, height: height, layout: layout)
        pixels.withUnsafeBufferPointer { buffer in
            let source = buffer.baseAddress!
            switch layout {
            case .gbrp, .gbrap:
                // FFmpeg's planar RGB order is G, B, R(, A).
                for (plane, channel) in zip(target.planes, [1, 2, 0, 3]) { extract(channel, from: source, into: plane) }
            case .yuv420p, .yuva420p, .yuv444p:
                convertLuma(source, into: target.planes[0])
                convertChroma(source, into: target, subsampling: layout.subsampling(ofPlane: 1))
                if layout.hasAlpha { extract(3, from: source, into: target.planes[3]) }
            }
        }
        return target
    }

    /// Fixed-point (×2¹⁶) BT.709 limited-range coefficients, derived from the same constants as
    /// `RGBAColor.bt709LimitedYCbCr`.
    private enum Coefficients {
        static let kr = 0.2126, kb = 0.0722, kg = 1 - kr - kb
        static func fixed(_ value: Double) -> Int { Int((value * 65536).rounded()) }
        static let yR = fixed(219 / 255 * kr), yG = fixed(219 / 255 * kg), yB = fixed(219 / 255 * kb)
        static let cbR = fixed(224 / 255 * -kr / (2 * (1 - kb))), cbG = fixed(224 / 255 * -kg / (2 * (1 - kb)))
        static let cbB = fixed(224 / 255 * 0.5)
        static let crR = fixed(224 / 255 * 0.5), crG = fixed(224 / 255 * -kg / (2 * (1 - kr)))
        static let crB = fixed(224 / 255 * -kb / (2 * (1 - kr)))
    }

    // The loops below use wrapping arithmetic (`&+`, `&*`): the values are bounded far below
    // overflow, and skipping the checks makes the conversion several times faster.

    private func convertLuma(_ source: UnsafePointer<UInt8>, into plane: Plane) {
        let (r, g, b) = (Coefficients.yR, Coefficients.yG, Coefficients.yB)
        let offset = (16 << 16) + (1 << 15)
        for y in 0..<height {
            var pixel = source + y * width * 4
            let row = plane.row(y)
            for x in 0..<width {
                let value = r &* Int(pixel[0]) &+ g &* Int(pixel[1]) &+ b &* Int(pixel[2]) &+ offset
                row[x] = UInt8(truncatingIfNeeded: value &>> 16)
                pixel += 4
            }
        }
    }

    /// Cb and Cr of each chroma sample from the mean RGB of the (up to 2×2) pixels it covers.
    /// Every block is read as four pixels: at an odd right or bottom edge the last column or
    /// row stands in for the missing one, and for 4:4:4 all four are the pixel itself, so the
    /// mean is always a shift by two and the loop has no branches.
    private func convertChroma(_ source: UnsafePointer<UInt8>, into target: PlanarImage, subsampling: (x: Int, y: Int)) {
        let cb = target.planes[1], cr = target.planes[2]
        let stride = width * 4
        let half = 1 << 17
        for cy in 0..<cb.height {
            let y0 = cy << subsampling.y
            let top = source + y0 * stride
            let bottom = subsampling.y == 1 && y0 + 1 < height ? top + stride : top
            let cbRow = cb.row(cy), crRow = cr.row(cy)
            for cx in 0..<cb.width {
                let x0 = cx << subsampling.x
                let dx = subsampling.x == 1 && x0 + 1 < width ? 4 : 0
                let a = top + x0 * 4, b = bottom + x0 * 4
                let sumR = Int(a[0]) &+ Int(a[dx]) &+ Int(b[0]) &+ Int(b[dx])
                let sumG = Int(a[1]) &+ Int(a[dx + 1]) &+ Int(b[1]) &+ Int(b[dx + 1])
                let sumB = Int(a[2]) &+ Int(a[dx + 2]) &+ Int(b[2]) &+ Int(b[dx + 2])
                let u = (Coefficients.cbR &* sumR &+ Coefficients.cbG &* sumG &+ Coefficients.cbB &* sumB &+ half) &>> 18
                let v = (Coefficients.crR &* sumR &+ Coefficients.crG &* sumG &+ Coefficients.crB &* sumB &+ half) &>> 18
                cbRow[cx] = UInt8(clamping: 128 &+ u)
                crRow[cx] = UInt8(clamping: 128 &+ v)
            }
        }
    }

    private func extract(_ channel: Int, from source: UnsafePointer<UInt8>, into plane: Plane) {
        for y in 0..<height {
            var pixel = source + y * width * 4 + channel
            let row = plane.row(y)
            for x in 0..<width {
                row[x] = pixel.pointee
                pixel += 4
            }
        }
    }
}
