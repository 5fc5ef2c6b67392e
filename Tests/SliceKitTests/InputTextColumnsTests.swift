// A redrawn progress line is cut to the terminal's width, however long or wide its text.

import SliceKit
import Testing

@Suite struct InputTextColumnsTests {
    @Test(arguments: 20...140)
    func aFittedLineNeverTakesMoreColumnsThanTheTerminalHas(width: Int) {
        let lines = [
            "batch [##########----------] 3/6 · coffee-1920x1080-summer-sale-final-v2 [#####---------------] 25% · ETA 12 s",
            String(repeating: "x", count: width), String(repeating: "x", count: width + 1),
            "写真-カフェ-ラテ-1080x1920 [####------] 40% 24/61 frames · ETA 1.2 s",
            "job\u{1B}[2Jid\nwith controls " + String(repeating: "é", count: 30),
        ]
        for line in lines {
            let fitted = InputText.fitted(line, columns: width)
            #expect(InputText.columns(of: fitted) <= width, "\(fitted)")
            #expect(!fitted.unicodeScalars.contains { InputText.needsEscape($0) })
            // Short lines are kept whole; long ones keep as much as fits and say so.
            if InputText.columns(of: InputText.escaped(line)) <= width {
                #expect(fitted == InputText.escaped(line))
            } else {
                #expect(fitted.hasSuffix("…") && InputText.escaped(line).hasPrefix(fitted.dropLast()))
                #expect(InputText.columns(of: fitted) >= width - 3)
            }
        }
    }

    @Test func wideCharactersCountTwice() {
        #expect(InputText.columns(of: "abc") == 3)
        #expect(InputText.columns(of: "写真") == 4)
        #expect(InputText.fitted("写真写真写真", columns: 7) == "写真…")
    }
}
