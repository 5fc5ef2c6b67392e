// `over` layers on finished frames, in every layout: against composing in RGB and converting
// (computed in doubles here), exact where the layer is opaque or transparent, clipped at the
// frame's edges, faded by opacity, clean on transparent frames, the same on every thread.

import Dispatch
import Testing
@testable import SliceKit

@Suite("FrameOverlay")
struct FrameOverlayTests {
    /// An odd frame size, so 4:2:0 chroma has half blocks at the right and bottom.
    static let width = 41, height = 13
    /// Positions of the layers: clipped at the left and top, inside, clipped at the right and bottom.
    static let positions = [(-5, -2), (8, 3), (36, 8)]
    /// Layer sizes: opaque middles shorter than a copied run (blended with their rim) and longer.
    static let layerSizes = [(9, 7), (28, 7)]

    static func frame(_ layout: PixelLayout, alpha: @escaping (Int, Int) -> Int = { _, _ in 255 }) -> (PlanarImage, ReferencePicture) {
        let picture = OverlayReference.frame(width: width, height: height, deep: layout.isDeep, alpha: layout.hasAlpha ? alpha : { _, _ in 255 })
        return (picture.planar(layout), OverlayReference.straight(picture))
    }

    @Test("within ±1 of composing in RGB and converting, translucent rim included", arguments: PixelLayout.allCases, [1.0, 0.5])
    func matchesReference(layout: PixelLayout, opacity: Double) {
        for (w, h) in Self.layerSizes {
        let layer = OverlayReference.layer(width: w, height: h)
        for (x, y) in Self.positions {
            let (frame, picture) = Self.frame(layout)
            let overlay = FrameOverlay(layer: layer, x: x, y: y, frameWidth: Self.width, frameHeight: Self.height, layout: layout)
            overlay.draw(onto: frame, opacity: opacity)
            let expected = OverlayReference.composed(layer, x: x, y: y, opacity: opacity, over: picture)
            let (count, lines) = OverlayReference.differences(frame, expected: expected, tolerance: 1)
            #expect(count == 0, "\(layout) \(w) × \(h) at (\(x), \(y)), opacity \(opacity): \(count) samples off, \(lines)")
        }
        }
    }

    @Test("over a translucent frame (straight alpha, alpha varying pixel by pixel): within ±1 of the reference",
          arguments: PixelLayout.allCases.filter(\.hasAlpha), [1.0, 0.5])
    func translucentFrame(layout: PixelLayout, opacity: Double) {
        for (w, h) in Self.layerSizes {
        let layer = OverlayReference.layer(width: w, height: h)
        for (x, y) in Self.positions {
            let (frame, picture) = Self.frame(layout) { x, y in [0, 40, 128, 255, 200, 0, 90][(x * 3 + y * 5) % 7] }
            FrameOverlay(layer: layer, x: x, y: y, frameWidth: Self.width, frameHeight: Self.height, layout: layout)
                .draw(onto: frame, opacity: opacity)
            let expected = OverlayReference.composed(layer, x: x, y: y, opacity: opacity, over: picture)
            let (count, lines) = OverlayReference.differences(frame, expected: expected, tolerance: 1)
            #expect(count == 0, "\(layout) \(w) × \(h) at (\(x), \(y)), opacity \(opacity): \(count) samples off, \(lines)")
        }
        }
    }

    @Test("opaque layer pixels are exactly the layer's colour converted; samples outside the layer keep their bytes",
          arguments: PixelLayout.allCases)
    func exactWhereOpaqueOrOutside(layout: PixelLayout) {
        // An opaque 8 × 6 block of #C83C1E at (6, 4), inside a transparent rim (a 10 × 8 layer at (5, 3)).
        let colour = RGBAColor(red: 200, green: 60, blue: 30)
        let layer = RGBA16Image(width: 10, height: 8, hasAlpha: true)
        for y in 0..<8 {
            for x in 0..<10 {
                let inside = x > 0 && y > 0 && x < 9 && y < 7
                for (c, v) in [colour.red, colour.green, colour.blue, 255].enumerated() { layer.row(c, y)[x] = inside ? UInt16(v) * 257 : 0 }
            }
        }
        let translucent = layout.hasAlpha ? { (x: Int, y: Int) in (x + y) % 2 == 0 ? 0 : 128 } : { _, _ in 255 }
        let (frame, _) = Self.frame(layout, alpha: translucent)
        let before = frame.duplicate()
        FrameOverlay(layer: layer, x: 5, y: 3, frameWidth: Self.width, frameHeight: Self.height, layout: layout).draw(onto: frame)
        let solid = RGBA16Image(expanding: RGBAImage(width: Self.width, height: Self.height, color: colour), alpha: true).planar(layout)
        for p in 0..<layout.planeCount {
            let s = layout.subsampling(ofPlane: p)
            var exact = 0, kept = 0
            for y in 0..<frame.planes[p].height {
                for x in 0..<frame.planes[p].width {
                    // The frame pixels this sample covers.
                    let xs = (x << s.x)...min(Self.width - 1, (x << s.x) + (1 << s.x) - 1)
                    let ys = (y << s.y)...min(Self.height - 1, (y << s.y) + (1 << s.y) - 1)
                    if xs.allSatisfy({ (6..<14).contains($0) }) && ys.allSatisfy({ (4..<10).contains($0) }) {
                        #expect(frame.sample(plane: p, x: x, y: y) == solid.sample(plane: p, x: x, y: y), "\(layout) plane \(p) (\(x), \(y))")
                        exact += 1
                    } else if !xs.contains(where: { (6..<14).contains($0) }) || !ys.contains(where: { (4..<10).contains($0) }) {
                        #expect(frame.sample(plane: p, x: x, y: y) == before.sample(plane: p, x: x, y: y), "\(layout) plane \(p) (\(x), \(y))")
                        kept += 1
                    }
                }
            }
            #expect(exact >= 12 && kept >= 60, "\(layout) plane \(p): \(exact) opaque samples, \(kept) outside")
        }
    }

