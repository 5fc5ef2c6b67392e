// 16-bit stills into the compositor's layouts: planar RGB is a copy, Y'CbCr is BT.709 limited
// range computed by `YCbCr16` (the maths background fills use), 8-bit layouts take the
// rounded 8-bit picture through the 8-bit converter. And back: a 16-bit rendered frame reduced
// to its 8-bit twin, for the 8-bit outputs of a run that renders in 16 bits.

extension RGBA16Image {
    /// This picture in `layout` at the same size; alpha copied where the layout has it
    /// (opaque without one).
    package func planar(_ layout: PixelLayout) -> PlanarImage {
        guard layout.isDeep else { return reduced().planar(layout) }
        let target = PlanarImage(width: width, height: height, layout: layout)
        if layout.isYUV {
            convertLuma(into: target.planes[0])
            convertChroma(into: target, subsampling: layout.subsampling(ofPlane: 1))
        } else {
            // FFmpeg's planar RGB order is G, B, R(, A).
            for (p, c) in [1, 2, 0].enumerated() {
                for y in 0..<height { copy(row(c, y), to: target.planes[p].row16(y)) }
            }
        }
        if layout.hasAlpha {
            let plane = target.planes[3]
            for y in 0..<height {
                if hasAlpha { copy(row(3, y), to: plane.row16(y)) } else { plane.row16(y).update(repeating: 65535, count: width) }
            }
        }
        return target
    }

    private func copy(_ from: UnsafeMutablePointer<UInt16>, to: UnsafeMutablePointer<UInt16>) {
        for x in 0..<width { to[x] = from[x].littleEndian }
    }

    private func convertLuma(into plane: Plane) {
        for y in 0..<height {
            let r = row(0, y), g = row(1, y), b = row(2, y), to = plane.row16(y)
            for x in 0..<width {
                let luma = YCbCr16.luma(red: Int(r[x]), green: Int(g[x]), blue: Int(b[x]))
                to[x] = UInt16(truncatingIfNeeded: luma).littleEndian
            }
        }
    }

    /// Cb and Cr of each chroma sample from the sums of the (up to 2×2) pixels it covers, read
    /// as four pixels as the 8-bit converter reads them: at an odd edge the last column or row
    /// stands in for the missing one, and at 4:4:4 all four are the pixel itself.
    private func convertChroma(into target: PlanarImage, subsampling: (x: Int, y: Int)) {
        let cbPlane = target.planes[1], crPlane = target.planes[2]
        for cy in 0..<cbPlane.height {
            let y0 = cy << subsampling.y
            let y1 = subsampling.y == 1 && y0 + 1 < height ? y0 + 1 : y0
            let cb = cbPlane.row16(cy), cr = crPlane.row16(cy)
            let top = (row(0, y0), row(1, y0), row(2, y0)), bottom = (row(0, y1), row(1, y1), row(2, y1))
            for cx in 0..<cbPlane.width {
                let x0 = cx << subsampling.x
                let x1 = subsampling.x == 1 && x0 + 1 < width ? x0 + 1 : x0
                func sum(_ t: UnsafeMutablePointer<UInt16>, _ b: UnsafeMutablePointer<UInt16>) -> Int {
                    Int(t[x0]) &+ Int(t[x1]) &+ Int(b[x0]) &+ Int(b[x1])
                }
                let ycc = YCbCr16(red: sum(top.0, bottom.0), green: sum(top.1, bottom.1), blue: sum(top.2, bottom.2))
                cb[cx] = UInt16(truncatingIfNeeded: ycc.cb).littleEndian
                cr[cx] = UInt16(truncatingIfNeeded: ycc.cr).littleEndian
            }
        }
    }
}

extension PlanarImage {
    /// This 16-bit picture in its 8-bit twin layout, into `target` (made when nil): RGB and
    /// alpha rounded as `RGBA16Image.eightBit`, limited-range Y'CbCr by a rounded shift (FFmpeg
    /// scales limited range between depths by shifting).
    /// - Precondition: a 16-bit layout, and `target` (if given) its 8-bit twin at this size.
    package func reducedToEightBit(into target: PlanarImage? = nil) -> PlanarImage {
        precondition(layout.isDeep, "only 16-bit pictures are reduced")
        let result = target ?? PlanarImage(width: width, height: height, layout: layout.eightBit)
        precondition(result.layout == layout.eightBit && result.width == width && result.height == height)
        for (p, plane) in planes.enumerated() {
            let limited = layout.isLimitedRange(plane: p)
            for y in 0..<plane.height {
                let from = plane.row16(y), to = result.planes[p].row(y)
                if limited {
                    for x in 0..<plane.width { to[x] = UInt8(truncatingIfNeeded: min(255, (Int(UInt16(littleEndian: from[x])) &+ 128) >> 8)) }
                } else {
                    for x in 0..<plane.width { to[x] = RGBA16Image.eightBit(UInt16(littleEndian: from[x])) }
                }
            }
        }
        return result
    }
}
