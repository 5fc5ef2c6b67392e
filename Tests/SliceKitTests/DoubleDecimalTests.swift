// Numbers typed by people are plain decimals: Swift's Double("…") also reads hexadecimal,
// "inf" and "nan", and 1e999 as infinity, which once let `"0x1E"` through as 30 fps.

import Testing
import SliceKit

@Suite("Double(decimal:)")
struct DoubleDecimalTests {
    @Test("plain decimals are read", arguments: [
        ("0", 0.0), ("12", 12.0), ("-3", -3.0), ("+2", 2.0), ("0.25", 0.25), (".5", 0.5), ("3.", 3.0),
        ("1e3", 1000.0), ("1E-3", 0.001), ("2.5e+2", 250.0), ("29.97", 29.97),
    ])
    func reads(text: String, value: Double) {
        #expect(Double(decimal: text) == value)
    }

    @Test("anything else is refused", arguments: [
        "", " 1", "1 ", "0x1E", "0x1p3", "inf", "-infinity", "nan", "NaN", "1e999", "-1e999", "1e", "e3", ".", "-",
        "1.2.3", "1,5", "١٢", "1_000", "30fps",
    ])
    func refuses(text: String) {
        #expect(Double(decimal: text) == nil)
    }
}
