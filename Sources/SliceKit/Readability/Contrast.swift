// The contrast check: WCAG 2 contrast between a text layer's colour and what is under its box —
// the fitted still with the card's earlier layers, or a frame of the render, shaded by the
// layer's scrim and plate. Not
// the mean: a white cup under white text is a few percent of the box, so the measure is the
// contrast that all but the worst 5 % of the box's pixels reach.

import Foundation
import Synchronization

/// WCAG 2 relative luminance and contrast ratios.
package enum Contrast {
    /// The share of a box's pixels allowed below the measured contrast.
    package static let percentile = 0.05

    /// Linear light of each 16-bit sRGB value (WCAG 2's transfer, with its 0.03928 knee).
    private static let linear: [Double] = (0...65535).map { value in
        let c = Double(value) / 65535
        return c <= 0.03928 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
    }

    /// Relative luminance of 16-bit sRGB red, green and blue, 0…1.
    @inline(__always)
    static func luminance(_ r: Int, _ g: Int, _ b: Int) -> Double {
        linear.withUnsafeBufferPointer { luminance(r, g, b, in: $0) }
    }

    /// `luminance(r, g, b)` from the transfer table itself (a loop takes it out once).
    @inline(__always)
    private static func luminance(_ r: Int, _ g: Int, _ b: Int, in linear: UnsafeBufferPointer<Double>) -> Double {
        0.2126 * linear[r] + 0.7152 * linear[g] + 0.0722 * linear[b]
    }

    /// Relative luminance of `color` (its alpha not counted).
    package static func luminance(_ color: RGBAColor) -> Double {
        luminance(Int(color.red) * 257, Int(color.green) * 257, Int(color.blue) * 257)
    }

    /// (lighter + 0.05) / (darker + 0.05): 1 for equal luminances, 21 for black on white.
    package static func ratio(_ a: Double, _ b: Double) -> Double {
        (max(a, b) + 0.05) / (min(a, b) + 0.05)
    }

    /// One text layer to measure on one still.
    package struct Target: Sendable, Equatable {
        /// How messages name the layer (`layer 'name'`).
        package let layer: String
        package let box: PixelBox
        package let text: RGBAColor
        package let scrim: Layout.Text.Scrim?
        package let plate: RGBAColor?
        /// The contrast it must keep (by its drawn size).
        package let minimum: Double
        /// The frame of the clip the layer is read on: for a card's text, the first that
        /// shows its still at rest.
        package let frame: Int
        /// For a card's text, how many of the card's layers are printed before it (under it).
        package let below: Int

        package init(layer: String, box: PixelBox, text: RGBAColor, scrim: Layout.Text.Scrim?, plate: RGBAColor?, minimum: Double, frame: Int,
                     below: Int = 0) {
            self.layer = layer
            self.box = box
            self.text = text
            self.scrim = scrim
            self.plate = plate
            self.minimum = minimum
            self.frame = frame
            self.below = below
        }
    }

    /// A target and the contrast measured for it, floored to a hundredth.
    package struct Measure: Sendable, Equatable {
        package let target: Target
        package let ratio: Double

        package init(target: Target, ratio: Double) {
            self.target = target
            self.ratio = ratio
        }

        package var isBelowMinimum: Bool { ratio < target.minimum }

        /// `layer 'name': contrast 1.00:1 at frame 12 (95 % of its box), below 4.5:1`.
        package var summary: String {
            "\(target.layer): contrast \(String(format: "%.2f", ratio)):1 against what is under its box at frame \(target.frame) (\(Int((1 - Contrast.percentile) * 100)) % of the box reach it), below the \(target.minimum.shortText):1 the layout asks for; give it a scrim or a plate, or another colour"
        }
    }

    /// The contrast of `target` over a frame-sized picture whose row `y` from column `x0`
    /// `fill` writes into its buffer as 16-bit sRGB red, green, blue triples: the layer's box
    /// shaded by its scrim, then its plate, against its colour. Deterministic: counted in
    /// hundredths, the same whatever order pixels come in.
    package static func measure(_ target: Target, width: Int, height: Int, fill: (_ y: Int, _ x0: Int, _ row: inout [Int]) -> Void) -> Double {
        let box = target.box
        let x0 = max(0, box.x), y0 = max(0, box.y), x1 = min(width, box.x + box.width), y1 = min(height, box.y + box.height)
        guard x0 < x1, y0 < y1 else { return 21 }
        let text = luminance(target.text)
        var bins = [Int](repeating: 0, count: 2001)
        let plate = target.plate.map { (Double($0.alpha) / 255, [Double($0.red), Double($0.green), Double($0.blue)].map { $0 * 257 }) }
        let scrimColour = target.scrim.map { [Double($0.color.red), Double($0.color.green), Double($0.color.blue)].map { $0 * 257 } }
        let shaded = target.scrim != nil || plate != nil
        var row = [Int](repeating: 0, count: 3 * (x1 - x0))
        for y in y0..<y1 {
            fill(y, x0, &row)
            if !shaded {
                // Unshaded, the common case: straight from the row, the tables hoisted.
                linear.withUnsafeBufferPointer { linear in
                    row.withUnsafeBufferPointer { row in
                        bins.withUnsafeMutableBufferPointer { bins in
                            for i in 0..<(x1 - x0) {
                                let under = luminance(row[3 * i], row[3 * i + 1], row[3 * i + 2], in: linear)
                                bins[min(2000, Int((ratio(text, under) - 1) * 100))] += 1
                            }
                        }
                    }
                }
                continue
            }
            for i in 0..<(x1 - x0) {
                var (r, g, b) = (row[3 * i], row[3 * i + 1], row[3 * i + 2])
                if shaded {
                    var (red, green, blue) = (Double(r), Double(g), Double(b))
                    if let scrim = target.scrim, let shade = scrimColour {
                        let a = scrim.coverage(x: x0 + i - box.x, y: y - box.y, width: box.width, height: box.height)
                        (red, green, blue) = (red * (1 - a) + shade[0] * a, green * (1 - a) + shade[1] * a, blue * (1 - a) + shade[2] * a)
                    }
                    if let (a, shade) = plate {
                        (red, green, blue) = (red * (1 - a) + shade[0] * a, green * (1 - a) + shade[1] * a, blue * (1 - a) + shade[2] * a)
                    }
                    (r, g, b) = (Int(red.rounded()), Int(green.rounded()), Int(blue.rounded()))
                }
                bins[min(2000, Int((ratio(text, luminance(r, g, b)) - 1) * 100))] += 1
            }
        }
        let allowed = Int(Double((x1 - x0) * (y1 - y0)) * percentile)
        var seen = 0
        for (bin, count) in bins.enumerated() {
            seen += count
            if seen > allowed { return 1 + Double(bin) / 100 }
        }
        return 21
    }
}

