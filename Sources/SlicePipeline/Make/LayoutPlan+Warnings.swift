// Warnings about a layout as drawn at one frame size: two layers that cover each other, and an
// `auto` size that shrank text below the size the layout names. Each is about the layout and
// its aspect, not a job, so a campaign tells it once (`LayoutWarning.topic`), however many of
// its jobs repeat it.

import SliceKit
import SliceMedia

/// Something about a layout that does not stop a render but will be seen in it.
public struct LayoutWarning: Sendable, Equatable, CustomStringConvertible {
    /// One line: the layout, the frame size, the layer and what is wrong.
    public let text: String
    /// What the warning is about (the layout, its aspect, the layer, the rule): the same for
    /// every job of a campaign that repeats it.
    public let topic: String

    package init(_ text: String, topic: String) {
        self.text = text
        self.topic = topic
    }

    public var description: String { text }
}

extension LayoutPlan {
    /// `layout 'promo.json' at 1080x1920: `.
    var warningPrefix: String { "layout \(InputText.quoted(file)) at \(frameWidth)x\(frameHeight): " }
    /// `promo.json 9:16`.
    var warningTopic: String { "\(file) \(variant?.description ?? "\(frameWidth)x\(frameHeight)")" }

    /// Pairs of layers whose boxes cover each other and that can show at once: two on a card
    /// that carries both, two over the frames at overlapping times, or one of each.
    package var overlapWarnings: [LayoutWarning] {
        var warnings: [LayoutWarning] = []
        for (i, first) in layers.enumerated() {
            for second in layers[(i + 1)...] where Self.canShowTogether(first.placement, second.placement) {
                let x0 = max(first.box.x, second.box.x), y0 = max(first.box.y, second.box.y)
                let x1 = min(first.box.x + first.box.width, second.box.x + second.box.width)
                let y1 = min(first.box.y + first.box.height, second.box.y + second.box.height)
                guard x0 < x1, y0 < y1 else { continue }
                let shared = PixelBox(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
                warnings.append(LayoutWarning(warningPrefix + "\(first.name) and \(second.name) overlap (\(shared)); move a box if one should not cover the other",
                                              topic: warningTopic + " \(first.name) \(second.name) overlap"))
            }
        }
        return warnings
    }

    static func canShowTogether(_ a: Layout.Placement, _ b: Layout.Placement) -> Bool {
        switch (a, b) {
        case (.card(let one), .card(let other)): one == .all || other == .all || one == other
        case (.over(let one), .over(let other)):
            one.start < (other.end ?? .infinity) && other.start < (one.end ?? .infinity)
        default: true
        }
    }
}

extension LayerPictures {
    /// Text layers whose `auto` size came out below the layout's `smallest-size`.
    package func sizeWarnings(_ layout: LayoutPlan) -> [LayoutWarning] {
        let scale = Double(min(layout.frameWidth, layout.frameHeight)) / 1080
        let smallest = layout.readability.smallestSize
        return pictures.compactMap { picture in
            guard case .text(let text) = picture.layer.content, case .auto = text.size, let size = picture.size,
                  size / scale < smallest - 1e-9 else { return nil }
            return LayoutWarning(layout.warningPrefix + "\(picture.layer.name): auto size shrank its text to \(UnitText.pixels(size)) px (\(UnitText.pixels(size / scale)) at 1080p), below the \(UnitText.pixels(smallest)) the layout names (smallest-size); shorten it, or give its box more room",
                                 topic: layout.warningTopic + " \(picture.layer.name) size")
        }
    }
}
