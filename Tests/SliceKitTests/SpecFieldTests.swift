// The shared table of settable fields: one parser for `--slices 40` and `"slices": 40`.

import Testing
import SliceKit

@Suite("SpecField")
struct SpecFieldTests {
    @Test("each field's name is its flag and preset key")
    func names() {
        #expect(SpecField.allCases.map(\.rawValue) == [
            "size", "fps", "hold", "duration", "end-hold", "slices", "direction", "travel", "easing", "stagger", "seed",
            "background", "fit", "focus", "motion-blur", "motion", "motion-amount", "motion-easing",
        ])
    }

    @Test("setting fields from text")
    func setting() throws {
        var spec = TransitionSpec()
        try spec.set(.size, to: "1080X1920")
        try spec.set(.fps, to: "29.97")
        try spec.set(.hold, to: "0.5")
        try spec.set(.duration, to: "1.25")
        try spec.set(.endHold, to: "2")
        try spec.set(.slices, to: "40")
        try spec.set(.direction, to: "Horizontal")
        try spec.set(.travel, to: "0.5, 2")
        try spec.set(.easing, to: "ease-in-out")
        try spec.set(.seed, to: "18446744073709551615")
        try spec.set(.background, to: "#336699")
        try spec.set(.fit, to: "contain")
        try spec.set(.focus, to: " 0.3, 0.6 ")
        try spec.set(.motion, to: "Push-In")
        try spec.set(.motionAmount, to: "0.2")
        try spec.set(.motionEasing, to: "ease-in-out")
        #expect(spec.width == 1080 && spec.height == 1920)
        #expect(spec.frameRate == FrameRate(30000, 1001))
        #expect(spec.hold == 0.5 && spec.duration == 1.25 && spec.endHold == 2)
        #expect(spec.strips == 40)
        #expect(spec.direction == .horizontal)
        #expect(spec.travel == 0.5...2)
        #expect(spec.easing == .cubicBezier(.easeInOut))
        #expect(spec.seed == .max)
        #expect(spec.background == RGBAColor(red: 0x33, green: 0x66, blue: 0x99))
        #expect(spec.fit == .contain)
        #expect(spec.focus == Focus(x: 0.3, y: 0.6))
        #expect(spec.motion == StillMotion(kind: .pushIn, amount: 0.2, easing: .cubicBezier(.easeInOut)))
        try spec.validate()
    }

    @Test("text(of:) reads back what set(_:to:) takes, for every field")
    func textRoundTrip() throws {
        let spec = TransitionSpec.allFieldsChanged
        for field in SpecField.allCases {
            #expect(spec.text(of: field) != TransitionSpec().text(of: field))
            var copy = spec
            try copy.set(field, to: spec.text(of: field))
            #expect(copy == spec, "\(field.rawValue) = \(spec.text(of: field))")
        }
        #expect(TransitionSpec().text(of: .size) == "1920x1080")
        #expect(TransitionSpec().text(of: .travel) == "1,4")
        #expect(TransitionSpec().text(of: .easing) == "spring")
    }

    @Test("bad text names the field and what it accepts", arguments: [
        (SpecField.size, "1920"), (.size, "1920x"), (.size, "widexhigh"), (.fps, "fast"), (.hold, "soon"), (.hold, "nan"),
        (.duration, "inf"), (.endHold, "x"), (.slices, "4.5"), (.direction, "diagonal"), (.travel, "4"),
        (.travel, "4,1"), (.travel, "1,2,3"), (.travel, "1,x,4"), (.seed, "-1"), (.background, "red"),
        (.background, "#12345"), (.fit, "stretch"), (.focus, "1.01,0"), (.focus, "0,-0.1"), (.focus, "0.5"), (.focus, "0x1,0"),
        (.motion, "zoom"), (.motion, "push_in"), (.motionAmount, "lots"), (.motionAmount, "10%"),
    ])
    func refusals(field: SpecField, text: String) throws {
        var spec = TransitionSpec()
        let error = try #require(throws: SpecError.self) { try spec.set(field, to: text) }
        #expect(error.field == field.rawValue)
        #expect(error.message.contains("'\(text)'"))
        #expect(error.message.contains(field.accepted))
        #expect(spec == TransitionSpec())
    }

    @Test("a background may be translucent or transparent; outputs decide later whether they can keep it")
    func translucentBackground() throws {
        var spec = TransitionSpec()
        try spec.set(.background, to: "transparent")
        #expect(spec.background.alpha == 0)
        try spec.set(.background, to: "#ff000080")
        #expect(spec.background == RGBAColor(red: 255, green: 0, blue: 0, alpha: 128))
        var copy = TransitionSpec()
        try copy.set(.background, to: spec.text(of: .background))
        #expect(copy.background == spec.background)
    }

    @Test("a bad easing reports the easing parser's own message")
    func easingMessage() throws {
        var spec = TransitionSpec()
        let error = try #require(throws: SpecError.self) { try spec.set(.easing, to: "wobbly") }
        #expect(error.field == "easing")
        #expect(error.message.contains("cubic-bezier(x1,y1,x2,y2)"))
        #expect(error.text.pieces.first == .setting(SpecField.easing.setting) && error.description.hasPrefix("easing: "))
    }

    @Test("a value longer than 200 bytes is refused before it is parsed, quoted cut short")
    func longValues() throws {
        var spec = TransitionSpec()
        let long = "spring(damping: 0.8" + String(repeating: "0", count: 190) + ")"
        #expect(throws: Never.self) { try Easing(parsing: long) }
        let error = try #require(throws: SpecError.self) { try spec.set(.easing, to: long) }
        #expect(error.message.hasPrefix("'\(long.prefix(80))…' (\(long.count) characters) is not valid; expected "))
        #expect(throws: SpecError.self) { try spec.set(.hold, to: "0." + String(repeating: "5", count: 200)) }
        try spec.set(.hold, to: "0." + String(repeating: "5", count: 100))
    }
}
