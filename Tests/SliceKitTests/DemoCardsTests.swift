// The built-in demo cards: what `slicevid make --preset spring` shows without any input.

import Testing
import SliceKit

@Suite("DemoCards")
struct DemoCardsTests {
    static func distinctColours(_ image: RGBAImage) -> Int {
        var colours = Set<UInt32>()
        for y in 0..<image.height {
            for x in 0..<image.width {
                let c = image[x, y]
                colours.insert(UInt32(c.red) << 16 | UInt32(c.green) << 8 | UInt32(c.blue))
            }
        }
        return colours.count
    }

    @Test("cards have the requested size and are fully opaque", arguments: [(64, 36), (33, 17), (2, 2)])
    func sizeAndOpacity(width: Int, height: Int) {
        for card in [DemoCards.source(width: width, height: height), DemoCards.destination(width: width, height: height)] {
            #expect(card.width == width && card.height == height)
            #expect(card.pixels.count == width * height * 4)
            #expect(stride(from: 3, to: card.pixels.count, by: 4).allSatisfy { card.pixels[$0] == 255 })
        }
    }

    @Test("the two cards are different, detailed pictures")
    func distinctAndDetailed() {
        let source = DemoCards.source(width: 96, height: 54)
        let destination = DemoCards.destination(width: 96, height: 54)
        #expect(source != destination)
        #expect(Self.distinctColours(source) > 20)
        #expect(Self.distinctColours(destination) > 20)
        // Warm leaves, cool arrives: compare the average red and blue of each card.
        func mean(_ image: RGBAImage, _ channel: Int) -> Double {
            let values = stride(from: channel, to: image.pixels.count, by: 4).map { Double(image.pixels[$0]) }
            return values.reduce(0, +) / Double(values.count)
        }
        #expect(mean(source, 0) > mean(source, 2))
        #expect(mean(destination, 2) > mean(destination, 0))
    }

    @Test("cards are drawn the same every time")
    func deterministic() {
        #expect(DemoCards.source(width: 40, height: 30) == DemoCards.source(width: 40, height: 30))
        #expect(DemoCards.destination(width: 40, height: 30) == DemoCards.destination(width: 40, height: 30))
    }
}
