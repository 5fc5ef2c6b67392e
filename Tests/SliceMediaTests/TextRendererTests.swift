// What a text layer's picture holds, read back pixel by pixel: ink where the alignments put it
// and nowhere else, in the layer's colour, premultiplied; the plate's rounded corners; the
// outline and shadow around the glyphs; 8 bits from 16 exactly.

import Foundation
import SliceKit
import Testing
@testable import SliceMedia

@Suite("text layers: ink, colour, plate, outline, shadow")
struct TextRendererTests {
    static let red = RGBAColor(red: 227, green: 6, blue: 19)

    @Test("ink lies in the box where start alignment puts it, in the layer's colour, premultiplied")
    func inkAndColour() throws {
        var layer = plainLayer("Flat White", width: 600, height: 120, size: 48)
        layer.color = Self.red
        let rendered = try TextRenderer.render(layer)
        let picture = rendered.picture
        #expect(picture.width == 600 && picture.height == 120 && picture.hasAlpha)
        #expect(rendered.size == 48 && rendered.lines == 1 && !rendered.ellipsized)
        let ink = try #require(picture.inkBounds())
        // Start of an English line: the left edge; the rest of the box stays empty.
        #expect(ink.x0 <= 6 && ink.x1 < 300, "\(ink)")
        #expect(abs((ink.y0 + ink.y1) / 2 - 60) <= 8, "centred vertically: \(ink)")
        var solid = 0
        for y in 0..<picture.height {
            for x in 0..<picture.width {
                let alpha = picture.sample(3, x, y)
                guard alpha > 0 else {
                    #expect((0..<3).allSatisfy { picture.sample($0, x, y) == 0 }, "colour without alpha at \(x), \(y)")
                    continue
                }
                if alpha == 65535 {
                    solid += 1
                    #expect(picture.pixel8(x, y) == [227, 6, 19, 255], "\(x), \(y): \(picture.pixel8(x, y))")
                } else {
                    // An edge pixel: the colour times its coverage.
                    let expected = Double(227 * 257) * Double(alpha) / 65535
                    #expect(abs(Double(picture.sample(0, x, y)) - expected) <= 1, "\(x), \(y)")
                }
            }
        }
        #expect(solid > 500, "\(solid) fully covered pixels")
        #expect(picture.isPremultiplied)
        // 8 bits: every sample the nearest to the 16-bit one.
        let eight = rendered.eightBit
        for (i, sample) in eight.pixels.enumerated() where i % 997 == 0 {
            let (x, y, c) = ((i / 4) % 600, i / 2400, i % 4)
            #expect(sample == RGBA16Image.eightBit(picture.sample(c, x, y)))
        }
    }

    @Test("start, centre and end put the line at the left, the middle and the right; top and bottom likewise")
    func alignments() throws {
        func ink(_ alignment: TextLayer.Alignment, _ vertical: TextLayer.VerticalAlignment = .centre) throws -> PixelBounds {
            var layer = plainLayer("Flat", width: 600, height: 200, size: 48, alignment: alignment)
            layer.verticalAlignment = vertical
            return try #require(try TextRenderer.render(layer).picture.inkBounds())
        }
        let start = try ink(.start), centre = try ink(.centre), end = try ink(.end)
        #expect(start.x0 <= 6, "\(start)")
        #expect(abs((centre.x0 + centre.x1) - 600) <= 6, "\(centre)")
        #expect(end.x1 >= 594, "\(end)")
        // Glyphs land on whole pixels from wherever the line starts: a pixel either way.
        #expect(abs(start.width - end.width) <= 1 && abs(start.width - centre.width) <= 1)
        let top = try ink(.centre, .top), bottom = try ink(.centre, .bottom)
        #expect(top.y0 < 25 && bottom.y1 > 175 && top.height == bottom.height, "top \(top), bottom \(bottom)")
    }

    @Test("a plate is the lines' box grown by its padding, in its colour, its corners rounded by its radius",
          arguments: [0.0, 20.0])
    func plate(radius: Double) throws {
        var layer = plainLayer("2,49 €", width: 600, height: 160, size: 48, alignment: .centre)
        layer.plate = .init(color: Self.red, padding: 16, radius: radius)
        let picture = try TextRenderer.render(layer).picture
        let plate = try #require(picture.inkBounds())
        var bare = layer
        bare.plate = nil
        let text = try #require(try TextRenderer.render(bare).picture.inkBounds())
        // The plate surrounds the text with about the padding on each side (the lines' box is a
        // little wider than the glyphs' ink).
        #expect(text.x0 - plate.x0 >= 16 && text.x0 - plate.x0 <= 24, "plate \(plate), text \(text)")
        #expect(plate.x1 - text.x1 >= 16 && plate.x1 - text.x1 <= 24, "plate \(plate), text \(text)")
        #expect(text.y0 - plate.y0 >= 16 && plate.y1 - text.y1 >= 16, "plate \(plate), text \(text)")
        let corners = [(plate.x0, plate.y0), (plate.x1 - 1, plate.y0), (plate.x0, plate.y1 - 1), (plate.x1 - 1, plate.y1 - 1)]
        for (x, y) in corners {
            if radius == 0 {
                #expect(picture.pixel8(x, y) == [227, 6, 19, 255], "square corner \(x), \(y)")
            } else {
                #expect(picture.sample(3, x, y) == 0, "rounded corner \(x), \(y) is outside the arc")
                // Along the edges, past the arc, the plate is solid.
                let inward = (x == plate.x0 ? x + 20 : x - 20, y)
                #expect(picture.pixel8(inward.0, inward.1) == [227, 6, 19, 255], "edge \(inward)")
            }
        }
        // Inside the padding, left of the text, plate colour; the text itself is white on it.
        #expect(picture.pixel8(plate.x0 + 8, (plate.y0 + plate.y1) / 2) == [227, 6, 19, 255])
        var white = 0
        for y in text.y0..<text.y1 {
            for x in text.x0..<text.x1 where picture.pixel8(x, y) == [255, 255, 255, 255] { white += 1 }
        }
        #expect(white > 200, "\(white) white pixels on the plate")
    }

