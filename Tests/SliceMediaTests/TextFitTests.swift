// Sizes and fitting: auto picks the largest half-pixel size that fits, max-lines and wrapping
// bound it, text that does not fit at the smallest size is refused naming the layer (one line,
// exit 65), and an ellipsis cuts it instead when the layer asks for one.

import SliceKit
import Testing
@testable import SliceMedia

@Suite("text layers: auto size, lines, wrapping, ellipsis")
struct TextFitTests {
    static func layer(_ text: String, width: Int, height: Int, size: TextLayer.Size) -> TextLayer {
        TextLayer(name: "name", text: text, width: width, height: height, size: size)
    }

    @Test("auto chooses the largest size on the half-pixel grid that fits: half a pixel more does not")
    func autoIsLargest() throws {
        let layer = Self.layer("Flat White", width: 500, height: 150, size: .auto(min: 10, max: 200))
        let chosen = try TextRenderer.render(layer)
        #expect(chosen.size > 40 && chosen.size < 200 && (chosen.size * 2).rounded() == chosen.size * 2, "\(chosen.size)")
        var exact = layer
        exact.size = .pixels(chosen.size)
        #expect(try TextRenderer.render(exact).picture.samples == chosen.picture.samples)
        exact.size = .pixels(chosen.size + 0.5)
        #expect(throws: TextError.self) { try TextRenderer.render(exact) }
        // A narrower box: a smaller size.
        var narrow = layer
        narrow.width = 250
        #expect(try TextRenderer.render(narrow).size < chosen.size)
        // The maximum caps it.
        var capped = layer
        capped.size = .auto(min: 10, max: 30)
        #expect(try TextRenderer.render(capped).size == 30)
    }

    @Test("max-lines: one line sets the text smaller than two would")
    func maxLines() throws {
        var layer = Self.layer("Flat White Extra Large", width: 500, height: 300, size: .auto(min: 10, max: 200))
        let free = try TextRenderer.render(layer)
        #expect(free.lines >= 2, "\(free.lines) lines at \(free.size)")
        layer.maxLines = 1
        let single = try TextRenderer.render(layer)
        #expect(single.lines == 1 && single.size < free.size, "\(single.lines) line at \(single.size), free \(free.size)")
    }

    @Test("wrapping off: a line wider than the box does not fit; on, it wraps onto more lines")
    func wrapping() throws {
        var layer = Self.layer("Prices include VAT and delivery", width: 300, height: 200, size: .pixels(32))
        let wrapped = try TextRenderer.render(layer)
        #expect(wrapped.lines >= 2)
        layer.wrap = false
        let error = try #require(throws: TextError.self) { try TextRenderer.render(layer) }
        #expect(error.kind == .doesNotFit && error.description.contains("wrapping is off"), "\(error)")
        // Line breaks of the text's own are kept without wrapping.
        layer.text = "Prices include\nVAT"
        #expect(try TextRenderer.render(layer).lines == 2)
    }

    @Test("text that does not fit at the smallest size: one line naming the layer, the box and why; exit 65")
    func doesNotFit() throws {
        var layer = Self.layer("Flat White Extra Large Oat", width: 200, height: 50, size: .auto(min: 30, max: 80))
        layer.name = "price\u{1B}[31m"
        let error = try #require(throws: TextError.self) { try TextRenderer.render(layer) }
        #expect(error.kind == .doesNotFit && error.exitCode == 65 && error.mediaError.kind == .inputInvalid)
        let line = error.description
        #expect(line.hasPrefix("layer 'price\\u{1B}[31m': "), "\(line)")
        #expect(line.contains("200x50 px box") && line.contains("30 px") && line.contains("ellipsis"), "\(line)")
        #expect(!line.contains("\n") && !line.unicodeScalars.contains { $0.value < 0x20 }, "one line, no raw controls: \(line)")
        // A word longer than the box is never split between letters.
        let word = Self.layer("Donaudampfschifffahrtsgesellschaft", width: 300, height: 200, size: .pixels(48))
        let tooWide = try #require(throws: TextError.self) { try TextRenderer.render(word) }
        #expect(tooWide.description.contains("a word is") && tooWide.description.contains("300 px"), "\(tooWide)")
    }

    @Test("with an ellipsis, text too long at the smallest size is cut with … to max-lines")
    func ellipsis() throws {
        var layer = Self.layer("Flat White Extra Large Oat Milk Caramel", width: 300, height: 120, size: .auto(min: 30, max: 80))
        layer.maxLines = 1
        layer.ellipsis = true
        let cut = try TextRenderer.render(layer)
        #expect(cut.ellipsized && cut.lines == 1 && cut.size == 30, "\(cut.lines) lines at \(cut.size)")
        let ink = try #require(cut.picture.inkBounds())
        #expect(ink.x1 <= 300 && ink.width > 200, "\(ink)")
        // Two lines allowed: still cut, on the second line.
        layer.maxLines = 2
        let two = try TextRenderer.render(layer)
        #expect(two.ellipsized && two.lines == 2)
        // Text that fits is not cut.
        layer.text = "Flat White"
        let whole = try TextRenderer.render(layer)
        #expect(!whole.ellipsized && whole.size > 30)
        // A fixed size too big for the box, wrapping off: each line cut.
        var fixed = Self.layer("Prices include VAT and delivery", width: 300, height: 100, size: .pixels(32))
        fixed.wrap = false
        fixed.ellipsis = true
        let line = try TextRenderer.render(fixed)
        #expect(line.ellipsized && line.lines == 1)
    }

    @Test("outline and shadow count: ink that would leave the box makes the text smaller, never cut")
    func decorationsFit() throws {
        // As wide as the box allows: the outline and shadow need room at the sides.
        var layer = Self.layer("Flat White", width: 300, height: 300, size: .auto(min: 10, max: 200))
        layer.maxLines = 1
        let plain = try TextRenderer.render(layer)
        layer.outline = .init(width: 6, color: RGBAColor(red: 0, green: 0, blue: 0))
        layer.shadow = .init(x: 10, y: 10, blur: 4, color: RGBAColor(red: 0, green: 0, blue: 0, alpha: 128))
        let decorated = try TextRenderer.render(layer)
        #expect(decorated.size < plain.size, "\(decorated.size) vs \(plain.size)")
        // Nothing reaches the last row or column: nothing was cut at the edge.
        let picture = decorated.picture
        let edges = (0..<picture.width).flatMap { [($0, 0), ($0, picture.height - 1)] } + (0..<picture.height).flatMap { [(0, $0), (picture.width - 1, $0)] }
        #expect(edges.allSatisfy { picture.sample(3, $0.0, $0.1) == 0 })
    }

    @Test("auto's sizes: min, half-pixel steps, max")
    func candidates() {
        #expect(TextRenderer.candidates(.auto(min: 10, max: 12)) == [10, 10.5, 11, 11.5, 12])
        #expect(TextRenderer.candidates(.auto(min: 14.2, max: 15.1)) == [14.2, 14.7, 15.1])
        #expect(TextRenderer.candidates(.auto(min: 20, max: 20)) == [20])
        #expect(TextRenderer.candidates(.pixels(33)) == [33])
    }
}
