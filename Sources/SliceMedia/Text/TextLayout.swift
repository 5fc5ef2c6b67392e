// One text laid out by Pango at one size: shaped, broken into lines, measured, and drawn into
// coverage masks. The renderer makes several while it looks for the size that fits.

import CText
import SliceKit

/// A laid-out text (`slicevid_text_layout`).
///
/// Not thread-safe: made, used and freed only under `TextEngine`'s lock.
final class TextLayout {
    /// What the layout is asked for, besides the text and fonts.
    struct Setting {
        var size: Double
        /// The width lines are broken and aligned in; nil: none (for measuring the text alone).
        var width: Double?
        var ellipsis = false
        /// With `ellipsis` and wrapping: the height the lines are cut to.
        var ellipsisHeight: Double = 0
    }

    /// A layout's measurements in pixels from its origin (see `slicevid_text_extents`).
    struct Extents {
        var ink: Rectangle
        var logical: Rectangle
        var lines: Int
        var wrapped: Bool
        var ellipsized: Bool
        var unknownGlyphs: Int
    }

    private let pointer: OpaquePointer
    let extents: Extents
    /// The layer's name, for messages.
    private let layer: String

    /// Lays `layer`'s text out in `fonts` (whose families come first in `families`' order).
    init(_ layer: TextLayer, fonts: TextFonts, families: [String], setting: Setting) throws(TextError) {
        let alignment: Int32 = switch layer.alignment {
        case .start: Int32(SLICEVID_TEXT_ALIGN_START)
        case .centre: Int32(SLICEVID_TEXT_ALIGN_CENTRE)
        case .end: Int32(SLICEVID_TEXT_ALIGN_END)
        }
        let made: OpaquePointer? = layer.text.withCString { text in
            families.joined(separator: ",").withCString { families in
                layer.language.withCString { language in
                    var settings = slicevid_text_settings(
                        text: text, length: Int32(layer.text.utf8.count), families: families, weight: Int32(layer.weight),
                        size: setting.size, width: setting.width ?? 0, wrap: layer.wrap ? 1 : 0,
                        ellipsize: setting.ellipsis ? 1 : 0, ellipsize_height: setting.ellipsisHeight,
                        alignment: alignment, line_height: layer.lineHeight ?? 0, language: language)
                    return slicevid_text_layout_create(fonts.pointer, &settings)
                }
            }
        }
        guard let made else { throw TextError(.unavailable, layer: layer.name, message: "out of memory laying the text out") }
        pointer = made
        self.layer = layer.name
        var measured = slicevid_text_extents()
        slicevid_text_layout_extents(made, &measured)
        extents = Extents(
            ink: Rectangle(x: measured.ink_x, y: measured.ink_y, width: measured.ink_width, height: measured.ink_height),
            logical: Rectangle(x: measured.logical_x, y: measured.logical_y,
                               width: measured.logical_width, height: measured.logical_height),
            lines: Int(measured.lines), wrapped: measured.wrapped != 0, ellipsized: measured.ellipsized != 0,
            unknownGlyphs: Int(measured.unknown_glyphs))
    }

    deinit { slicevid_text_layout_free(pointer) }

    /// The bottom of line `line` (0 first) from the layout's top, in pixels; nil past the last.
    func bottom(ofLine line: Int) -> Double? {
        let bottom = slicevid_text_layout_line_bottom(pointer, Int32(clamping: line))
        return bottom < 0 ? nil : bottom
    }

    /// The glyph clusters as laid out, line by line left to right, their boxes moved by
    /// (`dx`, `dy`): where the layout's origin is in the layer's box.
    func clusters(dx: Double, dy: Double) -> [GlyphCluster] {
        var capacity: Int32 = 256
        while true {
            var found = [slicevid_text_cluster](repeating: slicevid_text_cluster(), count: Int(capacity))
            let count = slicevid_text_layout_clusters(pointer, &found, capacity)
            guard count > capacity else {
                return found.prefix(Int(max(0, count))).map {
                    GlyphCluster(start: Int($0.start), line: Int($0.line), x: $0.x + dx, width: $0.width, top: $0.top + dy, bottom: $0.bottom + dy)
                }
            }
            capacity = count
        }
    }

    /// The characters no font has, each once, in the order they come in the text, with the
    /// UTF-8 offset of the first place each stands.
    func unknownCharacters() -> [(scalar: UInt32, offset: Int)] {
        guard extents.unknownGlyphs > 0 else { return [] }
        let capacity = Int32(min(extents.unknownGlyphs, 4096))
        var characters = [UInt32](repeating: 0, count: Int(capacity))
        var offsets = [Int32](repeating: 0, count: Int(capacity))
        let count = Int(min(capacity, slicevid_text_layout_unknown(pointer, &characters, &offsets, capacity)))
        // Runs come in visual order (right to left within Arabic); the text's order reads better.
        var found: [(scalar: UInt32, offset: Int)] = []
        for (character, offset) in zip(characters.prefix(count), offsets.prefix(count)).sorted(by: { $0.1 < $1.1 }) {
            if !found.contains(where: { $0.scalar == character }) { found.append((character, Int(offset))) }
        }
        return found
    }

    /// Draws the glyphs, their top-left origin at (`x`, `y`), into `mask`: filled, or their
    /// outlines stroked `outline` pixels to each side.
    func draw(into mask: inout CoverageMask, x: Double, y: Double, outline: Double = 0) throws(TextError) {
        let failure = mask.bytes.withUnsafeMutableBufferPointer { bytes in
            slicevid_text_draw(pointer, bytes.baseAddress, Int32(mask.width), Int32(mask.height), Int32(mask.stride), x, y, outline)
        }
        if let failure { throw TextError(.unavailable, layer: layer, message: "Cairo could not draw the text: \(String(cString: failure))") }
    }
}

/// A rectangle in pixels.
struct Rectangle: Equatable {
    var x: Double, y: Double, width: Double, height: Double

    var maxX: Double { x + width }
    var maxY: Double { y + height }

    /// This rectangle moved by (`dx`, `dy`) and grown by `margin` on every side.
    func offset(_ dx: Double, _ dy: Double, growing margin: Double = 0) -> Rectangle {
        Rectangle(x: x + dx - margin, y: y + dy - margin, width: width + 2 * margin, height: height + 2 * margin)
    }
}
