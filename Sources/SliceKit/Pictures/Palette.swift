// The 256 colours a GIF is drawn with, chosen once per clip. Every pixel the slice effect
// shows is a pixel of one of the two stills or the background (strips are copied, never
// blended), so a palette built from the stills (and from them with the layout's over layers
// drawn on) is exact for the whole clip but a fade's blends: no frame has to be seen, or kept,
// before encoding starts.

/// Up to 256 colours, one of which may be transparent.
package struct Palette: Sendable, Equatable {
    /// The most entries a GIF palette has.
    package static let capacity = 256

    /// The opaque colours, in index order.
    package let colors: [RGBAColor]
    /// The index of the fully transparent entry (just after `colors`), if the clip has one.
    package let transparentIndex: Int?

    /// A palette of exactly these colours (alpha ignored), plus a transparent entry if asked.
    /// - Precondition: they fit: `colors.count + (transparent ? 1 : 0) <= 256`.
    package init(colors: [RGBAColor], transparent: Bool) {
        precondition(colors.count + (transparent ? 1 : 0) <= Palette.capacity, "too many palette colours")
        self.colors = colors.map { RGBAColor(red: $0.red, green: $0.green, blue: $0.blue) }
        transparentIndex = transparent ? colors.count : nil
    }

    /// The palette for pictures made of `images`' pixels.
    ///
    /// Colours are kept exactly when they fit. Otherwise the colours that fill large flat areas
    /// (a brand colour, a backdrop) are kept exactly, and the rest are chosen by median cut:
    /// the box of colours with the largest squared error is split at its weighted median along
    /// its widest channel until the palette is full, and each box gives its mean colour.
    /// - Parameters:
    ///   - images: the pictures (for a clip: both stills, at the GIF's size).
    ///   - fixed: colours that must be present exactly (the background), first.
    ///   - transparent: reserve an entry for pixels less than half opaque.
    package init(for images: [RGBAImage], fixed: [RGBAColor] = [], transparent: Bool) {
        let slots = Palette.capacity - (transparent ? 1 : 0)
        var counts: [UInt32: Int] = [:]
        var total = 0
        for image in images {
            image.pixels.withUnsafeBufferPointer { p in
                for i in stride(from: 0, to: p.count, by: 4) where !transparent || p[i + 3] >= 128 {
                    counts[UInt32(p[i]) << 16 | UInt32(p[i + 1]) << 8 | UInt32(p[i + 2]), default: 0] += 1
                    total += 1
                }
            }
        }
        var chosen: [UInt32] = []
        for color in fixed.prefix(slots) {
            let key = color.rgbKey
            if !chosen.contains(key) { chosen.append(key) }
        }
        // Most frequent first, then by value: dictionaries iterate in a different order in
        // every process, and the same clip must get the same palette everywhere.
        let ranked = counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
        let missing = ranked.filter { !chosen.contains($0.key) }
        if chosen.count + missing.count <= slots {
            chosen += missing.map(\.key)
        } else {
            // Flat areas (≥ 0.5 % of the pixels each) keep their exact colour, up to an eighth of the palette.
            let flat = missing.prefix { $0.value * 200 >= total }.prefix(slots / 8).map(\.key)
            chosen += flat
            let rest = missing.dropFirst(flat.count)
            chosen += MedianCut.colors(of: rest.map { ($0.key, $0.value) }, count: slots - chosen.count)
        }
        self.init(colors: chosen.map(RGBAColor.init(rgbKey:)), transparent: transparent)
    }

    /// All 256 entries as FFmpeg's PAL8 palette takes them: 0xAARRGGBB in native byte order.
    /// Unused entries are opaque black, so only the transparent entry is ever transparent.
    package var argbEntries: [UInt32] {
        var entries = colors.map { 0xFF00_0000 | $0.rgbKey }
        if transparentIndex != nil { entries.append(0) }
        while entries.count < Palette.capacity { entries.append(0xFF00_0000) }
        return entries
    }
}

/// Median cut over weighted colours.
enum MedianCut {
    /// One colour (or a bin of close colours, by its mean) and how many pixels have it.
    private struct Point {
        var r: Double, g: Double, b: Double
        var weight: Double
        func channel(_ c: Int) -> Double { c == 0 ? r : c == 1 ? g : b }
    }

