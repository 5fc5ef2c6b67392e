// The seeded generator behind every random strip travel: SplitMix64, chosen because it is
// tiny, fully specified, and gives the same sequence on every machine and architecture.

/// Sebastiano Vigna's SplitMix64 (public domain reference, 2015).
///
/// `slicevid` never uses the system generator for anything that reaches a frame, so the same
/// `--seed` yields byte-identical strips everywhere.
package struct SplitMix64: RandomNumberGenerator, Sendable, Equatable {
    private var state: UInt64

    /// Creates a generator whose sequence is fully determined by `seed`.
    /// - Parameter seed: any 64-bit value; 0 is fine.
    package init(seed: UInt64) {
        state = seed
    }

    /// Returns the next 64 random bits.
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform double in [0, 1) built from the top 53 bits, so the mapping is exact and
    /// does not depend on the platform's floating-point conversion of random integers.
    package mutating func nextUnit() -> Double {
        Double(next() >> 11) * 0x1p-53
    }

    /// A uniform double in `range` (the upper bound is reached only in the limit).
    package mutating func next(in range: ClosedRange<Double>) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * nextUnit()
    }
}
