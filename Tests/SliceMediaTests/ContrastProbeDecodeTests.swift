// The contrast probe sees every still, whichever way it reaches the render (straight from the
// decoder, scaled at 8 bits, the 16-bit way), and measuring changes none of its bytes.

import SliceKit
import Testing
@testable import SliceMedia

@Suite struct ContrastProbeDecodeTests {
    @Test("a probe is measured on every way a still is fitted, and the picture is the same bytes with it as without",
          arguments: StillLayersTests.Still.allCases, [PixelLayout.yuv420p, .yuv444p16])
    func probeSeesEveryWay(still: StillLayersTests.Still, layout: PixelLayout) throws {
        try withTemporaryDirectory { dir in
            let path = try StillLayersTests.write(still, in: dir)
            let target = Contrast.Target(layer: "layer 1", box: PixelBox(x: 0, y: 0, width: 64, height: 36), text: .black, scrim: nil, plate: nil,
                                         minimum: 4.5, frame: 0)
            let probe = ContrastProbe(targets: [target])
            func load(_ probe: ContrastProbe?) throws -> PlanarImage {
                try StillDecoder.loadPlanar(path: path, width: StillLayersTests.width, height: StillLayersTests.height, fit: .cover,
                                            background: .black, layout: layout, probe: probe)
            }
            let measured = try load(probe)
            #expect(probe.measures?.count == 1, "\(still) \(layout) was not measured")
            #expect(measured.hasSamePixels(as: try load(nil)), "\(still) \(layout)")
        }
    }

    @Test("a card's text is measured with the card's layers before it printed, on every way a still is fitted; those after it are not",
          arguments: StillLayersTests.Still.allCases, [PixelLayout.yuv420p, .yuv444p16])
    func layersUnderTheText(still: StillLayersTests.Still, layout: PixelLayout) throws {
        try withTemporaryDirectory { dir in
            let path = try StillLayersTests.write(still, in: dir)
            // An opaque black band over the left half, then white text over it, then a white
            // band the text is not on.
            func band(_ value: UInt16) -> CardLayer {
                let picture = RGBA16Image(width: 32, height: 36, hasAlpha: false)
                for c in 0..<3 { for y in 0..<36 { picture.row(c, y).update(repeating: value, count: 32) } }
                return CardLayer(picture: picture, x: 0, y: 0)
            }
            let box = PixelBox(x: 0, y: 0, width: 32, height: 36)
            func target(below: Int) -> Contrast.Target {
                Contrast.Target(layer: "layer 'name'", box: box, text: RGBAColor(red: 255, green: 255, blue: 255), scrim: nil, plate: nil, minimum: 4.5, frame: 0, below: below)
            }
            let probe = ContrastProbe(targets: [target(below: 0), target(below: 1), target(below: 1)], layers: [band(0), band(65535)])
            _ = try StillDecoder.loadPlanar(path: path, width: StillLayersTests.width, height: StillLayersTests.height, fit: .cover,
                                            background: .black, layout: layout, probe: probe)
            let ratios = try #require(probe.measures).map(\.ratio)
            // White on the black band: 21:1, whatever the still; the still alone is not black.
            #expect(ratios[1] >= 20.9 && ratios[2] >= 20.9, "\(still) \(layout): \(ratios)")
            #expect(ratios[0] < 20, "\(still) \(layout): \(ratios)")
        }
    }
}
