// SplitMix64 is the only source of randomness that reaches a frame, so its sequence is part of
// the meaning of `--seed`: these tests pin it to Vigna's reference.

import Testing
import SliceKit

@Suite("SplitMix64")
struct SplitMix64Tests {
    @Test("seed 0 produces the reference sequence of Vigna's splitmix64.c")
    func referenceOutputsForSeedZero() {
        var generator = SplitMix64(seed: 0)
        #expect(generator.next() == 0xE220_A839_7B1D_CDAF)
        #expect(generator.next() == 0x6E78_9E6A_A1B9_65F4)
        #expect(generator.next() == 0x06C4_5D18_8009_454F)
    }

    @Test("the same seed gives the same sequence")
    func reproducibleForASeed() {
        var a = SplitMix64(seed: 20171106)
        var b = SplitMix64(seed: 20171106)
        let first = (0..<256).map { _ in a.next() }
        let second = (0..<256).map { _ in b.next() }
        #expect(first == second)
    }

    @Test("different seeds give different sequences")
    func differentSeedsDiffer() {
        let seeds: [UInt64] = [0, 1, 2, 42, 20171106, .max]
        let sequences = seeds.map { seed -> [UInt64] in
            var generator = SplitMix64(seed: seed)
            return (0..<8).map { _ in generator.next() }
        }
        #expect(Set(sequences.map { $0.description }).count == seeds.count)
        // Neighbouring seeds must not give shifted copies of one sequence either.
        #expect(Set(sequences.flatMap { $0 }).count == seeds.count * 8)
    }

    @Test("nextUnit is the top 53 bits of next(), scaled into [0, 1)")
    func nextUnitIsTop53Bits() {
        var bits = SplitMix64(seed: 7)
        var units = SplitMix64(seed: 7)
        for _ in 0..<1000 {
            let raw = bits.next()
            #expect(units.nextUnit() == Double(raw >> 11) / 9_007_199_254_740_992)
        }
    }

    @Test("nextUnit stays in [0, 1) and covers it evenly")
    func nextUnitRange() {
        var generator = SplitMix64(seed: 12345)
        var sum = 0.0, low = 1.0, high = 0.0
        let draws = 100_000
        for _ in 0..<draws {
            let u = generator.nextUnit()
            #expect(u >= 0 && u < 1)
            sum += u
            low = min(low, u)
            high = max(high, u)
        }
        #expect(abs(sum / Double(draws) - 0.5) < 0.005)
        #expect(low < 0.001)
        #expect(high > 0.999)
    }

    @Test("next(in:) maps into the requested range")
    func nextInRange() {
        var generator = SplitMix64(seed: 99)
        var reference = SplitMix64(seed: 99)
        for _ in 0..<10_000 {
            let value = generator.next(in: 1...4)
            #expect(value >= 1 && value <= 4)
            #expect(abs(value - (1 + 3 * reference.nextUnit())) < 1e-15)
        }
    }

    @Test("works as a RandomNumberGenerator for the standard library")
    func standardLibraryUse() {
        var a = SplitMix64(seed: 5)
        var b = SplitMix64(seed: 5)
        let first = (0..<50).map { _ in Int.random(in: 0..<1000, using: &a) }
        let second = (0..<50).map { _ in Int.random(in: 0..<1000, using: &b) }
        #expect(first == second)
        #expect(Set(first).count > 1)
    }
}
