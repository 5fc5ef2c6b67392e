// Cards: layers composed onto a fitted still before it is converted — the source-over maths
// for opaque, straight and premultiplied destinations, clipping at the card's edges, and a
// card without layers (or with nothing visible on them) keeping its bytes.

import Testing
import SliceKit

@Suite("RGBA16Image layers")
struct RGBA16ImageLayersTests {
    /// A 1 × 1 picture holding `samples` (R, G, B(, A)).
    static func pixel(_ samples: [Int]) -> RGBA16Image {
        let picture = RGBA16Image(width: 1, height: 1, hasAlpha: samples.count == 4)
        for (c, v) in samples.enumerated() { picture.planes[c][0] = UInt16(v) }
        return picture
    }

    static func samples(_ picture: RGBA16Image, x: Int = 0, y: Int = 0) -> [Int] {
        picture.planes.indices.map { Int(picture.row($0, y)[x]) }
    }

    @Test("over an opaque picture: layer + picture × (1 − alpha), rounded once; colour above alpha is capped")
    func overOpaque() {
        let card = Self.pixel([65535, 0, 10000])
        // Half-transparent (32768) grey of premultiplied 16384; the blue channel claims more than alpha.
        card.compose(Self.pixel([16384, 16384, 40000, 32768]), x: 0, y: 0)
        // 16384 + 65535 × 32767/65535 = 49151; 16384 + 0; 32768 (capped) + 10000 × 32767/65535 = 37767.8 → 37768.
        #expect(Self.samples(card) == [49151, 16384, 37768])
        #expect(!card.hasAlpha)
    }

    @Test("over a transparent straight-alpha picture: the layer's own straight colour, not a darker one")
    func overTransparentStraight() {
        let card = Self.pixel([0, 0, 0, 0])
        // Premultiplied 16384 at alpha 32768 is straight 0.5 (32767.5, rounded up).
        card.compose(Self.pixel([16384, 0, 32768, 32768]), x: 0, y: 0)
        #expect(Self.samples(card) == [32768, 0, 65535, 32768])
    }

    @Test("over a translucent straight-alpha picture: alpha a + b(1 − a), colour the premultiplied sum over it")
    func overTranslucentStraight() {
        let card = Self.pixel([65535, 65535, 0, 32768])
        card.compose(Self.pixel([0, 13107, 13107, 26214]), x: 0, y: 0)
        // In doubles: a = 0.4, under 0.5 × 0.6 = 0.3 of the card shows; alpha 0.7.
        let a = 26214.0 / 65535, shown = 32768.0 / 65535 * (1 - a), alpha = a + shown
        let expected = [0.0 + shown, 13107.0 / 65535 + shown, 13107.0 / 65535].map { Int(($0 / alpha * 65535).rounded()) }
        #expect(Self.samples(card) == expected + [Int((alpha * 65535).rounded())])
    }

    @Test("over a premultiplied picture: every channel, alpha included, is layer + picture × (1 − alpha)")
    func overPremultiplied() {
        let card = Self.pixel([20000, 30000, 0, 40000])
        card.compose(Self.pixel([6553, 0, 6553, 6553]), x: 0, y: 0, alphaForm: .premultiplied)
        let keep = 1 - 6553.0 / 65535
        #expect(Self.samples(card) == [6553 + 20000 * keep, 30000 * keep, 6553, 6553 + 40000 * keep].map { Int($0.rounded()) })
    }

    @Test("transparent layer pixels leave the picture alone, opaque ones replace it; a layer without alpha is opaque")
    func exactEnds() {
        let card = RGBA16Image(width: 2, height: 1, hasAlpha: true)
        for (c, v) in [1234, 5678, 9999, 30000].enumerated() { card.row(c, 0).update(repeating: UInt16(v), count: 2) }
        let layer = RGBA16Image(width: 2, height: 1, hasAlpha: true)
        for (c, v) in [(0, [7, 100]), (1, [8, 200]), (2, [9, 300]), (3, [0, 65535])] { layer.row(c, 0)[0] = UInt16(v[0]); layer.row(c, 0)[1] = UInt16(v[1]) }
        card.compose(layer, x: 0, y: 0)
        #expect(Self.samples(card, x: 0) == [1234, 5678, 9999, 30000])
        #expect(Self.samples(card, x: 1) == [100, 200, 300, 65535])
        card.compose(Self.pixel([1, 2, 3]), x: 0, y: 0)
        #expect(Self.samples(card, x: 0) == [1, 2, 3, 65535])
    }

