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
        #expect(PixelLayout.allCases.filter(\.hasAlpha) == [.yuva420p, .gbrap, .yuva420p16, .gbrap16])
    }

    @Test("16-bit layouts are their 8-bit twins with two bytes a sample")
    func twins() {
        for layout in PixelLayout.allCases {
            #expect(layout.eightBit.sixteenBit == layout.sixteenBit && layout.sixteenBit.eightBit == layout.eightBit)
            #expect(layout.bytesPerSample == (layout.isDeep ? 2 : 1))
            #expect(layout.planeCount == layout.eightBit.planeCount && layout.isYUV == layout.eightBit.isYUV)
            for plane in 0..<layout.planeCount {
                #expect(layout.planeSize(plane, width: 15, height: 9) == layout.eightBit.planeSize(plane, width: 15, height: 9))
            }
        }
        #expect(PixelLayout.allCases.filter(\.isDeep).count == 5)
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

    @Test("16-bit fill values: RGB and alpha × 257, Y'CbCr the 8-bit values × 256 within rounding")
    func deepFillValues() {
        let color = RGBAColor(red: 10, green: 20, blue: 30, alpha: 40)
        #expect(PixelLayout.gbrap16.fillValues(for: color) == [20 * 257, 30 * 257, 10 * 257, 40 * 257])
        #expect(PixelLayout.yuv420p16.fillValues(for: .black) == [4096, 32768, 32768])
        #expect(PixelLayout.yuv444p16.fillValues(for: RGBAColor(red: 255, green: 255, blue: 255)) == [60160, 32768, 32768])
        #expect(PixelLayout.gbrp16.fillPattern(for: RGBAColor(red: 1, green: 2, blue: 3)) == [[2, 2], [3, 3], [1, 1]])
        // Every colour of a coarse cube: within half an 8-bit level of the 8-bit maths.
        for r in stride(from: 0, through: 255, by: 51) {
            for g in stride(from: 0, through: 255, by: 51) {
                for b in stride(from: 0, through: 255, by: 51) {
                    let c = RGBAColor(red: UInt8(r), green: UInt8(g), blue: UInt8(b))
                    let wide = PixelLayout.yuv444p16.fillValues(for: c), narrow = PixelLayout.yuv444p.fillValues(for: c)
                    for (w, n) in zip(wide, narrow) { #expect(abs(Double(w) / 256 - Double(n)) <= 0.5 + 1e-9, "\(c)") }
                }
            }
        }
    }
}
