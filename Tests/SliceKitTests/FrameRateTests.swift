// Frame rates as exact fractions: what `--fps` accepts and how video people's decimals map.

import Testing
import SliceKit

@Suite("FrameRate")
struct FrameRateTests {
    @Test("parses whole, NTSC, decimal and fractional rates", arguments: [
        ("30", 30, 1), ("60", 60, 1), ("29.97", 30000, 1001), ("23.976", 24000, 1001), ("59.94", 60000, 1001),
        ("30000/1001", 30000, 1001), ("12.5", 25, 2), ("24/1", 24, 1), ("60/2", 30, 1), ("240", 240, 1),
    ])
    func parses(text: String, numerator: Int, denominator: Int) throws {
        let rate = try #require(FrameRate(parsing: text))
        #expect(rate.numerator == numerator)
        #expect(rate.denominator == denominator)
    }

    @Test("refuses zero, negative, non-numeric and absurd rates", arguments: [
        "0", "-1", "abc", "1000", "", "30/0", "0/1", "-30/1", "30/", "/30", "1/2/3", "241", "nan", "inf", "0.0001", "30fps",
    ])
    func refuses(text: String) {
        #expect(FrameRate(parsing: text) == nil)
    }

    @Test("fractions are kept in lowest terms")
    func reduced() {
        #expect(FrameRate(60, 2) == FrameRate(30))
        #expect(FrameRate(60000, 2002) == FrameRate(30000, 1001))
        #expect(FrameRate(50, 4).numerator == 25 && FrameRate(50, 4).denominator == 2)
    }

    @Test("value and description")
    func valueAndDescription() {
        #expect(FrameRate(30).value == 30)
        #expect(abs(FrameRate(30000, 1001).value - 29.97002997) < 1e-8)
        #expect(FrameRate(30).description == "30")
        #expect(FrameRate(30000, 1001).description == "30000/1001")
        // The description parses back to the same rate.
        for rate in [FrameRate(30), FrameRate(30000, 1001), FrameRate(25, 2)] {
            #expect(FrameRate(parsing: rate.description) == rate)
        }
    }
}
