// The per-frame half of an overlay: the prepared samples composed onto one plane of a frame,
// run by run, in integers, allocating nothing. Frames without alpha take one multiply-add a
// sample; frames with alpha (straight colour) divide by the result's alpha where the frame is
// not opaque.

extension OverlayPlane {
    /// Composes this plane's samples onto `plane` at `scale`/65536 of the layer's strength.
    /// - Parameters:
    ///   - sample: the plane's sample type (UInt8, or UInt16 little-endian).
    ///   - keepShift: the fixed-point shift of `keep`: 16 for 8-bit layouts, 24 for 16-bit.
    ///   - frameAlpha: the frame's alpha plane, as it was before this overlay, for a colour
    ///     plane of a layout with alpha; nil otherwise (the alpha plane itself composes as
    ///     an opaque plane does: a + (1 − a) × frame alpha).
    ///   - scale: the opacity × 65536, 1…65536.
    func draw<Sample: FixedWidthInteger & UnsignedInteger>(into plane: Plane, sample: Sample.Type, keepShift: Int,
                                                           frameAlpha: Plane?, scale: Int) {
        let unit = 1 << keepShift, half = unit >> 1, up = keepShift - 16
        let maximum = Int(Sample.max)
        let full = scale == 1 << 16
        pre.withUnsafeBufferPointer { pre in
            keep.withUnsafeBufferPointer { keep in
                pixelKeeps.withUnsafeBufferPointer { pixelKeeps in
                    /// The layer's value (× 2^keepShift) and keep at this opacity.
                    @inline(__always) func layer(_ j: Int) -> (value: Int, keep: Int) {
                        if full { return (Int(pre[j]) << up, Int(keep[j])) }
                        return (((Int(pre[j]) * scale + 32768) >> 16) << up, scaled(Int(keep[j])))
                    }
                    @inline(__always) func scaled(_ keep: Int) -> Int { full ? keep : unit - (((unit - keep) * scale + 32768) >> 16) }

                    for run in runs {
                        let row = UnsafeMutableRawPointer(plane.row(run.y)).assumingMemoryBound(to: Sample.self) + run.x
                        guard let frameAlpha else {
                            if full {
                                // The common case, kept free of branches so it vectorises.
                                for i in 0..<run.count {
                                    let j = run.start &+ i
                                    let value = (Int(pre[j]) &<< up) &+ Int(keep[j]) &* Int(Sample(littleEndian: row[i])) &+ half
                                    row[i] = Sample(truncatingIfNeeded: min(value &>> keepShift, maximum)).littleEndian
                                }
                            } else {
                                for i in 0..<run.count {
                                    let (value, keep) = layer(run.start &+ i)
                                    let mixed = value &+ keep &* Int(Sample(littleEndian: row[i])) &+ half
                                    row[i] = Sample(truncatingIfNeeded: min(mixed &>> keepShift, maximum)).littleEndian
                                }
                            }
                            continue
                        }
                        if pixelKeeps.isEmpty {
                            // A plane at full resolution: the frame's alpha at the same pixel.
                            let alpha = UnsafeMutableRawPointer(frameAlpha.row(run.y)).assumingMemoryBound(to: Sample.self) + run.x
                            for i in 0..<run.count {
                                let (value, keep) = layer(run.start &+ i)
                                let under = Int(Sample(littleEndian: alpha[i])), d = Int(Sample(littleEndian: row[i]))
                                let out: Int
                                if under == maximum {
                                    out = (value &+ keep &* d &+ half) &>> keepShift
                                } else {
                                    let coverage = (unit &- keep) &* maximum &+ keep &* under
                                    out = coverage == 0 ? d : (value &* maximum &+ keep &* under &* d &+ coverage / 2) / coverage
                                }
                                row[i] = Sample(truncatingIfNeeded: min(out, maximum)).littleEndian
                            }
                        } else {
                            // 4:2:0 chroma: the four pixels' alpha, each weighed by its own keep.
                            let y0 = run.y << 1, y1 = min(y0 + 1, frameAlpha.height - 1)
                            let top = UnsafeMutableRawPointer(frameAlpha.row(y0)).assumingMemoryBound(to: Sample.self)
                            let bottom = UnsafeMutableRawPointer(frameAlpha.row(y1)).assumingMemoryBound(to: Sample.self)
                            for i in 0..<run.count {
                                let j = run.start &+ i
                                let x0 = (run.x &+ i) << 1, x1 = min(x0 + 1, frameAlpha.width - 1)
                                let unders = (Int(Sample(littleEndian: top[x0])), Int(Sample(littleEndian: top[x1])),
                                              Int(Sample(littleEndian: bottom[x0])), Int(Sample(littleEndian: bottom[x1])))
                                let keeps = (scaled(Int(pixelKeeps[4 &* j])), scaled(Int(pixelKeeps[4 &* j &+ 1])),
                                             scaled(Int(pixelKeeps[4 &* j &+ 2])), scaled(Int(pixelKeeps[4 &* j &+ 3])))
                                let shown = keeps.0 &* unders.0 &+ keeps.1 &* unders.1 &+ keeps.2 &* unders.2 &+ keeps.3 &* unders.3
                                let coverage = (4 &* unit &- keeps.0 &- keeps.1 &- keeps.2 &- keeps.3) &* maximum &+ shown
                                let d = Int(Sample(littleEndian: row[i]))
                                let out = coverage == 0 ? d : (4 &* layer(j).value &* maximum &+ shown &* d &+ coverage / 2) / coverage
                                row[i] = Sample(truncatingIfNeeded: min(out, maximum)).littleEndian
                            }
                        }
                    }
                }
            }
        }
    }
}
