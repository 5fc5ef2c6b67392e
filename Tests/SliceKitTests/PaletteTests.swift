// Palette and PaletteMapper: exact colours stay exact, photos get a full palette that stays close,
// transparency has its own entry, and the same pictures always give the same palette.

import SliceKit
import Testing

@Suite("Palette")
struct PaletteTests {
    /// A smooth gradient with thousands of colours.
    static func gradient(width: Int = 96, height: Int = 64) -> RGBAImage {
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let i = 4 * (y * width + x)
                pixels[i] = UInt8(x * 255 / (width - 1))
                pixels[i + 1] = UInt8(y * 255 / (height - 1))
                pixels[i + 2] = UInt8((x + y) * 255 / (width + height - 2))
            }
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    static func map(_ image: RGBAImage, _ palette: Palette) -> [UInt8] {
        var indices = [UInt8](repeating: 0, count: image.width * image.height)
        let mapper = PaletteMapper(palette: palette)
        image.pixels.withUnsafeBufferPointer { rgba in
            indices.withUnsafeMutableBufferPointer { out in
                mapper.map(rgba: rgba.baseAddress!, rgbaStride: image.width * 4, width: image.width, height: image.height,
                           into: out.baseAddress!, stride: image.width)
            }
        }
        return indices
    }

    @Test("few colours are kept exactly, the fixed ones first, and map back exactly")
    func exact() {
        let red = RGBAColor(red: 200, green: 10, blue: 10), teal = RGBAColor(red: 10, green: 180, blue: 170)
        var image = RGBAImage(width: 8, height: 2, color: red)
        for x in 4..<8 { image.pixels.replaceSubrange((4 * x)..<(4 * x + 4), with: [10, 180, 170, 255]) }
        let palette = Palette(for: [image], fixed: [.black], transparent: false)
        #expect(palette.colors.first == .black)
        #expect(Set(palette.colors.map(\.description)) == Set([RGBAColor.black, red, teal].map(\.description)))
        let indices = Self.map(image, palette)
        #expect(indices.prefix(4).allSatisfy { palette.colors[Int($0)] == red })
        #expect(indices[4..<8].allSatisfy { palette.colors[Int($0)] == teal })
    }

    @Test("a photo gets a full palette, and mapped pixels stay close to the originals")
    func photo() {
        let image = Self.gradient()
        let palette = Palette(for: [image], transparent: false)
        #expect(palette.colors.count == 256)
        let indices = Self.map(image, palette)
        var error = 0
        for (i, index) in indices.enumerated() {
            let c = palette.colors[Int(index)]
            error += abs(Int(c.red) - Int(image.pixels[4 * i])) + abs(Int(c.green) - Int(image.pixels[4 * i + 1]))
                + abs(Int(c.blue) - Int(image.pixels[4 * i + 2]))
        }
        let mean = Double(error) / Double(indices.count * 3)
        #expect(mean < 8, "mean error per channel \(mean)")
    }

    @Test("the same pictures give the same palette")
    func deterministic() {
        let a = Palette(for: [Self.gradient(), DemoCards.source(width: 64, height: 36)], fixed: [.black], transparent: true)
        let b = Palette(for: [Self.gradient(), DemoCards.source(width: 64, height: 36)], fixed: [.black], transparent: true)
        #expect(a == b)
    }

    @Test("a large flat colour is kept exactly even in a photo")
    func flatColour() {
        let brand = RGBAColor(red: 17, green: 99, blue: 201)
        var image = Self.gradient()
        for i in 0..<(image.width * 20) { image.pixels.replaceSubrange((4 * i)..<(4 * i + 4), with: [17, 99, 201, 255]) }
        let palette = Palette(for: [image], transparent: false)
        #expect(palette.colors.contains(brand))
        #expect(Self.map(image, palette).prefix(image.width * 20).allSatisfy { palette.colors[Int($0)] == brand })
    }

    @Test("transparency has its own entry, the only one that is not opaque")
    func transparency() throws {
        var image = Self.gradient(width: 16, height: 4)
        for i in 0..<16 { image.pixels[4 * i + 3] = 0 }
        let palette = Palette(for: [image], transparent: true)
        let index = try #require(palette.transparentIndex)
        #expect(index == palette.colors.count && palette.colors.count <= 255)
        let entries = palette.argbEntries
        #expect(entries.count == 256)
        #expect(entries[index] >> 24 == 0)
        #expect(entries.enumerated().allSatisfy { $0.offset == index || $0.element >> 24 == 0xFF })
        let indices = Self.map(image, palette)
        #expect(indices.prefix(16).allSatisfy { Int($0) == index })
        #expect(indices.dropFirst(16).allSatisfy { Int($0) != index })
    }

    @Test("the uniform palette has 252 colours from black to white")
    func uniform() {
        let palette = Palette.uniform(transparent: false)
        #expect(palette.colors.count == 252)
        #expect(palette.colors.contains(.black) && palette.colors.contains(RGBAColor(red: 255, green: 255, blue: 255)))
    }
}
