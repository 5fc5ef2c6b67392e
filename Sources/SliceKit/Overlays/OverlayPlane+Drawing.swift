// The per-frame half of an overlay: the prepared samples composed onto one plane of a frame,
// run by run, in integers, allocating nothing. Opaque runs are copies; blended runs on frames
// without alpha one multiply-add a sample; frames with alpha (straight colour) divide by the
// result's alpha where the frame is not opaque.

extension OverlayPlane {
    /// Composes this plane's samples onto `plane` at `scale`/65536 of the layer's strength.
    /// - Parameters:
    ///   - sample: the plane's sample type: UInt8, or UInt16 (little-endian).
    ///   - frameAlpha: the frame's alpha plane, as it was before this overlay, for a colour
    ///     plane of a layout with alpha; nil otherwise (the alpha plane itself composes as
    ///     an opaque plane does: a + (1 − a) × frame alpha).
    ///   - scale: the opacity × 65536, 1…65536.
    func draw<Sample: FixedWidthInteger & UnsignedInteger>(into plane: Plane, sample: Sample.Type, frameAlpha: Plane?, scale: Int) {
        let deep = Sample.bitWidth == 16
        let keepShift = Self.keepShift(deep: deep), unit = 1 << keepShift, half = unit >> 1
        let maximum = Int(Sample.max)
        let full = scale == 1 << 16
        solid.withUnsafeBufferPointer { solid in
            blend.withUnsafeBufferPointer { blend in
                pixelKeeps.withUnsafeBufferPointer { pixelKeeps in
                    /// Sample `i` of `run`: the layer's value and 1 − alpha, × 2^keepShift, at this opacity.
                    @inline(__always) func layer(_ run: Run, _ i: Int) -> (value: Int, keep: Int) {
                        let value: Int, keep: Int
                        if run.opaque {
                            let j = run.start &+ i
                            let sample = deep ? Int(solid[2 &* j]) | Int(solid[2 &* j &+ 1]) << 8 : Int(solid[j])
                            (value, keep) = (sample << keepShift, 0)
                        } else if deep {
                            let j = 2 &* (run.start &+ i)
                            (value, keep) = (Int(blend[j]) << 8, Int(blend[j &+ 1]))
                        } else {
                            let word = blend[run.start &+ i]
                            (value, keep) = (Int(word >> 15) << 5, Int(word & 0x7FFF))
                        }
                        if full { return (value, keep) }
                        return ((value &* scale &+ 32768) >> 16, unit &- (((unit &- keep) &* scale &+ 32768) >> 16))
                    }

                    for run in runs {
                        let row = UnsafeMutableRawPointer(plane.row(run.y)).assumingMemoryBound(to: Sample.self) + run.x
                        if full && run.opaque {
                            // Opaque over anything, straight alpha included, is the layer itself.
                            let bytes = MemoryLayout<Sample>.size
                            UnsafeMutableRawPointer(row).copyMemory(from: solid.baseAddress! + bytes &* run.start, byteCount: bytes &* run.count)
                            continue
                        }
                        // Over a frame with alpha, a run whose frame pixels are all opaque (a
                        // still's own pixels, most of the time) composes as on a frame without.
                        let straightAlpha = frameAlpha.flatMap { alpha in
                            Self.isOpaque(alpha, under: run, subsampled: !pixelKeeps.isEmpty, sample: Sample.self) ? nil : alpha
                        }
                        guard let frameAlpha = straightAlpha else {
                            if full && !deep {
                                // The common case (8-bit frames, no fade), in 32 bits and free of
                                // branches so it vectorises.
                                let row = UnsafeMutableRawPointer(row).assumingMemoryBound(to: UInt8.self)
                                let words = blend.baseAddress! + run.start
                                for i in 0..<run.count {
                                    let word = words[i]
                                    let value = ((word >> 15) << 5 &+ (word & 0x7FFF) &* UInt32(row[i]) &+ 8192) >> 14
                                    row[i] = UInt8(truncatingIfNeeded: min(value, 255))
                                }
                            } else if full {
                                // 16-bit frames, no fade: value × 2¹⁶ and keep × 2²⁴ from their two words.
                                let row = UnsafeMutableRawPointer(row).assumingMemoryBound(to: UInt16.self)
                                let words = blend.baseAddress! + 2 &* run.start
                                for i in 0..<run.count {
                                    let value = UInt64(words[2 &* i]) << 8, keep = UInt64(words[2 &* i &+ 1])
                                    let mixed = (value &+ keep &* UInt64(UInt16(littleEndian: row[i])) &+ (1 << 23)) >> 24
                                    row[i] = UInt16(truncatingIfNeeded: min(mixed, 65535)).littleEndian
                                }
                            } else if !deep && run.opaque {
                                // A fade of an opaque run on an 8-bit frame: one keep for the run.
                                let row = UnsafeMutableRawPointer(row).assumingMemoryBound(to: UInt8.self)
                                let from = solid.baseAddress! + run.start
                                // (v × 2¹⁴ × scale + 2¹⁵) >> 16 is (v × scale + 2) >> 2: all in 32 bits.
                                let keep = UInt32(unit &- ((unit &* scale &+ 32768) >> 16)), strength = UInt32(scale)
                                for i in 0..<run.count {
                                    let value = (UInt32(from[i]) &* strength &+ 2) >> 2
                                    row[i] = UInt8(truncatingIfNeeded: min((value &+ keep &* UInt32(row[i]) &+ 8192) >> 14, 255))
                                }
                            } else if !deep {
                                // A fade on an 8-bit frame: `layer`'s maths, without its branches.
                                let row = UnsafeMutableRawPointer(row).assumingMemoryBound(to: UInt8.self)
                                let words = blend.baseAddress! + run.start
                                // (p × 2⁵ × scale + 2¹⁵) >> 16 is (p × scale + 2¹⁰) >> 11; the keep's
                                // product stays under 2³¹.
                                let strength = UInt64(scale)
                                for i in 0..<run.count {
                                    let word = words[i]
                                    let value = UInt32(truncatingIfNeeded: (UInt64(word >> 15) &* strength &+ 1024) >> 11)
                                    let keep = 16384 &- (((16384 &- (word & 0x7FFF)) &* UInt32(scale) &+ 32768) >> 16)
                                    row[i] = UInt8(truncatingIfNeeded: min((value &+ keep &* UInt32(row[i]) &+ 8192) >> 14, 255))
                                }
                            } else {
                                for i in 0..<run.count {
                                    let (value, keep) = layer(run, i)
                                    let mixed = (value &+ keep &* Int(Sample(littleEndian: row[i])) &+ half) >> keepShift
                                    row[i] = Sample(truncatingIfNeeded: min(mixed, maximum)).littleEndian
                                }
                            }
                            continue
                        }
                        // Straight colour: out = (layer + (1 − a) × frame alpha × frame) / the result's alpha.
                        if pixelKeeps.isEmpty {
                            // A plane at full resolution: the frame's alpha at the same pixel.
                            let alpha = UnsafeMutableRawPointer(frameAlpha.row(run.y)).assumingMemoryBound(to: Sample.self) + run.x
                            for i in 0..<run.count {
                                let (value, keep) = layer(run, i)
                                let under = Int(Sample(littleEndian: alpha[i])), d = Int(Sample(littleEndian: row[i]))
                                let out: Int
                                if under == maximum {
                                    out = (value &+ keep &* d &+ half) >> keepShift
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
                                let j = 4 &* (run.pixelStart &+ i)
                                let x0 = (run.x &+ i) << 1, x1 = min(x0 + 1, frameAlpha.width - 1)
                                let unders = (Int(Sample(littleEndian: top[x0])), Int(Sample(littleEndian: top[x1])),
                                              Int(Sample(littleEndian: bottom[x0])), Int(Sample(littleEndian: bottom[x1])))
                                func scaled(_ keep: UInt32) -> Int {
                                    full ? Int(keep) : unit &- (((unit &- Int(keep)) &* scale &+ 32768) >> 16)
                                }
                                let keeps = (scaled(pixelKeeps[j]), scaled(pixelKeeps[j &+ 1]), scaled(pixelKeeps[j &+ 2]), scaled(pixelKeeps[j &+ 3]))
                                let shown = keeps.0 &* unders.0 &+ keeps.1 &* unders.1 &+ keeps.2 &* unders.2 &+ keeps.3 &* unders.3
                                let coverage = (4 &* unit &- keeps.0 &- keeps.1 &- keeps.2 &- keeps.3) &* maximum &+ shown
                                let d = Int(Sample(littleEndian: row[i]))
                                let out = coverage == 0 ? d : (4 &* layer(run, i).value &* maximum &+ shown &* d &+ coverage / 2) / coverage
                                row[i] = Sample(truncatingIfNeeded: min(out, maximum)).littleEndian
                            }
                        }
                    }
                }
            }
        }
    }

    /// Whether the frame's alpha is opaque at every pixel under `run` (for 4:2:0 chroma,
    /// `subsampled`, the 2 × 2 pixels of each sample).
    private static func isOpaque<Sample: FixedWidthInteger & UnsignedInteger>(_ alpha: Plane, under run: Run, subsampled: Bool,
                                                                             sample: Sample.Type) -> Bool {
        let shift = subsampled ? 1 : 0
        let x0 = run.x << shift, x1 = min(alpha.width, (run.x + run.count) << shift)
        for y in (run.y << shift)...min(alpha.height - 1, (run.y << shift) + shift) {
            let row = UnsafeMutableRawPointer(alpha.row(y)).assumingMemoryBound(to: Sample.self)
            var all = Sample.max
            for x in x0..<x1 { all &= row[x] }
            if all != Sample.max { return false }
        }
        return true
    }
}
