// The frame buffer: aligned planes, filling, copying and comparing pixels (not padding).

import Testing
import SliceKit

@Suite("PlanarImage")
struct PlanarImageTests {
    @Test("planes have the layout's sizes and 64-byte aligned rows", arguments: PixelLayout.allCases)
    func planeGeometry(layout: PixelLayout) {
        let image = PlanarImage(width: 30, height: 10, layout: layout)
        #expect(image.planes.count == layout.planeCount)
        for (p, plane) in image.planes.enumerated() {
            let size = layout.planeSize(p, width: 30, height: 10)
            #expect(plane.width == size.width && plane.height == size.height)
            #expect(plane.stride >= plane.width && plane.stride % 64 == 0)
            #expect(Int(bitPattern: plane.base) % 64 == 0)
        }
    }

    @Test("fill writes each plane's value for the colour everywhere")
    func fill() {
        let image = PlanarImage(width: 6, height: 4, layout: .yuva420p)
        image.fill(RGBAColor(red: 255, green: 255, blue: 255, alpha: 7))
        let expected: [UInt8] = [235, 128, 128, 7]
        for (p, plane) in image.planes.enumerated() {
            for y in 0..<plane.height {
                for x in 0..<plane.width { #expect(plane.row(y)[x] == expected[p]) }
            }
        }
    }

    @Test("copy reproduces every pixel and hasSamePixels notices a single changed byte")
    func copyAndCompare() {
        let source = PlanarImage.patterned(width: 9, height: 5, layout: .yuv420p) { p, x, y in UInt8(p * 80 + y * 9 + x) }
        let target = PlanarImage(width: 9, height: 5, layout: .yuv420p)
        target.fill(.black)
        #expect(!target.hasSamePixels(as: source))
        target.copy(from: source)
        #expect(target.hasSamePixels(as: source))
        target.planes[2].row(2)[4] &+= 1
        #expect(!target.hasSamePixels(as: source))
    }

    @Test("padding bytes beyond the width do not count as pixels")
    func paddingIgnored() {
        let a = PlanarImage(width: 3, height: 2, layout: .gbrp)
        let b = PlanarImage(width: 3, height: 2, layout: .gbrp)
        a.fill(.black)
        b.fill(.black)
        for plane in a.planes { plane.row(1)[plane.width] = 0xAB }
        for plane in b.planes { plane.row(1)[plane.width] = 0xCD }
        #expect(a.hasSamePixels(as: b))
    }

    @Test("images of another size or layout are never the same")
    func differentShapes() {
        let a = PlanarImage(width: 4, height: 4, layout: .yuv444p)
        let b = PlanarImage(width: 4, height: 4, layout: .gbrp)
        let c = PlanarImage(width: 4, height: 2, layout: .yuv444p)
        for image in [a, b, c] { image.fill(.black) }
        #expect(!a.hasSamePixels(as: b))
        #expect(!a.hasSamePixels(as: c))
    }
}
