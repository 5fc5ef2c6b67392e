// Where a still lands in the frame, and which part of it must be scaled to get there. Cover
// crops: only the part of the still the frame shows (plus the few pixels the scaling filter
// reaches beyond it) is scaled, so a 1x200 strip covering a 1080p frame costs a frame's worth
// of memory, not the 1920x384000 picture the whole still would scale to.

import SliceKit

/// A rectangle of whole pixels.
struct PixelRect: Equatable {
    var x: Int, y: Int, width: Int, height: Int
}

/// The placement of an upright still in a frame.
struct StillFit {
    /// The still's size once scaled: cover fills the frame (one side matches it exactly),
    /// contain fits inside it.
    let scaled: (width: Int, height: Int)
    /// The part of the scaled still the frame shows, in scaled pixels (all of it for contain).
    let visible: PixelRect

    /// - Parameters:
    ///   - focus: the point of the still to keep in view when cover crops, as fractions of its
    ///     width and height (0.5, 0.5 is the centre): it sits at the frame's centre unless that
    ///     would uncover an edge.
    init(source: (width: Int, height: Int), frame: (width: Int, height: Int), fit: FitMode,
         focus: (x: Double, y: Double) = (0.5, 0.5)) {
        scaled = StillDecoder.fittedSize(source: source, frame: frame, fit: fit)
        guard fit == .cover else {
            visible = PixelRect(x: 0, y: 0, width: scaled.width, height: scaled.height)
            return
        }
        func start(_ scaledLength: Int, _ frameLength: Int, _ focus: Double) -> Int {
            let overflow = scaledLength - frameLength
            // At the centre this is overflow / 2 rounded down, the old centring, exactly.
            let wanted = (Double(scaledLength) * focus - Double(frameLength) / 2).rounded(.down)
            return max(0, min(overflow, Int(wanted.isFinite ? wanted : 0)))
        }
        visible = PixelRect(x: start(scaled.width, frame.width, focus.x), y: start(scaled.height, frame.height, focus.y),
                            width: frame.width, height: frame.height)
    }

    /// Where the still's point `focus` (fractions of the upright still) lands in a `frame`-sized
    /// picture, as fractions of the frame, kept within it: a cover crop shows `visible`, a
    /// contained still sits centred as `RGBAImage.centred` places it.
    func framePoint(of focus: (x: Double, y: Double), frame: (width: Int, height: Int)) -> (x: Double, y: Double) {
        func axis(_ scaled: Int, _ start: Int, _ frame: Int, _ focus: Double) -> Double {
            let offset = scaled <= frame ? (frame - scaled) / 2 : -start
            return min(max((Double(offset) + Double(scaled) * focus) / Double(frame), 0), 1)
        }
        return (axis(scaled.width, visible.x, frame.width, focus.x), axis(scaled.height, visible.y, frame.height, focus.y))
    }

    /// What to scale: a window of the upright still, in still pixels, and the size that window
    /// scales to; `visible` is then `offset` within the scaled window.
    struct Window: Equatable {
        var source: PixelRect
        var scaledWidth: Int, scaledHeight: Int
        var offsetX: Int, offsetY: Int
    }

    /// How the crop's edges must fall on one axis of the upright still: on multiples of
    /// `unit` as the picture is stored, counted from the far end when the axis is `flipped`
    /// (a mirrored or turned picture), or on the picture's own edges.
    struct EdgeRule: Equatable {
        var unit = 1
        var flipped = false

        func allows(_ edge: Int, of length: Int) -> Bool {
            let stored = flipped ? length - edge : edge
            return stored % unit == 0 || stored == length
        }
    }

    /// The smallest window of a `source`-sized upright still that covers what the frame shows,
    /// widened by the scaling filter's reach and to edges the rules allow (whole chroma
    /// samples, whole bytes of a 1-bit picture).
    func window(source: (width: Int, height: Int), rules: (x: EdgeRule, y: EdgeRule) = (EdgeRule(), EdgeRule())) -> Window {
        let horizontal = Self.span(source.width, scaled.width, visible.x, visible.width, rules.x)
        let vertical = Self.span(source.height, scaled.height, visible.y, visible.height, rules.y)
        let x = Self.placed(horizontal.lowerBound, horizontal.count, source.width, scaled.width, visible.x, visible.width)
        let y = Self.placed(vertical.lowerBound, vertical.count, source.height, scaled.height, visible.y, visible.height)
        return Window(source: PixelRect(x: horizontal.lowerBound, y: vertical.lowerBound,
                                        width: horizontal.count, height: vertical.count),
                      scaledWidth: x.length, scaledHeight: y.length, offsetX: x.offset, offsetY: y.offset)
    }

