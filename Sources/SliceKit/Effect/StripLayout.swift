// Where the strips are and how far each one travels: the seed's `cutView:intoSlicesOfWidth:`
// and `repositionViewSlices:moveFirstFrameUp:`, made deterministic.

/// The axis the strips are cut along.
public enum StripDirection: String, Sendable, CaseIterable {
    /// Vertical strips moving up and down: the seed.
    case vertical
    /// Horizontal strips moving left and right.
    case horizontal
}

/// The strips of one transition: their count and each strip's random travel factor K, for
/// the outgoing (source) and the incoming (destination) picture.
///
/// Draw order is fixed and documented so a seed means the same thing in every version:
/// K for outgoing strips 0…n−1 first, then for incoming strips 0…n−1, each
/// `travel.lowerBound + (upper − lower) × u` with u from `SplitMix64(seed)`.
package struct StripLayout: Sendable, Equatable {
    package let count: Int
    package let travel: ClosedRange<Double>
    /// K for each outgoing strip; strip i moves K·extent.
    package let outgoingTravel: [Double]
    /// K for each incoming strip; strip i starts K·extent away from rest.
    package let incomingTravel: [Double]

    /// Draws the travel factors for `count` strips.
    /// - Parameters:
    ///   - count: number of strips, ≥ 1.
    ///   - seed: the `--seed` value.
    ///   - travel: the range K is drawn from; the seed uses [1, 4].
    package init(count: Int, seed: UInt64, travel: ClosedRange<Double> = 1...4) {
        precondition(count >= 1, "at least one strip")
        self.count = count
        self.travel = travel
        var generator = SplitMix64(seed: seed)
        outgoingTravel = (0..<count).map { _ in generator.next(in: travel) }
        incomingTravel = (0..<count).map { _ in generator.next(in: travel) }
    }

    /// The sign of outgoing strip `i`'s motion: the first strip leaves up (−1, toward smaller
    /// coordinates), the next down, alternating.
    @inline(__always)
    package static func outgoingSign(_ i: Int) -> Double { i & 1 == 0 ? -1 : 1 }

    /// The sign of incoming strip `i`'s starting displacement: the first strip starts below
    /// (+1), the next above, alternating.
    @inline(__always)
    package static func incomingSign(_ i: Int) -> Double { i & 1 == 0 ? 1 : -1 }

    /// Where strip `i` starts along an axis of `extent` pixels: `round(i × extent / count)`,
    /// so strips tile the axis exactly, widths differing by at most one pixel.
    @inline(__always)
    package func boundary(_ i: Int, extent: Int) -> Int {
        (i * extent * 2 + count) / (count * 2)
    }
}
