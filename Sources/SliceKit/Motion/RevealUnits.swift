// What a typewriter, word or line reveal uncovers, one unit after another: boxes of a text
// layer's picture, made from the glyph clusters the text engine shaped. A unit is never smaller
// than a grapheme cluster nor than a glyph cluster (a ligature, an Arabic letter joined to its
// neighbours, a Devanagari conjunct), so no glyph is ever cut; the picture is drawn once and a
// frame only chooses which boxes of it show.

/// A glyph cluster as the text engine laid it out, in pixels of the layer's box.
package struct GlyphCluster: Sendable, Equatable {
    /// Its first byte in the text's UTF-8 (it runs to the next cluster's first byte).
    package var start: Int
    /// Its line, 0 first.
    package var line: Int
    /// Its logical box: from `x` across `width`, its line's `top` to `bottom`.
    package var x: Double, width: Double
    package var top: Double, bottom: Double

    package init(start: Int, line: Int, x: Double, width: Double, top: Double, bottom: Double) {
        self.start = start
        self.line = line
        self.x = x
        self.width = width
        self.top = top
        self.bottom = bottom
    }
}

/// A text layer's picture cut into the units reveals show, each a list of boxes in whole pixels
/// of the layer's box; the boxes of one kind tile the lines (the first and last of a line reach
/// the box's sides, the first and last line its top and bottom), so once every unit shows, all
/// of the picture does — plate, outline and shadow included.
package struct RevealUnits: Sendable, Equatable {
    /// A box in pixels of the layer's box: columns x0..<x1, rows y0..<y1.
    package struct Box: Sendable, Equatable {
        package var x0: Int, y0: Int, x1: Int, y1: Int

        package init(x0: Int, y0: Int, x1: Int, y1: Int) {
            (self.x0, self.y0, self.x1, self.y1) = (x0, y0, x1, y1)
        }
    }

    /// A unit: its boxes, and the bytes of the text it holds.
    package struct Unit: Sendable, Equatable {
        package var boxes: [Box]
        package var bytes: Range<Int>
    }

    /// Whole clusters in reading (logical) order: what a typewriter shows one at a time.
    package let clusters: [Unit]
    /// Words with the spaces after them, in reading order.
    package let words: [Unit]
    /// Lines, top to bottom: each its whole band of the box.
    package let lines: [Unit]

    package init(clusters: [Unit], words: [Unit], lines: [Unit]) {
        self.clusters = clusters
        self.words = words
        self.lines = lines
    }

    /// The units of `text`, laid out as `glyphs` (in any order), in a box `width` × `height`.
    package init(text: String, glyphs: [GlyphCluster], width: Int, height: Int) {
        let length = text.utf8.count
        // Where grapheme clusters start (and the end): a unit ends only on one of these.
        var graphemes: Set<Int> = [length]
        var offset = 0
        for character in text {
            graphemes.insert(offset)
            offset += character.utf8.count
        }
        // One glyph cluster per start, in logical order.
        var seen: Set<Int> = []
        let ordered = glyphs.filter { (0..<length).contains($0.start) }.sorted { ($0.start, $0.x) < ($1.start, $1.x) }
            .filter { seen.insert($0.start).inserted }
        guard !ordered.isEmpty, width > 0, height > 0 else {
            self.init(clusters: [], words: [], lines: [])
            return
        }
        // Each glyph cluster's box, tiling its line: from its left edge to the next cluster's.
        let lineNumbers = Array(Set(ordered.map(\.line))).sorted()
        var bands: [Int: (Int, Int)] = [:]
        for (place, line) in lineNumbers.enumerated() {
            let top = place == 0 ? 0 : Int(ordered.first { $0.line == line }!.top.rounded())
            let bottom = place == lineNumbers.count - 1 ? height : Int(ordered.first { $0.line == lineNumbers[place + 1] }!.top.rounded())
            bands[line] = (max(0, min(height, top)), max(0, min(height, bottom)))
        }
        var boxes: [Int: Box] = [:]
        for line in lineNumbers {
            let across = ordered.filter { $0.line == line }.sorted { ($0.x, $0.start) < ($1.x, $1.start) }
            let (top, bottom) = bands[line]!
            for (place, cluster) in across.enumerated() {
                let left = place == 0 ? 0 : Int(cluster.x.rounded())
                let right = place == across.count - 1 ? width : Int(across[place + 1].x.rounded())
                boxes[cluster.start] = Box(x0: max(0, min(width, left)), y0: top, x1: max(0, min(width, right)), y1: bottom)
            }
        }
        // Glyph clusters joined until a unit ends where a grapheme cluster does.
        var units: [(unit: Unit, line: Int)] = []
        for (place, cluster) in ordered.enumerated() {
            let end = place + 1 < ordered.count ? ordered[place + 1].start : length
            if let last = units.last, !graphemes.contains(last.unit.bytes.upperBound) {
                units[units.count - 1].unit.bytes = last.unit.bytes.lowerBound..<end
                units[units.count - 1].unit.boxes.append(boxes[cluster.start]!)
            } else {
                units.append((Unit(boxes: [boxes[cluster.start]!], bytes: cluster.start..<end), cluster.line))
            }
        }
        let utf8 = Array(text.utf8)
        func isSpace(_ unit: Unit) -> Bool {
            String(decoding: utf8[unit.bytes], as: UTF8.self).allSatisfy(\.isWhitespace)
        }
        // A unit may carry the line break after it (Pango gives it no cluster of its own).
        func endsInSpace(_ unit: Unit) -> Bool {
            String(decoding: utf8[unit.bytes], as: UTF8.self).last?.isWhitespace ?? false
        }
        // Words: a unit of spaces goes with the word before it (the first word takes any before it).
        var words: [Unit] = []
        var previousSpace = false, hasLetters = false
        for (unit, _) in units {
            let space = isSpace(unit)
            if words.isEmpty || (previousSpace && !space && hasLetters) {
                words.append(unit)
                hasLetters = !space
            } else {
                words[words.count - 1].boxes += unit.boxes
                words[words.count - 1].bytes = words[words.count - 1].bytes.lowerBound..<unit.bytes.upperBound
                hasLetters = hasLetters || !space
            }
            previousSpace = endsInSpace(unit)
        }
        let lines = lineNumbers.map { line in
            let bytes = units.filter { $0.line == line }.map(\.unit.bytes)
            let (top, bottom) = bands[line]!
            return Unit(boxes: [Box(x0: 0, y0: top, x1: width, y1: bottom)],
                        bytes: (bytes.map(\.lowerBound).min() ?? 0)..<(bytes.map(\.upperBound).max() ?? 0))
        }
        self.init(clusters: units.map(\.unit), words: words, lines: lines)
    }

    /// The units a reveal of `kind` shows one after another.
    package func units(_ kind: Layout.Effect.RevealUnit) -> [Unit] {
        switch kind {
        case .cluster: clusters
        case .word: words
        case .line: lines
        }
    }
}
