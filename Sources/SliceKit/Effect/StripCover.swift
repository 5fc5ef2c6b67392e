// What shows along one strip: the incoming still on top, the outgoing still, the background
// where neither reaches. Reduced to what is visible, so neighbouring strips that look alike
// compare equal and are drawn as one.

/// What covers a strip along the axis it moves on, reduced to what shows: two strips whose
/// covers are equal show the same rows of the same still (or the background) everywhere.
struct StripCover: Equatable {
    /// Where a piece of the strip comes from: a still moved by a shift, or the background.
    enum Origin: Equatable {
        case fill
        case outgoing(Int)
        case incoming(Int)
    }

    /// The incoming still's shift, nil when none of it is in the frame.
    let incoming: Int?
    /// The outgoing still's shift, nil when none of it shows beside the incoming still.
    let outgoing: Int?

    /// - Parameters:
    ///   - outgoing: the outgoing still's shift along the strip, in plane pixels.
    ///   - incoming: the incoming still's shift.
    ///   - extent: the strip's length in plane pixels.
    init(outgoing: Int, incoming: Int, extent: Int) {
        let shown = StripCover.visible(incoming, extent), passing = StripCover.visible(outgoing, extent)
        self.incoming = shown.isEmpty ? nil : incoming
        let hidden = passing.isEmpty || (shown.lowerBound <= passing.lowerBound && passing.upperBound <= shown.upperBound)
        self.outgoing = hidden ? nil : outgoing
    }

    /// Calls `body` for each piece of a strip `extent` pixels long, in order, with the range
    /// it covers and where it comes from; the pieces tile 0..<extent (at most three of them).
    func forEachPiece(extent n: Int, _ body: (Range<Int>, Origin) -> Void) {
        let inRange = incoming.map { StripCover.visible($0, n) } ?? n..<n
        let outRange = outgoing.map { StripCover.visible($0, n) } ?? n..<n
        var a = 0
        while a < n {
            if inRange.contains(a), let shift = incoming {
                body(a..<inRange.upperBound, .incoming(shift))
                a = inRange.upperBound
                continue
            }
            let nextIn = a < inRange.lowerBound ? inRange.lowerBound : n
            if outRange.contains(a), let shift = outgoing {
                let end = min(outRange.upperBound, nextIn)
                body(a..<end, .outgoing(shift))
                a = end
            } else {
                let end = min(nextIn, a < outRange.lowerBound ? outRange.lowerBound : n)
                body(a..<end, .fill)
                a = end
            }
        }
    }

    /// The pixels of 0..<extent a still covers once moved by `shift`.
    private static func visible(_ shift: Int, _ extent: Int) -> Range<Int> {
        min(max(shift, 0), extent)..<min(max(shift + extent, 0), extent)
    }
}
