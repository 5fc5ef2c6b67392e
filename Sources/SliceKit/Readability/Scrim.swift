// A scrim: a shade laid behind a text layer so its words stay readable on a busy photo — a box
// of even shade, or a gradient that is darkest at one side of the box and clear at the other.
// It is drawn into the layer's own picture, under the words, so it flies with a card's strips
// and fades with an `over` layer's timing, and the contrast check measures against it.

extension Layout.Text {
    /// A shade behind the text, filling the layer's box.
    public struct Scrim: Sendable, Equatable {
        /// How the shade is spread over the box.
        public enum Shape: String, Sendable, CaseIterable {
            /// The same opacity over the whole box.
            case box
            /// `opacity` at the `from` side, falling evenly to none at the opposite side.
            case gradient
        }

        /// The side of the box a gradient is darkest at.
        public enum Side: String, Sendable, CaseIterable { case top, bottom, left, right }

        public var shape: Shape
        public var side: Side
        /// The shade's colour; its own alpha is not used (`opacity` is).
        public var color: RGBAColor
        /// 0…1: how much of the colour covers what is under it (at the `from` side, for a gradient).
        public var opacity: Double

        public init(shape: Shape = .box, from side: Side = .bottom, color: RGBAColor = .black, opacity: Double = 0.5) {
            self.shape = shape
            self.side = side
            self.color = color
            self.opacity = opacity
        }

        /// How much of the colour covers pixel (`x`, `y`) of a `width` × `height` box, 0…1:
        /// `opacity` everywhere for a box; for a gradient, `opacity` × the distance of the
        /// pixel's centre from the opposite side, as a fraction of the box.
        public func coverage(x: Int, y: Int, width: Int, height: Int) -> Double {
            guard shape == .gradient else { return opacity }
            let ramp: Double = switch side {
            case .top: 1 - (Double(y) + 0.5) / Double(height)
            case .bottom: (Double(y) + 0.5) / Double(height)
            case .left: 1 - (Double(x) + 0.5) / Double(width)
            case .right: (Double(x) + 0.5) / Double(width)
            }
            return opacity * ramp
        }

        /// `box #000000 0.6` or `gradient from bottom #000000 0.6`: for fingerprints and plans.
        public var summary: String {
            (shape == .box ? "box" : "gradient from \(side.rawValue)") + " \(RGBAColor(red: color.red, green: color.green, blue: color.blue)) \(opacity.shortText)"
        }
    }
}

extension Layout.Text.Scrim {
    /// The scrim as a premultiplied 16-bit picture of a `width` × `height` box: alpha is the
    /// coverage × 65535 rounded to nearest, each colour the 16-bit colour × that alpha, rounded.
    package func picture(width: Int, height: Int) -> RGBA16Image {
        let image = RGBA16Image(width: width, height: height, hasAlpha: true)
        let colour = [color.red, color.green, color.blue].map { Int($0) * 257 }
        for y in 0..<height {
            let rows = (0..<4).map { image.row($0, y) }
            for x in 0..<width {
                let alpha = Int((coverage(x: x, y: y, width: width, height: height) * 65535).rounded())
                rows[3][x] = UInt16(alpha)
                for c in 0..<3 { rows[c][x] = UInt16((colour[c] * alpha + 32767) / 65535) }
            }
        }
        return image
    }
}

extension LayoutReader {
    /// `"scrim": {"shape": "gradient", "from": "bottom", "color": "#000000", "opacity": 0.6}`;
    /// every field has a default (a black box at half opacity).
    func scrim(_ value: Any, at place: String) throws(LayoutError) -> Layout.Text.Scrim {
        let fields = try object(value, at: place, keys: ["shape", "from", "color", "opacity"])
        var scrim = Layout.Text.Scrim()
        scrim.shape = try choice(fields["shape"], at: "\(place).shape", aliases: [:]) ?? .box
        scrim.side = try choice(fields["from"], at: "\(place).from", aliases: [:]) ?? .bottom
        if fields["from"] != nil, scrim.shape == .box {
            throw error("\(place).from", "is for \"shape\": \"gradient\"; a box scrim shades its whole box evenly")
        }
        scrim.color = try color(fields["color"], at: "\(place).color") ?? .black
        scrim.opacity = try number(fields["opacity"], at: "\(place).opacity", in: Layout.Ranges.opacity) ?? 0.5
        return scrim
    }

    /// A scrim built in code, checked as the file reader would.
    func check(_ scrim: Layout.Text.Scrim, at place: String) throws(LayoutError) {
        try checkNumber(scrim.opacity, at: "\(place).opacity", in: Layout.Ranges.opacity)
    }
}
