// Validation of the resolved spec: each bad field is named in the flag-style form a user typed.

import Testing
import SliceKit

@Suite("TransitionSpec")
struct TransitionSpecTests {
    @Test("the defaults are the seed transition and are valid")
    func defaults() throws {
        let spec = TransitionSpec()
        try spec.validate()
        #expect(spec.width == 1920 && spec.height == 1080)
        #expect(spec.frameRate == FrameRate(30))
        #expect(spec.hold == 1 && spec.duration == 1 && spec.endHold == 0)
        #expect(spec.strips == 75)
        #expect(spec.direction == .vertical)
        #expect(spec.travel == 1...4)
        #expect(spec.easing == .seedSpring)
        #expect(spec.background == .black)
        #expect(spec.fit == .cover)
        #expect(spec.totalSeconds == 2)
    }

    /// Applies `change` to the default spec and returns the validation error.
    private func error(_ change: (inout TransitionSpec) -> Void) throws -> SpecError {
        var spec = TransitionSpec()
        change(&spec)
        return try #require(throws: SpecError.self) { try spec.validate() }
    }

    @Test("odd sizes are refused with the reason")
    func oddSizes() throws {
        let wide = try error { $0.width = 1919 }
        #expect(wide.field == "size")
        #expect(wide.message.contains("1919x1080"))
        #expect(wide.message.contains("even"))
        #expect(try error { $0.height = 1081 }.field == "size")
    }

    @Test("sides beyond 8192 or below 2 are refused", arguments: [(8194, 1080), (1920, 9000), (0, 1080), (1920, -2)])
    func sizeRange(width: Int, height: Int) throws {
        let failure = try error { $0.width = width; $0.height = height }
        #expect(failure.field == "size")
        #expect(failure.message.contains("8192"))
        #expect(failure.text.pieces.first == .setting(SpecField.size.setting) && failure.description.hasPrefix("size: "))
    }

    @Test("the largest and smallest accepted sizes pass")
    func sizeLimits() throws {
        var spec = TransitionSpec()
        spec.width = 8192; spec.height = 8192
        try spec.validate()
        spec.width = 2; spec.height = 2; spec.strips = 2
        try spec.validate()
    }

    @Test("negative or non-finite hold is refused", arguments: [-0.5, -1, .nan, .infinity])
    func hold(value: Double) throws {
        let failure = try error { $0.hold = value }
        #expect(failure.field == "hold")
        #expect(failure.text.pieces.first == .setting(SpecField.hold.setting) && failure.description.hasPrefix("hold: "))
    }

    @Test("a duration under a millisecond, negative or non-finite is refused", arguments: [0, -1, 0.0009, 1e-300, 3600.5, .nan, .infinity])
    func duration(value: Double) throws {
        let failure = try error { $0.duration = value }
        #expect(failure.field == "duration")
        #expect(failure.message.hasSuffix("is out of range; seconds 0.001…3600"))
    }

    @Test("a negative end hold is refused")
    func endHold() throws {
        #expect(try error { $0.endHold = -1 }.field == "end-hold")
    }

    @Test("a zero hold is fine")
    func zeroHold() throws {
        var spec = TransitionSpec()
        spec.hold = 0
        try spec.validate()
    }

    @Test("strip counts outside 1…8192 are refused", arguments: [0, -3, 8193])
    func stripCountRange(strips: Int) throws {
        let failure = try error { $0.strips = strips }
        #expect(failure.field == "slices")
        #expect(failure.message.contains("8192"))
        #expect(failure.text.pieces.first == .setting(SpecField.slices.setting) && failure.description.hasPrefix("slices: "))
    }

    @Test("more strips than pixels across is accepted, so a 1080p preset renders at preview sizes")
    func stripsBeyondWidth() throws {
        var spec = TransitionSpec()
        spec.width = 64; spec.height = 36; spec.strips = 75
        try spec.validate()
        spec.direction = .horizontal
        try spec.validate()
        spec.strips = 8192
        try spec.validate()
    }

    @Test("travel outside 0…100 frame sizes is refused", arguments: [-1.0...4.0, 1.0...200.0])
    func travel(range: ClosedRange<Double>) throws {
        #expect(try error { $0.travel = range }.field == "travel")
    }

    @Test("total seconds add hold, duration and end hold")
    func totalSeconds() {
        var spec = TransitionSpec()
        spec.hold = 0.5; spec.duration = 1.25; spec.endHold = 2
        #expect(spec.totalSeconds == 3.75)
    }
}
