// A storyboard cell's time, drawn with a built-in 3×5 bitmap font (digits, point, colon and
// "s"), so reviewing a clip needs no font files and looks the same on every machine.

/// Draws short time labels such as `1.25s` into RGBA pictures.
package enum TimeLabel {
    /// Rows of each glyph, top to bottom; bit 2 is the left column.
    private static let glyphs: [Character: [UInt8]] = [
        "0": [0b111, 0b101, 0b101, 0b101, 0b111], "1": [0b010, 0b110, 0b010, 0b010, 0b111],
        "2": [0b111, 0b001, 0b111, 0b100, 0b111], "3": [0b111, 0b001, 0b111, 0b001, 0b111],
        "4": [0b101, 0b101, 0b111, 0b001, 0b001], "5": [0b111, 0b100, 0b111, 0b001, 0b111],
        "6": [0b111, 0b100, 0b111, 0b101, 0b111], "7": [0b111, 0b001, 0b010, 0b010, 0b010],
        "8": [0b111, 0b101, 0b111, 0b101, 0b111], "9": [0b111, 0b101, 0b111, 0b001, 0b111],
        ".": [0b000, 0b000, 0b000, 0b000, 0b010], ":": [0b000, 0b010, 0b000, 0b010, 0b000],
        "s": [0b011, 0b100, 0b010, 0b001, 0b110],
    ]

    /// `1.25s`: seconds with two decimals.
    package static func text(seconds: Double) -> String {
        let hundredths = Int((seconds * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)s"
    }

    /// The size `text` takes at `scale` pixels per font pixel, with a one-pixel margin all round.
    package static func size(of text: String, scale: Int) -> (width: Int, height: Int) {
        ((text.count * 4 + 1) * scale, 7 * scale)
    }

    /// Draws `text` in white on a black box whose top-left corner is (`x`, `y`), clipped to the
    /// picture. Characters without a glyph are left blank.
    package static func draw(_ text: String, into image: inout RGBAImage, x: Int, y: Int, scale: Int) {
        let (width, height) = size(of: text, scale: scale)
        func set(_ px: Int, _ py: Int, _ value: UInt8) {
            guard (0..<image.width).contains(px), (0..<image.height).contains(py) else { return }
            let i = 4 * (py * image.width + px)
            image.pixels[i] = value
            image.pixels[i + 1] = value
            image.pixels[i + 2] = value
            image.pixels[i + 3] = 255
        }
        for py in y..<(y + height) { for px in x..<(x + width) { set(px, py, 0) } }
        for (index, character) in text.enumerated() {
            guard let rows = glyphs[character] else { continue }
            for (row, bits) in rows.enumerated() {
                for column in 0..<3 where bits & (0b100 >> column) != 0 {
                    let left = x + (1 + index * 4 + column) * scale, top = y + (1 + row) * scale
                    for dy in 0..<scale { for dx in 0..<scale { set(left + dx, top + dy, 255) } }
                }
            }
        }
    }

    /// Reads back the text drawn at (`x`, `y`) with `draw`, for tests: each cell matched
    /// against the glyphs by its white pixels; "?" where none matches.
    package static func read(_ image: RGBAImage, x: Int, y: Int, scale: Int, count: Int) -> String {
        String((0..<count).map { index -> Character in
            let rows = (0..<5).map { row -> UInt8 in
                (0..<3).reduce(UInt8(0)) { bits, column in
                    let px = x + (1 + index * 4 + column) * scale + scale / 2, py = y + (1 + row) * scale + scale / 2
                    guard (0..<image.width).contains(px), (0..<image.height).contains(py) else { return bits }
                    return image.pixels[4 * (py * image.width + px)] > 127 ? bits | (0b100 >> column) : bits
                }
            }
            return glyphs.first { $0.value == rows }?.key ?? "?"
        })
    }
}
