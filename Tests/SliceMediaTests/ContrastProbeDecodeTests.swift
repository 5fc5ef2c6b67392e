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
}