/// The contrast targets of the card text printed on one still, measured on it once it is
/// fitted, each with the card's layers under it printed. Shared by the decode threads of a
/// render; measured once.
package final class ContrastProbe: Sendable {
    package let targets: [Contrast.Target]
    /// The card's layers, in drawing order (a target's `below` counts those under it).
    private let layers: [CardLayer]
    private let measured = Mutex<[Contrast.Measure]?>(nil)

    package init(targets: [Contrast.Target], layers: [CardLayer] = []) {
        self.targets = targets
        self.layers = layers
    }

    /// What was measured, once a picture was given (nil before).
    package var measures: [Contrast.Measure]? { measured.withLock { $0 } }

    /// Measures every target on `image` (8-bit sRGB, frame-sized), unless done already.
    package func measure(_ image: RGBAImage) {
        guard measures == nil, !targets.isEmpty else { return }
        // Layers under some target: measured on a 16-bit copy they are printed on, as the card is.
        if targets.contains(where: { $0.below > 0 }) { return measure(RGBA16Image(expanding: image, alpha: false), copied: true) }
        record {
            image.pixels.withUnsafeBufferPointer { pixels in
                targets.map { target in
                    Contrast.Measure(target: target, ratio: Contrast.measure(target, width: image.width, height: image.height) { y, x0, row in
                        let base = 4 * (y * image.width + x0)
                        for i in 0..<(row.count / 3) {
                            for c in 0..<3 { row[3 * i + c] = Int(pixels[base + 4 * i + c]) * 257 }
                        }
                    })
                }
            }
        }
    }

    /// Measures every target on `image` (16-bit sRGB, frame-sized), unless done already.
    package func measure(_ image: RGBA16Image) {
        guard measures == nil, !targets.isEmpty else { return }
        let needsLayers = targets.contains(where: { $0.below > 0 })
        guard needsLayers else { return measure(image, copied: false) }
        let copy = RGBA16Image(width: image.width, height: image.height, hasAlpha: image.hasAlpha)
        for c in 0..<(image.hasAlpha ? 4 : 3) {
            for y in 0..<image.height { copy.row(c, y).update(from: image.row(c, y), count: image.width) }
        }
        measure(copy, copied: true)
    }

    /// Measures on `image`; when it is a copy of its own, prints each target's layers under it
    /// first (in drawing order, so each layer once).
    private func measure(_ image: RGBA16Image, copied: Bool) {
        record {
            var printed = 0
            return targets.map { target in
                if copied, target.below > printed {
                    image.compose(Array(layers[printed..<min(target.below, layers.count)]))
                    printed = target.below
                }
                return Contrast.Measure(target: target, ratio: Contrast.measure(target, width: image.width, height: image.height) { y, x0, row in
                    for c in 0..<3 {
                        let plane = image.row(c, y) + x0
                        for i in 0..<(row.count / 3) { row[3 * i + c] = Int(plane[i]) }
                    }
                })
            }
        }
    }

    private func record(_ measure: () -> [Contrast.Measure]) {
        guard measures == nil, !targets.isEmpty else { return }
        let made = measure()
        measured.withLock { if $0 == nil { $0 = made } }
    }
}
