// The 16-bit still picture: exact expansion and reduction, premultiplied alpha and its
// compositing, turning, and conversion into the 16-bit layouts with the maths background
// fills use.

import Testing
@testable import SliceKit

@Suite("RGBA16Image")
struct RGBA16ImageTests {
    /// A picture with every 8-bit value in each channel somewhere.
    static func ramp(alpha: Bool) -> RGBAImage {
        var pixels: [UInt8] = []
        for i in 0..<256 { pixels += [UInt8(i), UInt8(255 - i), UInt8((i * 7) & 255), alpha ? UInt8((i * 3) & 255) : 255] }
        return RGBAImage(width: 16, height: 16, pixels: pixels)
    }

    @Test("× 257 and the rounded reduction are exact inverses; every 16-bit value reduces to its nearest 8-bit one")
    func expandAndReduce() {
        let ramp = Self.ramp(alpha: true)
        #expect(RGBA16Image(expanding: ramp, alpha: true).reduced() == ramp)
        for value in 0...65535 {
            let nearest = (Double(value) / 257).rounded()
            let got = Double(RGBA16Image.eightBit(UInt16(value)))
            // Ties (v × 255 / 65535 ending in .5) never occur: 65535 is odd.
            #expect(got == nearest, "\(value)")
            if got != nearest { break }
        }
    }

    @Test("premultiplying and dividing again restores colour where alpha is high; alpha 0 becomes black")
    func premultiplyRoundTrip() {
        let picture = RGBA16Image(expanding: Self.ramp(alpha: true), alpha: true)
        let before = picture.reduced()
        picture.premultiply()
        // Premultiplied colour never exceeds alpha.
        for y in 0..<picture.height {
            for c in 0..<3 { for x in 0..<picture.width { #expect(picture.row(c, y)[x] <= picture.row(3, y)[x]) } }
        }
        picture.unpremultiply()
        let after = picture.reduced()
        for i in 0..<256 {
            let alpha = Int(before.pixels[4 * i + 3])
            for c in 0..<3 {
                let a = Int(before.pixels[4 * i + c]), b = Int(after.pixels[4 * i + c])
                if alpha == 0 { #expect(b == 0) } else if alpha >= 16 { #expect(abs(a - b) <= 1, "pixel \(i) alpha \(alpha)") }
            }
        }
    }

    @Test("composited over an opaque background: colour + background × (1 − alpha), opaque")
    func compositeOver() {
        // Half-transparent white (premultiplied: 0.5, 0.5, 0.5, 0.5) over #0000ff.
        let picture = RGBA16Image(width: 1, height: 1, hasAlpha: true)
        for c in 0..<4 { picture.planes[c][0] = 32768 }
        let over = picture.composited(over: RGBAColor(red: 0, green: 0, blue: 255)).reduced()
        #expect(over[0, 0] == RGBAColor(red: 128, green: 128, blue: 255))
        #expect(!picture.composited(over: .black).hasAlpha)
    }

    @Test("placed on a canvas: centred, the background around it; translucent backgrounds keep straight alpha")
    func placing() {
        let picture = RGBA16Image(expanding: RGBAImage(width: 2, height: 2, color: RGBAColor(red: 200, green: 100, blue: 50)), alpha: false)
        let canvas = picture.placed(onCanvasWidth: 4, height: 2, background: RGBAColor(red: 0, green: 0, blue: 255)).reduced()
        #expect(canvas[0, 0] == RGBAColor(red: 0, green: 0, blue: 255) && canvas[1, 1] == RGBAColor(red: 200, green: 100, blue: 50))
        #expect(canvas[3, 0] == RGBAColor(red: 0, green: 0, blue: 255))
        let translucent = RGBA16Image(width: 1, height: 1, hasAlpha: true)
        for c in 0..<3 { translucent.planes[c][0] = 16384 }
        translucent.planes[3][0] = 32768
        let placed = translucent.placed(onCanvasWidth: 3, height: 1, background: RGBAColor(red: 0, green: 0, blue: 0, alpha: 0)).reduced()
        #expect(placed[1, 0] == RGBAColor(red: 128, green: 128, blue: 128, alpha: 128))
        #expect(placed[0, 0] == RGBAColor(red: 0, green: 0, blue: 0, alpha: 0))
    }

    @Test("turning moves every sample as the 8-bit picture's turn does", arguments: 1...8)
    func turning(exif: Int) {
        let orientation = Orientation(exif: exif)!
        let ramp = RGBAImage(width: 16, height: 8, pixels: Array(Self.ramp(alpha: true).pixels.prefix(16 * 8 * 4)))
        #expect(RGBA16Image(expanding: ramp, alpha: true).turned(orientation).reduced() == orientation.apply(to: ramp))
    }

    @Test("16-bit layouts: a solid colour converts to exactly the background's fill values", arguments: [
        PixelLayout.yuv420p16, .yuva420p16, .yuv444p16, .gbrp16, .gbrap16,
    ])
    func solidMatchesFill(layout: PixelLayout) {
        for color in [RGBAColor(red: 230, green: 30, blue: 40), RGBAColor(red: 0, green: 0, blue: 0), RGBAColor(red: 255, green: 255, blue: 255),
                      RGBAColor(red: 17, green: 201, blue: 99)] {
            let still = RGBA16Image(expanding: RGBAImage(width: 5, height: 3, color: color), alpha: layout.hasAlpha).planar(layout)
            let fill = layout.fillValues(for: color)
            for p in 0..<layout.planeCount {
                let plane = still.planes[p]
                for y in 0..<plane.height {
                    for x in 0..<plane.width { #expect(still.sample(plane: p, x: x, y: y) == fill[p], "\(layout) \(color) plane \(p)") }
                }
            }
        }
    }

    @Test("a 16-bit frame reduces to its 8-bit twin as the 8-bit converter makes it, within a level")
    func reduceToTwin() {
        let picture = Self.ramp(alpha: true)
        for layout in [PixelLayout.yuv420p16, .yuva420p16, .yuv444p16, .gbrp16, .gbrap16] {
            let reduced = picture.planar(layout).reducedToEightBit()
            let direct = picture.planar(layout.eightBit)
            #expect(reduced.layout == layout.eightBit)
            for p in 0..<layout.planeCount {
                for y in 0..<reduced.planes[p].height {
                    for x in 0..<reduced.planes[p].width {
                        let tolerance = layout.isYUV ? 1 : 0
                        #expect(abs(reduced.sample(plane: p, x: x, y: y) - direct.sample(plane: p, x: x, y: y)) <= tolerance, "\(layout) \(p)")
                    }
                }
            }
        }
    }
}
