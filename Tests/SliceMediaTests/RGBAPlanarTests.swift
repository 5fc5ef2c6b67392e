// RGBAImage.planar: RGBA stills into the compositor's planar layouts, BT.709 limited range for
// YUV (the background colours' maths) and an exact de-interleave for RGB.

import SliceKit
import SliceMedia
import Testing

@Suite("RGBA to planar")
struct RGBAPlanarTests {
    static let colors: [(name: String, color: RGBAColor)] = [
        ("black", .black),
        ("white", RGBAColor(red: 255, green: 255, blue: 255)),
        ("red", RGBAColor(red: 255, green: 0, blue: 0)),
        ("green", RGBAColor(red: 0, green: 255, blue: 0)),
        ("blue", RGBAColor(red: 0, green: 0, blue: 255)),
        ("mid grey", RGBAColor(red: 128, green: 128, blue: 128)),
    ]

    @Test("pure colours become BT.709 limited-range Y'CbCr", arguments: [PixelLayout.yuv420p, .yuv444p, .yuva420p],
          colors.map(\.name))
    func pureColours(layout: PixelLayout, name: String) throws {
        let color = try #require(Self.colors.first { $0.name == name }).color
        let planar = RGBAImage(width: 32, height: 18, color: color).planar(layout)
        #expect(planar.layout == layout && planar.width == 32 && planar.height == 18)
        let expected = color.bt709LimitedYCbCr
        for (p, value) in [expected.y, expected.cb, expected.cr].enumerated() {
            let plane = planar.planes[p]
            var worst = 0
            for y in 0..<plane.height {
                for x in 0..<plane.width { worst = max(worst, abs(Int(plane.row(y)[x]) - Int(value))) }
            }
            #expect(worst <= 1, "\(name) \(layout) plane \(p): off by \(worst) from \(value)")
        }
    }

    @Test("black and white land on the limited-range extremes")
    func studioRange() throws {
        let planar = RGBAImage(width: 32, height: 18, color: .black).planar(.yuv420p)
        #expect(planar.planes[0].row(0)[0] == 16)
        let white = RGBAImage(width: 32, height: 18, color: RGBAColor(red: 255, green: 255, blue: 255)).planar(.yuv420p)
        #expect(white.planes[0].row(0)[0] == 235)
        #expect(white.planes[1].row(0)[0] == 128 && white.planes[2].row(0)[0] == 128)
    }

    @Test("RGB layouts are an exact de-interleave", arguments: [PixelLayout.gbrp, .gbrap])
    func rgbExact(layout: PixelLayout) throws {
        var image = Fixture.noise(width: 33, height: 19)
        for i in 0..<(image.width * image.height) { image.pixels[4 * i + 3] = UInt8(i % 256) }
        let planar = image.planar(layout)
        for y in 0..<image.height {
            for x in 0..<image.width {
                let pixel = image[x, y]
                let samples = [pixel.green, pixel.blue, pixel.red, pixel.alpha].prefix(layout.planeCount)
                #expect(planar.planes.map { $0.row(y)[x] } == Array(samples), "(\(x), \(y))")
            }
        }
    }

    @Test("the alpha plane of yuva420p is copied exactly")
    func alphaCopied() throws {
        var image = Fixture.blocks(width: 32, height: 18)
        for i in 0..<(image.width * image.height) { image.pixels[4 * i + 3] = UInt8((i * 7) % 256) }
        let planar = image.planar(.yuva420p)
        for y in 0..<image.height {
            for x in 0..<image.width { #expect(planar.planes[3].row(y)[x] == image[x, y].alpha) }
        }
    }

    @Test("a converted solid colour equals PlanarImage.fill of that colour", arguments: [PixelLayout.gbrp, .yuv420p])
    func matchesFill(layout: PixelLayout) throws {
        let color = RGBAColor(red: 250, green: 0, blue: 250)
        let converted = RGBAImage(width: 32, height: 18, color: color).planar(layout)
        let filled = PlanarImage(width: 32, height: 18, layout: layout)
        filled.fill(color)
        #expect(meanAbsoluteError(converted, filled) <= (layout == .gbrp ? 0 : 1))
    }
}
