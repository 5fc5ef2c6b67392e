// Frame rates as exact fractions: what `--fps` accepts and how video people's decimals map.

import Testing
import SliceKit

@Suite("FrameRate")
struct FrameRateTests {
    @Test("parses whole, NTSC, decimal and fractional rates", arguments: [
        ("30", 30, 1), ("60", 60, 1), ("29.97", 30000, 1001), ("23.976", 24000, 1001), ("59.94", 60000, 1001),
        ("30000/1001", 30000, 1001), ("12.5", 25, 2), ("24/1", 24, 1), ("60/2", 30, 1), ("240", 240, 1),
        ("1", 1, 1), ("240000/1001", 240000, 1001), ("1000000/999999", 1000000, 999999), ("1e1", 10, 1),
    ])
    func parses(text: String, numerator: Int, denominator: Int) throws {
        let rate = try #require(FrameRate(parsing: text))
        #expect(rate.numerator == numerator)
        #expect(rate.denominator == denominator)
    }

    @Test("refuses zero, negative, non-numeric and absurd rates", arguments: [
        "0", "-1", "abc", "1000", "", "30/0", "0/1", "-30/1", "30/", "/30", "1/2/3", "241", "nan", "inf", "0.0001", "30fps",
        // Once trapped on overflow (240 × denominator), or accepted as hexadecimal.
        "1/38430716820228233", "1/9223372036854775807", "9223372036854775807/1", "0x1E", "0x1p5", "1e999",
        // Below 1 fps, terms over a million, or a value that rounds into range.
        "0.5", "999/1000", "1000001/1000001", "30000000/1000000", "0.9996", "240.001", " 30",
    ])
    func refuses(text: String) {
        #expect(FrameRate(parsing: text) == nil)
    }

    @Test("the GIF range is given by the caller")
    func range() {
        #expect(FrameRate(parsing: "50", range: 1...50) == FrameRate(50))
        #expect(FrameRate(parsing: "51", range: 1...50) == nil)
        #expect(FrameRate(parsing: "101/2", range: 1...50) == nil)
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
