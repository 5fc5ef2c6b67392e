// Cards from files: a still decoded and fitted with `on` layers carries them, whichever way it
// is fitted (straight from the decoder's picture, scaled at 8 bits, the 16-bit way, translucent
// on a transparent background), and every pixel no layer touches keeps the bytes the still has
// without layers.

import Foundation
import SliceKit
import StillFixtures
import Testing
@testable import SliceMedia

@Suite("Still layers")
struct StillLayersTests {
    /// The ways a still reaches the render layout.
    enum Still: String, CaseIterable {
        /// An RGB PNG the frame's size: converted straight from the decoder's picture.
        case framePNG
        /// A JPEG twice the frame's size: scaled at 8 bits.
        case largeJPEG
        /// A translucent PNG: the 16-bit way, premultiplied.
        case translucentPNG
    }

    static let width = 64, height = 36
    static let magenta = RGBAColor(red: 230, green: 20, blue: 200)

    /// An opaque magenta 16 × 10 layer with a transparent one-pixel rim, premultiplied.
    static func layer() -> RGBA16Image {
        let layer = RGBA16Image(width: 18, height: 12, hasAlpha: true)
        for y in 0..<12 {
            for x in 0..<18 {
                let inside = x > 0 && y > 0 && x < 17 && y < 11
                for (c, v) in [magenta.red, magenta.green, magenta.blue, 255].enumerated() { layer.row(c, y)[x] = inside ? UInt16(v) * 257 : 0 }
            }
        }
        return layer
    }

    static func write(_ still: Still, in dir: String) throws -> String {
        switch still {
        case .framePNG:
            try FixtureFiles.write(Fixture.blocks(width: width, height: height), to: "\(dir)/a.png")
            return "\(dir)/a.png"
        case .largeJPEG:
            try FixtureFiles.write(Fixture.blocks(width: 2 * width, height: 2 * height), to: "\(dir)/a.jpg", jpeg: true)
            return "\(dir)/a.jpg"
        case .translucentPNG:
            var image = Fixture.blocks(width: width, height: height)
            for i in 0..<(width * height) { image.pixels[4 * i + 3] = UInt8(i % 3 == 0 ? 255 : i % 3 == 1 ? 128 : 0) }
            try FixtureFiles.write(image, to: "\(dir)/t.png", alpha: true)
            return "\(dir)/t.png"
        }
    }

    @Test("a card's layer is on the still, and only there; an invisible layer changes no byte",
          arguments: Still.allCases, [PixelLayout.yuv420p, .gbrp, .yuva420p, .yuv444p16])
    func layerOnTheStill(still: Still, layout: PixelLayout) throws {
        try withTemporaryDirectory { dir in
            let path = try Self.write(still, in: dir)
            let background = layout.hasAlpha ? RGBAColor(red: 0, green: 0, blue: 0, alpha: 0) : RGBAColor(red: 0, green: 0, blue: 255)
            func load(_ layers: [CardLayer]) throws -> PlanarImage {
                try StillDecoder.loadPlanar(path: path, width: Self.width, height: Self.height, fit: .cover, background: background,
                                            layout: layout, layers: layers)
            }
            let plain = try load([])
            // The layer's rim is transparent: at (11, 5) only its opaque middle shows, 16 × 10 at (12, 6).
            let transparentOnly = CardLayer(picture: Self.layer().cropped(x: 0, y: 0, width: 18, height: 1), x: 11, y: 5)
            #expect(try load([transparentOnly]).hasSamePixels(as: plain), "\(still) \(layout)")
            let card = try load([CardLayer(picture: Self.layer(), x: 11, y: 5)])
            let solid = RGBAImage(width: Self.width, height: Self.height, color: Self.magenta).planar(layout)
            var onLayer = 0
            for p in 0..<layout.planeCount {
                let s = layout.subsampling(ofPlane: p)
                for y in 0..<card.planes[p].height {
                    for x in 0..<card.planes[p].width {
                        let xs = (x << s.x)...((x << s.x) + (1 << s.x) - 1), ys = (y << s.y)...((y << s.y) + (1 << s.y) - 1)
                        let got = card.sample(plane: p, x: x, y: y)
                        if xs.allSatisfy({ (12..<28).contains($0) }) && ys.allSatisfy({ (6..<16).contains($0) }) {
                            #expect(got == solid.sample(plane: p, x: x, y: y), "\(still) \(layout) plane \(p) (\(x), \(y)) on the layer")
                            onLayer += 1
                        } else if !xs.contains(where: { (12..<28).contains($0) }) || !ys.contains(where: { (6..<16).contains($0) }) {
                            #expect(got == plain.sample(plane: p, x: x, y: y), "\(still) \(layout) plane \(p) (\(x), \(y)) off the layer")
                        }
                    }
                }
            }
            #expect(onLayer >= 3 * 40)
        }
    }

    @Test("a still decoded once for several layouts is, in each, the still decoded for that layout alone",
          arguments: Still.allCases, [false, true])
    func everyLayoutAtOnce(still: Still, withLayer: Bool) throws {
        try withTemporaryDirectory { dir in
            let path = try Self.write(still, in: dir)
            // Half transparent (premultiplied): composed twice, it would show.
            let layer = Self.layer()
            for c in 0..<4 { for y in 0..<12 { for x in 0..<18 { layer.row(c, y)[x] /= 2 } } }
            let layers = withLayer ? [CardLayer(picture: layer, x: 11, y: 5)] : []
            let blue = RGBAColor(red: 0, green: 0, blue: 255), clear = RGBAColor(red: 0, green: 0, blue: 0, alpha: 0)
            for (background, layouts) in [(blue, [PixelLayout.yuv420p, .gbrp, .yuv444p16, .yuv420p16, .yuv444p]),
                                          (clear, [PixelLayout.yuva420p, .gbrap, .gbrap16])] {
                let together = try StillDecoder.loadPlanar(path: path, width: Self.width, height: Self.height, fit: .cover,
                                                           background: background, layouts: layouts, layers: layers)
                for (layout, picture) in zip(layouts, together) {
                    let alone = try StillDecoder.loadPlanar(path: path, width: Self.width, height: Self.height, fit: .cover,
                                                            background: background, layout: layout, layers: layers)
                    #expect(picture.layout == layout && picture.hasSamePixels(as: alone), "\(still) \(layout) layer \(withLayer)")
                }
            }
        }
    }
}
