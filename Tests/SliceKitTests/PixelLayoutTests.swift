// Plane counts, plane sizes and fill values of the planar layouts the compositor draws in.

import Testing
import SliceKit

@Suite("PixelLayout")
struct PixelLayoutTests {
    @Test("plane counts and alpha")
    func planes() {
        #expect(PixelLayout.yuv420p.planeCount == 3)
        #expect(PixelLayout.yuv444p.planeCount == 3)
        #expect(PixelLayout.gbrp.planeCount == 3)
        #expect(PixelLayout.yuva420p.planeCount == 4)
        #expect(PixelLayout.gbrap.planeCount == 4)
        #expect(PixelLayout.allCases.filter(\.hasAlpha) == [.yuva420p, .gbrap])
    }

    @Test("4:2:0 halves chroma, rounding up like FFmpeg")
    func planeSizes420() {
        for layout in [PixelLayout.yuv420p, .yuva420p] {
            #expect(layout.planeSize(0, width: 16, height: 8) == (16, 8))
            #expect(layout.planeSize(1, width: 16, height: 8) == (8, 4))
            #expect(layout.planeSize(2, width: 15, height: 9) == (8, 5))
        }
        #expect(PixelLayout.yuva420p.planeSize(3, width: 15, height: 9) == (15, 9))
    }

    @Test("full-resolution layouts keep every plane at the picture size")
    func planeSizesFull() {
        for layout in [PixelLayout.yuv444p, .gbrp, .gbrap] {
            for plane in 0..<layout.planeCount {
                #expect(layout.planeSize(plane, width: 15, height: 9) == (15, 9))
            }
        }
    }

    @Test("fill values follow each layout's plane order")
    func fillValues() {
        let color = RGBAColor(red: 10, green: 20, blue: 30, alpha: 40)
        #expect(PixelLayout.gbrp.fillValues(for: color) == [20, 30, 10])
        #expect(PixelLayout.gbrap.fillValues(for: color) == [20, 30, 10, 40])
        #expect(PixelLayout.yuv420p.fillValues(for: .black) == [16, 128, 128])
        #expect(PixelLayout.yuv444p.fillValues(for: RGBAColor(red: 255, green: 255, blue: 255)) == [235, 128, 128])
        #expect(PixelLayout.yuva420p.fillValues(for: RGBAColor(red: 255, green: 0, blue: 0, alpha: 0)) == [63, 102, 240, 0])
    }
}