    /// A run of `points` and its statistics.
    private struct Box {
        var range: Range<Int>
        var weight = 0.0
        var mean = (0.0, 0.0, 0.0)
        var variance = (0.0, 0.0, 0.0)
        /// Total squared error: what splitting this box would reduce.
        var error: Double { (variance.0 + variance.1 + variance.2) * weight }
    }

    /// Up to `count` colours representing `colors` (packed 0xRRGGBB with pixel counts).
    static func colors(of colors: [(key: UInt32, count: Int)], count: Int) -> [UInt32] {
        guard count > 0, !colors.isEmpty else { return [] }
        // Bins of 6 bits a channel bound the work for photos with hundreds of thousands of
        // colours; each bin keeps the mean of its members, so nothing is rounded away.
        var bins: [UInt32: (r: Double, g: Double, b: Double, n: Double)] = [:]
        for (key, n) in colors {
            let bin = (key >> 2) & 0x3F3F3F
            var value = bins[bin] ?? (0, 0, 0, 0)
            let w = Double(n)
            value.r += Double(key >> 16) * w
            value.g += Double((key >> 8) & 0xFF) * w
            value.b += Double(key & 0xFF) * w
            value.n += w
            bins[bin] = value
        }
        var points = bins.sorted { $0.key < $1.key }.map { _, v in Point(r: v.r / v.n, g: v.g / v.n, b: v.b / v.n, weight: v.n) }
        var boxes = [measure(Box(range: 0..<points.count), points)]
        while boxes.count < count {
            guard let pick = boxes.indices.filter({ boxes[$0].range.count > 1 }).max(by: { boxes[$0].error < boxes[$1].error }),
                  boxes[pick].error > 0 else { break }
            let box = boxes[pick]
            let v = box.variance
            let axis = v.0 >= v.1 && v.0 >= v.2 ? 0 : (v.1 >= v.2 ? 1 : 2)
            points[box.range].sort { $0.channel(axis) < $1.channel(axis) }
            var running = 0.0
            var cut = box.range.lowerBound + 1
            for i in box.range {
                running += points[i].weight
                if running >= box.weight / 2 { cut = min(max(i + 1, box.range.lowerBound + 1), box.range.upperBound - 1); break }
            }
            boxes[pick] = measure(Box(range: box.range.lowerBound..<cut), points)
            boxes.append(measure(Box(range: cut..<box.range.upperBound), points))
        }
        return boxes.map { box in
            func byte(_ v: Double) -> UInt32 { UInt32(max(0, min(255, v.rounded()))) }
            return byte(box.mean.0) << 16 | byte(box.mean.1) << 8 | byte(box.mean.2)
        }
    }

    private static func measure(_ box: Box, _ points: [Point]) -> Box {
        var box = box
        var w = 0.0, r = 0.0, g = 0.0, b = 0.0
        for p in points[box.range] { w += p.weight; r += p.r * p.weight; g += p.g * p.weight; b += p.b * p.weight }
        guard w > 0 else { return box }
        let mean = (r / w, g / w, b / w)
        var vr = 0.0, vg = 0.0, vb = 0.0
        for p in points[box.range] {
            vr += (p.r - mean.0) * (p.r - mean.0) * p.weight
            vg += (p.g - mean.1) * (p.g - mean.1) * p.weight
            vb += (p.b - mean.2) * (p.b - mean.2) * p.weight
        }
        box.weight = w
        box.mean = mean
        box.variance = (vr / w, vg / w, vb / w)
        return box
    }
}

extension RGBAColor {
    /// 0xRRGGBB.
    var rgbKey: UInt32 { UInt32(red) << 16 | UInt32(green) << 8 | UInt32(blue) }

    init(rgbKey key: UInt32) {
        self.init(red: UInt8(key >> 16), green: UInt8((key >> 8) & 0xFF), blue: UInt8(key & 0xFF))
    }
}

extension Palette {
    /// A fixed palette that suits any picture: 6 reds × 7 greens × 6 blues (the eye tells greens
    /// apart best). For GIFs written without the clip's stills to hand.
    package static func uniform(transparent: Bool) -> Palette {
        var colors: [RGBAColor] = []
        for r in 0..<6 {
            for g in 0..<7 {
                for b in 0..<6 {
                    colors.append(RGBAColor(red: UInt8(r * 255 / 5), green: UInt8(g * 255 / 6), blue: UInt8(b * 255 / 5)))
                }
            }
        }
        return Palette(colors: colors, transparent: transparent)
    }
}
