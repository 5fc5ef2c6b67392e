// Strip geometry and random travel: strips tile the frame exactly, alternate as the seed does,
// and a seed always means the same travels.

import Testing
import SliceKit

@Suite("StripLayout")
struct StripLayoutTests {
    @Test("count and one travel factor per strip for each picture")
    func counts() {
        let layout = StripLayout(count: 75, seed: 1)
        #expect(layout.count == 75)
        #expect(layout.outgoingTravel.count == 75)
        #expect(layout.incomingTravel.count == 75)
        #expect(layout.travel == 1...4)
    }

    @Test("boundaries tile the extent exactly with widths differing by at most one", arguments: [
        (1, 10), (3, 10), (7, 10), (10, 10), (75, 1920), (75, 960), (75, 1080), (64, 1000), (75, 8), (4, 16), (13, 7),
    ])
    func tiling(count: Int, extent: Int) {
        let layout = StripLayout(count: count, seed: 0)
        let bounds = (0...count).map { layout.boundary($0, extent: extent) }
        #expect(bounds.first == 0)
        #expect(bounds.last == extent)
        let widths = zip(bounds.dropFirst(), bounds).map { $0 - $1 }
        #expect(widths.allSatisfy { $0 >= 0 })
        #expect(widths.reduce(0, +) == extent)
        #expect(widths.max()! - widths.min()! <= 1)
        // Each boundary is round(i × extent / count).
        for i in 0...count {
            #expect(bounds[i] == Int((Double(i * extent) / Double(count)).rounded()))
        }
    }

    @Test("the seed's 375-point phone strips: 75 strips of 5")
    func seedStrips() {
        let layout = StripLayout(count: 75, seed: 0)
        for i in 0..<75 {
            #expect(layout.boundary(i + 1, extent: 375) - layout.boundary(i, extent: 375) == 5)
        }
    }

    @Test("outgoing strips alternate starting upward, incoming start below")
    func alternation() {
        #expect(StripLayout.outgoingSign(0) == -1)
        #expect(StripLayout.incomingSign(0) == 1)
        for i in 0..<20 {
            #expect(StripLayout.outgoingSign(i) == (i % 2 == 0 ? -1 : 1))
            #expect(StripLayout.incomingSign(i) == (i % 2 == 0 ? 1 : -1))
            #expect(StripLayout.outgoingSign(i + 1) == -StripLayout.outgoingSign(i))
        }
    }

    @Test("travel factors lie in the travel range and fill it", arguments: [1.0...4.0, 0.5...0.75, 2.0...2.0])
    func travelRange(travel: ClosedRange<Double>) {
        let layout = StripLayout(count: 500, seed: 3, travel: travel)
        for k in layout.outgoingTravel + layout.incomingTravel {
            #expect(travel.contains(k))
        }
        let all = layout.outgoingTravel + layout.incomingTravel
        let span = travel.upperBound - travel.lowerBound
        #expect(all.min()! - travel.lowerBound <= span * 0.02)
        #expect(travel.upperBound - all.max()! <= span * 0.02)
    }

    @Test("travels are drawn outgoing first, then incoming, from SplitMix64(seed)")
    func documentedDrawOrder() {
        let layout = StripLayout(count: 5, seed: 20171106, travel: 1...4)
        var generator = SplitMix64(seed: 20171106)
        let draws = (0..<10).map { _ in 1 + 3 * generator.nextUnit() }
        for i in 0..<5 {
            #expect(abs(layout.outgoingTravel[i] - draws[i]) < 1e-12)
            #expect(abs(layout.incomingTravel[i] - draws[5 + i]) < 1e-12)
        }
    }

    @Test("the same seed gives the same travels, another seed different ones")
    func reproducibility() {
        let a = StripLayout(count: 75, seed: 42)
        let b = StripLayout(count: 75, seed: 42)
        let c = StripLayout(count: 75, seed: 43)
        #expect(a == b)
        #expect(a.outgoingTravel != c.outgoingTravel)
        #expect(a.incomingTravel != c.incomingTravel)
        #expect(a.outgoingTravel != a.incomingTravel)
    }
}