    /// The still pixels behind `visibleLength` scaled pixels from `visibleStart`, plus margins.
    private static func span(_ sourceLength: Int, _ scaledLength: Int, _ visibleStart: Int, _ visibleLength: Int,
                             _ rule: EdgeRule) -> Range<Int> {
        if visibleStart == 0 && visibleLength == scaledLength { return 0..<sourceLength }
        let scale = Double(scaledLength) / Double(sourceLength)
        // Bicubic reaches two still pixels beyond a scaled one when enlarging, 2/scale when
        // shrinking: with that margin the crop's edges scale exactly as inside the whole still.
        // Enlarged, the margin costs `scale` scaled pixels a still pixel, so it shrinks to keep
        // within 64 of them: a still enlarged over 64 times gets none, its edge rows showing the
        // nearest still pixel, which is what they show of the whole still too, near enough.
        let margin = scale <= 1 ? Int((2 / scale).rounded(.up)) + 1 : min(3, Int(64 / scale))
        let first = Int((Double(visibleStart) / scale).rounded(.down)) - margin
        let last = Int((Double(visibleStart + visibleLength) / scale).rounded(.up)) + margin
        let lower = max(0, min(sourceLength - 1, first))
        let upper = max(lower + 1, min(sourceLength, last))
        // Ends that land on (or within a hair of) whole scaled pixels make the window scale
        // with the whole still's ratio and phase: the picture of scaling all of it, to libswscale's
        // rounding. The ends may move up to 64 scaled pixels out for it; an end the rules do
        // not allow moves out to the next one that is.
        let reach = min(sourceLength, Int(64 / scale))
        func misfit(_ edge: Int) -> Int {
            let remainder = (edge * scaledLength) % sourceLength
            return min(remainder, sourceLength - remainder)
        }
        let starts = (max(0, lower - reach)...lower).reversed().filter { rule.allows($0, of: sourceLength) }
        let ends = (upper...min(sourceLength, upper + reach)).filter { rule.allows($0, of: sourceLength) }
        let start = starts.min { misfit($0) < misfit($1) }
            ?? stride(from: lower, through: 0, by: -1).first { rule.allows($0, of: sourceLength) } ?? 0
        let end = ends.min { misfit($0) < misfit($1) }
            ?? (upper...sourceLength).first { rule.allows($0, of: sourceLength) } ?? sourceLength
        return start..<end
    }

    /// The scaled length of a window of the still and where the visible part starts in it.
    private static func placed(_ start: Int, _ length: Int, _ sourceLength: Int, _ scaledLength: Int,
                               _ visibleStart: Int, _ visibleLength: Int) -> (length: Int, offset: Int) {
        if start == 0 && length == sourceLength { return (scaledLength, visibleStart) }
        let scale = Double(scaledLength) / Double(sourceLength)
        let scaled = max(visibleLength, Int((Double(length) * scale).rounded()))
        let offset = Int((Double(visibleStart) - Double(start) * scale).rounded())
        return (scaled, max(0, min(scaled - visibleLength, offset)))
    }
}

extension Orientation {
    /// The stored-picture rectangle that `rect` of the upright picture comes from; `stored` is
    /// the stored picture's size. (Its inverse is the same call with the transposed turn.)
    func storedRect(of rect: PixelRect, stored: (width: Int, height: Int)) -> PixelRect {
        // Edges, not pixel indices: upright X' = a·X + c·Y + tx, so X = a·(X' − tx) + b·(Y' − ty).
        let tx = (a < 0 ? stored.width : 0) + (c < 0 ? stored.height : 0)
        let ty = (b < 0 ? stored.width : 0) + (d < 0 ? stored.height : 0)
        func back(_ x: Int, _ y: Int) -> (Int, Int) { (a * (x - tx) + b * (y - ty), c * (x - tx) + d * (y - ty)) }
        let p = back(rect.x, rect.y), q = back(rect.x + rect.width, rect.y + rect.height)
        return PixelRect(x: min(p.0, q.0), y: min(p.1, q.1), width: abs(q.0 - p.0), height: abs(q.1 - p.1))
    }

    /// The upright rectangle that `rect` of the stored picture becomes.
    func uprightRect(of rect: PixelRect, stored: (width: Int, height: Int)) -> PixelRect {
        let tx = (a < 0 ? stored.width : 0) + (c < 0 ? stored.height : 0)
        let ty = (b < 0 ? stored.width : 0) + (d < 0 ? stored.height : 0)
        func forward(_ x: Int, _ y: Int) -> (Int, Int) { (a * x + c * y + tx, b * x + d * y + ty) }
        let p = forward(rect.x, rect.y), q = forward(rect.x + rect.width, rect.y + rect.height)
        return PixelRect(x: min(p.0, q.0), y: min(p.1, q.1), width: abs(q.0 - p.0), height: abs(q.1 - p.1))
    }
}
