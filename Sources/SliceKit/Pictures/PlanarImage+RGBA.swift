// A rendered frame back to packed RGBA, optionally scaled down: what a JPEG or WebP poster and
// a storyboard's cells are written from. The inverse of `RGBAImage.planar`: BT.709 limited-range
// Y'CbCr to RGB for YUV layouts, a re-interleave for RGB layouts.

extension PlanarImage {
    /// The picture as RGBA at `width` × `height`: each target pixel is the average of the source
    /// pixels its area covers (area averaging: no ringing, so no colours the frame never had).
    /// - Precondition: 1 ≤ `width` ≤ the image's width, 1 ≤ `height` ≤ its height.
    package func rgba(width: Int, height: Int) -> RGBAImage {
        precondition((1...self.width).contains(width) && (1...self.height).contains(height), "rgba only scales down")
        // A 16-bit frame (a run with a deeper output) is first rounded to its 8-bit twin, exactly.
        if layout.isDeep { return reducedToEightBit().rgba(width: width, height: height) }
        var image = RGBAImage(width: width, height: height)
        image.pixels.withUnsafeMutableBufferPointer { pixels in
            var sums = [Int](repeating: 0, count: width * 4)
            var counts = [Int](repeating: 0, count: width)
            for y in 0..<height {
                sums.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
                counts.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
                // Each source row and column belongs to exactly one target row and column.
                for sourceY in (y * self.height / height)..<((y + 1) * self.height / height) {
                    for sourceX in 0..<self.width {
                        let x = sourceX * width / self.width
                        let color = rgba(x: sourceX, y: sourceY)
                        sums[4 * x] += Int(color.red)
                        sums[4 * x + 1] += Int(color.green)
                        sums[4 * x + 2] += Int(color.blue)
                        sums[4 * x + 3] += Int(color.alpha)
                        counts[x] += 1
                    }
                }
                for x in 0..<width {
                    let count = max(counts[x], 1)
                    for channel in 0..<4 {
                        pixels[4 * (y * width + x) + channel] = UInt8((sums[4 * x + channel] + count / 2) / count)
                    }
                }
            }
        }
        return image
    }

    /// Pixels `x0…` of row `y` of an 8-bit frame as 16-bit sRGB red, green, blue triples (each
    /// byte × 257), as many as `row` holds: exactly `rgba(x:y:)`'s colours, a row at a time.
    package func readRGB(y: Int, from x0: Int, into row: inout [Int]) {
        let count = row.count / 3
        precondition(!layout.isDeep && x0 >= 0 && x0 + count <= width && (0..<height).contains(y))
        row.withUnsafeMutableBufferPointer { row in
            switch layout {
            case .gbrp, .gbrap:
                let g = planes[0].row(y) + x0, b = planes[1].row(y) + x0, r = planes[2].row(y) + x0
                for i in 0..<count { (row[3 * i], row[3 * i + 1], row[3 * i + 2]) = (Int(r[i]) * 257, Int(g[i]) * 257, Int(b[i]) * 257) }
            case .yuv420p, .yuva420p, .yuv444p:
                let s = layout.subsampling(ofPlane: 1)
                let luma = planes[0].row(y), cbRow = planes[1].row(y >> s.y), crRow = planes[2].row(y >> s.y)
                for i in 0..<count {
                    let x = x0 + i
                    let (red, green, blue) = Self.bt709(luma: luma[x], cb: cbRow[x >> s.x], cr: crRow[x >> s.x])
                    (row[3 * i], row[3 * i + 1], row[3 * i + 2]) = (Int(red) * 257, Int(green) * 257, Int(blue) * 257)
                }
            case .yuv420p16, .yuva420p16, .yuv444p16, .gbrp16, .gbrap16:
                preconditionFailure("16-bit frames are reduced to 8 bits first")
            }
        }
    }

    /// BT.709 limited-range Y'CbCr to 8-bit R'G'B', rounded half away from zero and clamped.
    @inline(__always)
    static func bt709(luma y: UInt8, cb: UInt8, cr: UInt8) -> (UInt8, UInt8, UInt8) {
        let luma = (Double(y) - 16) * 255 / 219
        let cb = (Double(cb) - 128) * 255 / 224
        let cr = (Double(cr) - 128) * 255 / 224
        // BT.709: kr 0.2126, kb 0.0722.
        let red = luma + 1.5748 * cr
        let green = luma - 0.187324 * cb - 0.468124 * cr
        let blue = luma + 1.8556 * cb
        return (byte(red), byte(green), byte(blue))
    }

    /// `value.rounded()` clamped to 0…255, without a call to the C library's `round` (the
    /// x86-64 baseline has no rounding instruction): the whole part and the half compared.
    @inline(__always)
    static func byte(_ value: Double) -> UInt8 {
        guard value > 0 else { return 0 }
        guard value < 255 else { return 255 }
        let whole = Int(value)
        return UInt8(value - Double(whole) >= 0.5 ? whole + 1 : whole)
    }

    /// The colour of pixel (`x`, `y`) of an 8-bit frame.
    package func rgba(x: Int, y: Int) -> RGBAColor {
        let alpha = layout.hasAlpha ? planes[3].row(y)[x] : 255
        switch layout {
        case .gbrp, .gbrap:
            return RGBAColor(red: planes[2].row(y)[x], green: planes[0].row(y)[x], blue: planes[1].row(y)[x], alpha: alpha)
        case .yuv420p, .yuva420p, .yuv444p:
            let s = layout.subsampling(ofPlane: 1)
            let (red, green, blue) = Self.bt709(luma: planes[0].row(y)[x], cb: planes[1].row(y >> s.y)[x >> s.x], cr: planes[2].row(y >> s.y)[x >> s.x])
            return RGBAColor(red: red, green: green, blue: blue, alpha: alpha)
        case .yuv420p16, .yuva420p16, .yuv444p16, .gbrp16, .gbrap16:
            preconditionFailure("16-bit frames are reduced to 8 bits first")
        }
    }
}