    @Test("an opaque layer of many colours over the whole frame gives exactly the layer converted (rounded once)",
          arguments: PixelLayout.allCases)
    func opaqueEverywhere(layout: PixelLayout) {
        // 16-bit colours for 16-bit layouts; 8-bit ones (× 257) for 8-bit layouts, whose
        // converter takes 8-bit RGB.
        var generator = SplitMix64(seed: 24)
        let layer = RGBA16Image(width: 64, height: 48, hasAlpha: true)
        for y in 0..<48 {
            for c in 0..<3 {
                for x in 0..<64 {
                    let bits = UInt16(truncatingIfNeeded: generator.next())
                    layer.row(c, y)[x] = layout.isDeep ? bits : UInt16(bits >> 8) * 257
                }
            }
            layer.row(3, y).update(repeating: 65535, count: 64)
        }
        if layout.isDeep {
            // Colours whose Y', Cb or Cr lies a hair under a half (N mod 2²⁴ in 2²³ − 64 ..< 2²³ with
            // the 16-bit coefficients × 2²⁴): rounding a finer value first would round them up.
            let c = YCbCr16.self
            for (i, row) in [(c.yR, c.yG, c.yB), (c.cbR, c.cbG, c.cbB), (c.crR, c.crG, c.crB)].enumerated() {
                let found = (0..<65536).lazy.flatMap { r in (0..<64).lazy.map { g in (r, g * 1021, 40000) } }.first { r, g, b in
                    let low = ((row.0 * r + row.1 * g + row.2 * b) % (1 << 24) + (1 << 24)) % (1 << 24)
                    return low >= (1 << 23) - 64 && low < 1 << 23
                }
                guard let (r, g, b) = found else { Issue.record("no near-half colour for row \(i)"); return }
                // A whole 2 × 2 block, so 4:2:0 chroma sees this colour alone.
                for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                    for (ch, v) in [r, g, b].enumerated() { layer.row(ch, dy)[2 * i + dx] = UInt16(v) }
                }
            }
        }
        let frame = OverlayReference.frame(width: 64, height: 48, deep: layout.isDeep).planar(layout)
        FrameOverlay(layer: layer, x: 0, y: 0, frameWidth: 64, frameHeight: 48, layout: layout).draw(onto: frame)
        #expect(frame.hasSamePixels(as: layer.planar(layout)))
    }

    @Test("opacity 0 (and NaN) draws nothing; 1 draws what no opacity draws; 0.5 draws something between",
          arguments: PixelLayout.allCases)
    func opacity(layout: PixelLayout) {
        let layer = OverlayReference.layer(width: 9, height: 7)
        let overlay = FrameOverlay(layer: layer, x: 5, y: 3, frameWidth: Self.width, frameHeight: Self.height, layout: layout)
        let (frame, _) = Self.frame(layout)
        for nothing in [0, -1, .nan] {
            let drawn = frame.duplicate()
            overlay.draw(onto: drawn, opacity: nothing)
            #expect(drawn.hasSamePixels(as: frame), "\(layout) opacity \(nothing)")
        }
        let full = frame.duplicate(), one = frame.duplicate(), half = frame.duplicate()
        overlay.draw(onto: full)
        overlay.draw(onto: one, opacity: 1)
        overlay.draw(onto: half, opacity: 0.5)
        #expect(one.hasSamePixels(as: full) && !full.hasSamePixels(as: frame) && !half.hasSamePixels(as: full))
        #expect(!half.hasSamePixels(as: frame))
    }

    @Test("a layer off the frame is empty and changes nothing, whatever its position", arguments: [PixelLayout.yuv420p, .gbrap16])
    func offTheFrame(layout: PixelLayout) {
        let layer = OverlayReference.layer(width: 9, height: 7)
        let (frame, _) = Self.frame(layout)
        let before = frame.duplicate()
        for (x, y) in [(Self.width, 0), (-9, 0), (0, Self.height), (0, -7), (Int.max, Int.max), (Int.min, Int.min), (Int.max, 0), (0, Int.min)] {
            let overlay = FrameOverlay(layer: layer, x: x, y: y, frameWidth: Self.width, frameHeight: Self.height, layout: layout)
            #expect(overlay.isEmpty, "(\(x), \(y))")
            overlay.draw(onto: frame)
        }
        #expect(frame.hasSamePixels(as: before))
        // Just touching the frame is not empty: the last column of the layer lands on column 0.
        #expect(!FrameOverlay(layer: layer, x: -8, y: 0, frameWidth: Self.width, frameHeight: Self.height, layout: layout).isEmpty)
        // A fully transparent layer is empty too.
        let clear = RGBA16Image(width: 4, height: 4, hasAlpha: true)
        for c in 0..<4 { for y in 0..<4 { clear.row(c, y).update(repeating: 0, count: 4) } }
        #expect(FrameOverlay(layer: clear, x: 2, y: 2, frameWidth: Self.width, frameHeight: Self.height, layout: layout).isEmpty)
    }

    @Test("transparent outputs: an orange layer's translucent edge over a transparent frame keeps its colour (no dark fringe)",
          arguments: PixelLayout.allCases.filter(\.hasAlpha))
    func noDarkFringes(layout: PixelLayout) {
        let orange = RGBAColor(red: 255, green: 128, blue: 0)
        // Opaque in the middle (26 columns), alpha falling off to the left and right edges in
        // steps of 1/8, and half as strong on the top and bottom rows.
        let layer = RGBA16Image(width: 40, height: 9, hasAlpha: true)
        for y in 0..<9 {
            for x in 0..<40 {
                let alpha = min(65535, 8192 * min(x + 1, 40 - x)) / (y == 0 || y == 8 ? 2 : 1)
                for (c, v) in [orange.red, orange.green, orange.blue].enumerated() { layer.row(c, y)[x] = UInt16((Int(v) * 257 * alpha + 32767) / 65535) }
                layer.row(3, y)[x] = UInt16(alpha)
            }
        }
        let frame = PlanarImage(width: Self.width, height: Self.height, layout: layout)
        frame.fill(RGBAColor(red: 0, green: 0, blue: 0, alpha: 0))
        FrameOverlay(layer: layer, x: 0, y: 2, frameWidth: Self.width, frameHeight: Self.height, layout: layout).draw(onto: frame)
        let colour = layout.fillValues(for: orange)
        let alphaPlane = frame.planes[3]
        var translucent = 0
        for p in 0..<3 {
            let s = layout.subsampling(ofPlane: p)
            for y in 0..<frame.planes[p].height {
                for x in 0..<frame.planes[p].width {
                    let covered = (0..<(1 << s.y)).contains { dy in (0..<(1 << s.x)).contains { dx in
                        let fx = min(Self.width - 1, (x << s.x) + dx), fy = min(Self.height - 1, (y << s.y) + dy)
                        return frame.sample(plane: 3, x: fx, y: fy) > 0
                    } }
                    guard covered else { continue }
                    let got = frame.sample(plane: p, x: x, y: y)
                    #expect(abs(got - colour[p]) <= 1, "\(layout) plane \(p) (\(x), \(y)): \(got), orange is \(colour[p])")
                }
            }
        }
        for y in 0..<alphaPlane.height {
            for x in 0..<alphaPlane.width {
                let a = frame.sample(plane: 3, x: x, y: y), max = layout.isDeep ? 65535 : 255
                if a > 0 && a < max { translucent += 1 }
                let lx = x, ly = y - 2
                let want = (0..<40).contains(lx) && (0..<9).contains(ly) ? Int(layer.row(3, ly)[lx]) : 0
                #expect(a == (layout.isDeep ? want : (want * 255 + 32767) / 65535), "\(layout) alpha (\(x), \(y))")
            }
        }
        #expect(translucent > 40, "the edge is translucent")
    }

    @Test("drawn on many threads at once, every frame gets the same bytes", arguments: [PixelLayout.yuv420p, .yuva420p16])
    func sameOnEveryThread(layout: PixelLayout) {
        let layer = OverlayReference.layer(width: 9, height: 7)
        let overlay = FrameOverlay(layer: layer, x: 36, y: 8, frameWidth: Self.width, frameHeight: Self.height, layout: layout)
        let (frame, _) = Self.frame(layout) { x, y in (x * y) % 256 }
        let serial = frame.duplicate()
        overlay.draw(onto: serial, opacity: 0.37)
        let frames = (0..<16).map { _ in frame.duplicate() }
        DispatchQueue.concurrentPerform(iterations: frames.count) { overlay.draw(onto: frames[$0], opacity: 0.37) }
        #expect(frames.allSatisfy { $0.hasSamePixels(as: serial) })
    }
}
