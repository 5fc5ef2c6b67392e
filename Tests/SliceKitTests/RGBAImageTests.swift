// Packed RGBA stills and how they are placed on the frame: centred, cropped when too big
// (cover), letterboxed when too small (contain), translucency flattened onto the background.

import Testing
import SliceKit

@Suite("RGBAImage")
struct RGBAImageTests {
    /// A picture whose pixel (x, y) is (x, y, x + 10·y, alpha).
    static func gridImage(width: Int, height: Int, alpha: UInt8 = 255) -> RGBAImage {
        var pixels: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width { pixels += [UInt8(x), UInt8(y), UInt8(x + 10 * y), alpha] }
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    static let blue = RGBAColor(red: 0, green: 0, blue: 255)

    /// Checks every pixel of `canvas` against `expected(x, y)`.
    static func expectPixels(of canvas: RGBAImage, _ expected: (Int, Int) -> RGBAColor) {
        for y in 0..<canvas.height {
            for x in 0..<canvas.width { #expect(canvas[x, y] == expected(x, y), "(\(x), \(y))") }
        }
    }

    @Test("a colour-filled image holds that colour at every pixel")
    func filled() {
        let color = RGBAColor(red: 1, green: 2, blue: 3, alpha: 4)
        let image = RGBAImage(width: 3, height: 2, color: color)
        #expect(image.pixels.count == 24)
        for y in 0..<2 { for x in 0..<3 { #expect(image[x, y] == color) } }
    }

    @Test("the subscript reads row-major RGBA")
    func subscriptLayout() {
        let image = Self.gridImage(width: 4, height: 3)
        #expect(image[2, 1] == RGBAColor(red: 2, green: 1, blue: 12, alpha: 255))
        #expect(image[3, 2] == RGBAColor(red: 3, green: 2, blue: 23, alpha: 255))
    }

    @Test("on a canvas of its own size the picture is unchanged")
    func sameSize() {
        let image = Self.gridImage(width: 5, height: 3)
        #expect(image.centred(onCanvasWidth: 5, height: 3, background: Self.blue) == image)
    }

    @Test("a larger picture is cropped around its centre (cover)")
    func cropCentred() {
        let image = Self.gridImage(width: 8, height: 6)
        let canvas = image.centred(onCanvasWidth: 4, height: 2, background: Self.blue)
        #expect(canvas.width == 4 && canvas.height == 2)
        Self.expectPixels(of: canvas) { x, y in image[x + 2, y + 2] }
    }

    @Test("a smaller picture is centred on the background (contain)")
    func letterboxCentred() {
        let image = Self.gridImage(width: 2, height: 2)
        let canvas = image.centred(onCanvasWidth: 6, height: 4, background: Self.blue)
        Self.expectPixels(of: canvas) { x, y in
            (2..<4).contains(x) && (1..<3).contains(y) ? image[x - 2, y - 1] : Self.blue
        }
    }

    @Test("wider and shorter at once: cropped sideways, letterboxed vertically")
    func mixedFit() {
        let image = Self.gridImage(width: 6, height: 2)
        let canvas = image.centred(onCanvasWidth: 4, height: 4, background: Self.blue)
        Self.expectPixels(of: canvas) { x, y in (1..<3).contains(y) ? image[x + 1, y - 1] : Self.blue }
    }

    @Test("translucent pixels are blended over an opaque background and become opaque")
    func alphaBlending() {
        let pixels: [UInt8] = [255, 0, 0, 128, 255, 0, 0, 0, 10, 20, 30, 255, 200, 100, 50, 51]
        let image = RGBAImage(width: 4, height: 1, pixels: pixels)
        let canvas = image.centred(onCanvasWidth: 4, height: 1, background: Self.blue)
        func over(_ c: Double, _ bg: Double, _ a: Double) -> UInt8 { UInt8((c * a / 255 + bg * (255 - a) / 255).rounded()) }
        #expect(canvas[0, 0] == RGBAColor(red: over(255, 0, 128), green: 0, blue: over(0, 255, 128)))
        #expect(canvas[1, 0] == Self.blue)
        #expect(canvas[2, 0] == RGBAColor(red: 10, green: 20, blue: 30))
        #expect(canvas[3, 0] == RGBAColor(red: over(200, 0, 51), green: over(100, 0, 51), blue: over(50, 255, 51)))
    }

    @Test("over a transparent background pixels keep their own alpha")
    func transparentBackground() {
        let image = Self.gridImage(width: 2, height: 2, alpha: 100)
        let clear = RGBAColor(red: 0, green: 0, blue: 0, alpha: 0)
        let canvas = image.centred(onCanvasWidth: 4, height: 2, background: clear)
        #expect(canvas[0, 0] == clear)
        #expect(canvas[1, 1] == image[0, 1])
        #expect(canvas[1, 1].alpha == 100)
    }
}
