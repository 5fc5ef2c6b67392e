// `--background` colours: the hex forms users type and the plane values they become.

import Testing
import SliceKit

@Suite("RGBAColor")
struct ColorTests {
    @Test("parses #RRGGBB, RRGGBB, #RRGGBBAA and transparent")
    func parsing() {
        #expect(RGBAColor(hex: "#FF8000") == RGBAColor(red: 255, green: 128, blue: 0))
        #expect(RGBAColor(hex: "ff8000") == RGBAColor(red: 255, green: 128, blue: 0, alpha: 255))
        #expect(RGBAColor(hex: "#11223344") == RGBAColor(red: 0x11, green: 0x22, blue: 0x33, alpha: 0x44))
        #expect(RGBAColor(hex: "#000000") == .black)
        #expect(RGBAColor(hex: "transparent") == RGBAColor(red: 0, green: 0, blue: 0, alpha: 0))
        #expect(RGBAColor(hex: "Transparent")?.alpha == 0)
    }

    @Test("refuses anything else", arguments: ["", "#", "#12345", "#1234567", "#123456789", "zzzzzz", "#12 456", "black", "+12345", "0x1234"])
    func refusesGarbage(text: String) {
        #expect(RGBAColor(hex: text) == nil)
    }

    @Test("prints #rrggbb, adding alpha only when translucent")
    func description() {
        #expect(RGBAColor(red: 255, green: 128, blue: 0).description == "#ff8000")
        #expect(RGBAColor(red: 1, green: 2, blue: 3, alpha: 4).description == "#01020304")
        #expect(RGBAColor.black.description == "#000000")
        for text in ["#0a0b0c", "#ffffff", "#12345678"] {
            #expect(RGBAColor(hex: text)?.description == text)
        }
    }

    @Test("BT.709 limited-range YCbCr of reference colours", arguments: [
        (RGBAColor.black, 16, 128, 128),
        (RGBAColor(red: 255, green: 255, blue: 255), 235, 128, 128),
        (RGBAColor(red: 255, green: 0, blue: 0), 63, 102, 240),
        (RGBAColor(red: 0, green: 255, blue: 0), 173, 42, 26),
        (RGBAColor(red: 0, green: 0, blue: 255), 32, 240, 118),
        (RGBAColor(red: 128, green: 128, blue: 128), 126, 128, 128),
    ])
    func bt709(color: RGBAColor, y: Int, cb: Int, cr: Int) {
        let ycc = color.bt709LimitedYCbCr
        #expect(Int(ycc.y) == y)
        #expect(Int(ycc.cb) == cb)
        #expect(Int(ycc.cr) == cr)
    }
}