    @Test("an outline widens the glyphs by its width in its colour; a shadow repeats them moved by its offset")
    func outlineAndShadow() throws {
        var layer = plainLayer("Hi", width: 300, height: 160, size: 64, alignment: .centre)
        layer.color = RGBAColor(red: 0, green: 0, blue: 0)
        let bare = try #require(try TextRenderer.render(layer).picture.inkBounds())

        var outlined = layer
        outlined.outline = .init(width: 4, color: RGBAColor(red: 255, green: 220, blue: 0))
        let picture = try TextRenderer.render(outlined).picture
        let wider = try #require(picture.inkBounds())
        #expect(abs(bare.x0 - wider.x0 - 4) <= 1 && abs(wider.x1 - bare.x1 - 4) <= 1, "bare \(bare), outlined \(wider)")
        #expect(abs(bare.y0 - wider.y0 - 4) <= 1 && abs(wider.y1 - bare.y1 - 4) <= 1, "bare \(bare), outlined \(wider)")
        // Just outside the glyph's left edge, at its middle row: outline colour.
        let middle = (bare.y0 + bare.y1) / 2
        #expect(picture.pixel8(bare.x0 - 2, middle) == [255, 220, 0, 255], "\(picture.pixel8(bare.x0 - 2, middle))")

        var shadowed = layer
        shadowed.shadow = .init(x: 8, y: 6, color: RGBAColor(red: 0, green: 0, blue: 255))
        let cast = try TextRenderer.render(shadowed).picture
        let both = try #require(cast.inkBounds())
        #expect(both.x0 == bare.x0 && abs(both.x1 - bare.x1 - 8) <= 1 && abs(both.y1 - bare.y1 - 6) <= 1, "bare \(bare), with shadow \(both)")
        // Right of the glyph's right edge, within the offset: the shadow's blue, solid.
        #expect(cast.pixel8(bare.x1 + 4, middle) == [0, 0, 255, 255], "\(cast.pixel8(bare.x1 + 4, middle))")

        var blurred = shadowed
        blurred.shadow?.blur = 4
        let soft = try TextRenderer.render(blurred).picture
        let spread = try #require(soft.inkBounds())
        #expect(spread.x1 > both.x1 + 4 && spread.y1 > both.y1 + 4, "blur spreads: \(spread) vs \(both)")
        // Blurred, the shadow fades: its far edge is translucent.
        #expect(soft.sample(3, spread.x1 - 1, middle) < 32768)
        #expect(soft.isPremultiplied && cast.isPremultiplied && picture.isPremultiplied)
    }

    @Test("a bold weight picks the bold face: heavier ink than regular")
    func weight() throws {
        var regular = plainLayer("Flat White", size: 48)
        regular.color = RGBAColor(red: 0, green: 0, blue: 0)
        var bold = regular
        bold.weight = 700
        func coverage(_ layer: TextLayer) throws -> Int {
            let picture = try TextRenderer.render(layer).picture
            var sum = 0
            for y in 0..<picture.height { for x in 0..<picture.width { sum += Int(picture.sample(3, x, y)) } }
            return sum / 65535
        }
        let light = try coverage(regular), heavy = try coverage(bold)
        #expect(Double(heavy) > Double(light) * 1.25, "regular \(light), bold \(heavy)")
    }

    @Test("a variable font takes any weight: its named instances and the weights between (the axis, interpolated)")
    func variableFont() throws {
        try withTemporaryDirectory { folder in
            let path = folder + "/TestVariable.ttf"
            try Data(VariableTestFont.bytes).write(to: URL(fileURLWithPath: path))
            func stems(_ weight: Int) throws -> [Int] {
                var layer = TextLayer(name: "variable", text: "III", width: 400, height: 200, size: .pixels(100), fonts: [path],
                                      weight: weight, alignment: .start, color: RGBAColor(red: 0, green: 0, blue: 0))
                layer.family = VariableTestFont.family
                let picture = try TextRenderer.render(layer).picture
                var widths: [Int] = [], run = 0
                for x in 0..<picture.width {
                    if picture.sample(3, x, 100) > 32768 { run += 1 } else if run > 0 { widths.append(run); run = 0 }
                }
                return widths
            }
            // At 100 px a unit is 0.1 px: 50, 100, 190 (0.3 of the way to 900) and 400 units.
            #expect(try stems(100) == [5, 5, 5])
            #expect(try stems(400) == [10, 10, 10])
            #expect(try stems(550) == [19, 19, 19])
            #expect(try stems(900) == [40, 40, 40])
        }
    }
}
