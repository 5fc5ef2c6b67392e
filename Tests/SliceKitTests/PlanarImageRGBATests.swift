// Frames read back as RGB (posters, storyboards, the contrast check): a row at a time gives
// exactly the colours a pixel at a time gives, and the rounding without the C library's `round`
// is the rounding it replaced.

import Testing
@testable import SliceKit

@Suite struct PlanarImageRGBATests {
    @Test("a byte is rounded half away from zero and clamped, as Double.rounded() then clamping did, at every edge")
    func byteRounding() {
        let halves = (0...256).flatMap { k -> [Double] in
            let v = Double(k) - 0.5
            return [v.nextDown, v, v.nextUp, Double(k), Double(k).nextDown, Double(k).nextUp]
        }
        let odd: [Double] = [-1e300, -300, -0.5, -0.0, 0, 0.49999999999999994, 1e-300, 254.49999999999997, 255.5, 1e300]
        for value in halves + odd {
            let expected = UInt8(max(0, min(255, value.rounded())))
            #expect(PlanarImage.byte(value) == expected, "\(value)")
        }
    }

    @Test("BT.709 limited range to RGB matches the formula for Y, Cb and Cr across their whole range")
    func bt709MatchesTheFormula() {
        func byte(_ value: Double) -> UInt8 { UInt8(max(0, min(255, value.rounded()))) }
        for y in Swift.stride(from: 0, through: 255, by: 3) {
            for cb in Swift.stride(from: 0, through: 255, by: 5) {
                for cr in Swift.stride(from: 1, through: 255, by: 5) {
                    let luma = (Double(y) - 16) * 255 / 219, b = (Double(cb) - 128) * 255 / 224, r = (Double(cr) - 128) * 255 / 224
                    let expected = (byte(luma + 1.5748 * r), byte(luma - 0.187324 * b - 0.468124 * r), byte(luma + 1.8556 * b))
                    let got = PlanarImage.bt709(luma: UInt8(y), cb: UInt8(cb), cr: UInt8(cr))
                    #expect(got == expected, "Y \(y) Cb \(cb) Cr \(cr)")
                }
            }
        }
    }

    @Test("a row read as RGB triples is each pixel's colour, from any column, in every 8-bit layout",
          arguments: [PixelLayout.yuv420p, .yuva420p, .yuv444p, .gbrp, .gbrap])
    func rowsArePixels(layout: PixelLayout) {
        let image = PlanarImage.patterned(width: 37, height: 9, layout: layout) { p, x, y in
            UInt8(truncatingIfNeeded: (x &* 67) ^ (y &* 29) ^ (p &* 101))
        }
        for y in 0..<image.height {
            for x0 in [0, 1, 5, 36] {
                var row = [Int](repeating: -1, count: 3 * (image.width - x0))
                image.readRGB(y: y, from: x0, into: &row)
                let expected = (x0..<image.width).flatMap { x -> [Int] in
                    let c = image.rgba(x: x, y: y)
                    return [Int(c.red) * 257, Int(c.green) * 257, Int(c.blue) * 257]
                }
                #expect(row == expected, "\(layout) row \(y) from \(x0)")
            }
        }
    }
}