    @Test("a layer reaching past any edge is clipped; one off the card, at any position, changes nothing")
    func clipping() {
        func card() -> RGBA16Image {
            let card = RGBA16Image(width: 6, height: 5, hasAlpha: false)
            for c in 0..<3 { for y in 0..<5 { card.row(c, y).update(repeating: 0, count: 6) } }
            return card
        }
        let white = RGBA16Image(expanding: RGBAImage(width: 4, height: 3, color: RGBAColor(red: 255, green: 255, blue: 255)), alpha: true)
        for (x, y) in [(-2, -1), (4, 3), (-3, 3), (5, -2)] {
            let drawn = card()
            drawn.compose(white, x: x, y: y)
            for py in 0..<5 {
                for px in 0..<6 {
                    let inside = px >= x && px < x + 4 && py >= y && py < y + 3
                    #expect(drawn.row(0, py)[px] == (inside ? 65535 : 0), "layer at (\(x), \(y)), pixel (\(px), \(py))")
                }
            }
        }
        for (x, y) in [(6, 0), (-4, 0), (0, 5), (0, -3), (Int.max, Int.min), (Int.min, Int.max)] {
            let drawn = card()
            drawn.compose(white, x: x, y: y)
            #expect(drawn.reduced() == card().reduced(), "layer at (\(x), \(y))")
        }
    }

    @Test("an 8-bit card composes only its layers' boxes (overlapping ones together) at 16 bits, with the same bytes as composing the whole card at 16 bits",
          arguments: PixelLayout.allCases.filter { !$0.isDeep })
    func boxesOnly(layout: PixelLayout) {
        var still = RGBAImage(width: 30, height: 17)
        for i in 0..<(30 * 17) {
            still.pixels[4 * i] = UInt8(i * 11 % 256); still.pixels[4 * i + 1] = UInt8(i * 5 % 256)
            still.pixels[4 * i + 2] = UInt8(i * 23 % 256); still.pixels[4 * i + 3] = UInt8(i % 2 == 0 ? 255 : i * 7 % 256)
        }
        // Translucent layers: the first two overlap, the third overlaps the second only, the
        // fourth (clipped at the bottom right) none until the last bridges it to the third;
        // one is off the card.
        let layers = [CardLayer(picture: OverlayReference.layer(width: 9, height: 7), x: 3, y: 2),
                      CardLayer(picture: OverlayReference.layer(width: 9, height: 7, seed: 8), x: 7, y: 5),
                      CardLayer(picture: OverlayReference.layer(width: 9, height: 7, seed: 2), x: 14, y: 10),
                      CardLayer(picture: OverlayReference.layer(width: 9, height: 7, seed: 1), x: 25, y: 13),
                      CardLayer(picture: OverlayReference.layer(width: 9, height: 7), x: Int.min, y: 0),
                      CardLayer(picture: OverlayReference.layer(width: 9, height: 7, seed: 5), x: 21, y: 11)]
        let whole = RGBA16Image(expanding: still, alpha: layout.hasAlpha).planar(layout, layers: layers)
        #expect(still.planar(layout, layers: layers).hasSamePixels(as: whole))
        #expect(!whole.hasSamePixels(as: still.planar(layout)))
    }

    @Test("a card without layers is converted as before; a transparent layer changes no byte; a layer changes only its box",
          arguments: PixelLayout.allCases)
    func cardBytes(layout: PixelLayout) {
        var still = RGBAImage(width: 20, height: 12)
        for i in 0..<(20 * 12) {
            still.pixels[4 * i] = UInt8(i * 7 % 256); still.pixels[4 * i + 1] = UInt8(i * 13 % 256)
            still.pixels[4 * i + 2] = UInt8(i * 29 % 256); still.pixels[4 * i + 3] = layout.hasAlpha ? UInt8(i * 3 % 256) : 255
        }
        let plain = still.planar(layout)
        #expect(still.planar(layout, layers: []).hasSamePixels(as: plain))
        let clear = RGBA16Image(width: 8, height: 6, hasAlpha: true)
        for c in 0..<4 { for y in 0..<6 { clear.row(c, y).update(repeating: 0, count: 8) } }
        #expect(still.planar(layout, layers: [CardLayer(picture: clear, x: 3, y: 2)]).hasSamePixels(as: plain))

        // An opaque white 6 × 4 block at (8, 4), even-aligned so 4:2:0 chroma blocks are whole.
        let white = RGBA16Image(expanding: RGBAImage(width: 6, height: 4, color: RGBAColor(red: 255, green: 255, blue: 255)), alpha: true)
        let card = still.planar(layout, layers: [CardLayer(picture: white, x: 8, y: 4)])
        let solid = RGBAImage(width: 20, height: 12, color: RGBAColor(red: 255, green: 255, blue: 255)).planar(layout)
        for p in 0..<layout.planeCount {
            let s = layout.subsampling(ofPlane: p)
            for y in 0..<card.planes[p].height {
                for x in 0..<card.planes[p].width {
                    let fx = x << s.x, fy = y << s.y
                    let inside = (8..<14).contains(fx) && (4..<8).contains(fy)
                    let want = inside ? solid.sample(plane: p, x: x, y: y) : plain.sample(plane: p, x: x, y: y)
                    #expect(card.sample(plane: p, x: x, y: y) == want, "\(layout) plane \(p) (\(x), \(y))")
                }
            }
        }
    }
}
