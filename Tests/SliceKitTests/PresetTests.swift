// Presets: the built-in seed look and JSON preset files using the flag names as keys.

import Foundation
import Testing
import SliceKit

@Suite("Preset")
struct PresetTests {
    static func read(_ json: String) throws(PresetError) -> Preset {
        try Preset(json: Data(json.utf8), name: "test", source: "looks/test.json")
    }

    @Test("the built-in spring preset is the seed transition")
    func springPreset() throws {
        #expect(Preset.builtIn.first?.name == "spring")
        #expect(Set(Preset.builtIn.map(\.name)).count == Preset.builtIn.count, "names are unique")
        let spec = Preset.spring.spec
        #expect(spec == TransitionSpec())
        #expect(spec.strips == 75 && spec.hold == 1 && spec.duration == 1 && spec.easing == .seedSpring)
        try spec.validate()
    }

    @Test("a preset file sets the fields it names and keeps the rest")
    func partialPreset() throws {
        let preset = try Self.read("""
            {"description": "Portrait, slow", "size": "1080x1920", "slices": 40, "hold": 0.5,
             "travel": [0.5, 2], "easing": "ease-out", "background": "#ffffff"}
            """)
        #expect(preset.name == "test")
        #expect(preset.summary == "Portrait, slow")
        var expected = TransitionSpec()
        expected.width = 1080; expected.height = 1920
        expected.strips = 40
        expected.hold = 0.5
        expected.travel = 0.5...2
        expected.easing = .cubicBezier(.easeOut)
        expected.background = RGBAColor(red: 255, green: 255, blue: 255)
        #expect(preset.spec == expected)
    }

    @Test("the numbers 0 and 1 are numbers, not booleans")
    func zeroAndOne() throws {
        let preset = try Self.read(#"{"hold": 0, "duration": 1, "end-hold": 1.0, "slices": 1, "seed": 0, "travel": [0, 1]}"#)
        #expect(preset.spec.hold == 0)
        #expect(preset.spec.duration == 1)
        #expect(preset.spec.endHold == 1)
        #expect(preset.spec.strips == 1)
        #expect(preset.spec.seed == 0)
        #expect(preset.spec.travel == 0...1)
        #expect(throws: PresetError.self) { try Self.read(#"{"hold": true}"#) }
        #expect(throws: PresetError.self) { try Self.read(#"{"seed": false}"#) }
    }

    @Test("json writes every field and reads back to the same preset")
    func jsonRoundTrip() throws {
        let preset = Preset(name: "test", summary: "A \"quoted\" look / with slashes", spec: .allFieldsChanged)
        let json = preset.json
        for field in SpecField.allCases { #expect(json.contains("\"\(field.rawValue)\":")) }
        #expect(try Self.read(json) == preset)
        // The default spec, whose 0 and 1 values are the ones JSON readers confuse with booleans.
        #expect(try Self.read(Preset.spring.json).spec == TransitionSpec())
    }

    @Test("an unknown key is named, with the accepted keys")
    func unknownKey() throws {
        let error = try #require(throws: PresetError.self) { try Self.read(#"{"slice": 40}"#) }
        #expect(error.description.hasPrefix("looks/test.json: slice: unknown field"))
        for field in SpecField.allCases { #expect(error.description.contains(field.rawValue)) }
    }

    @Test("a value of the wrong type is named with what the field takes")
    func wrongType() throws {
        for json in [#"{"slices": [1, 2]}"#, #"{"slices": true}"#, #"{"description": 3}"#, #"{"size": {"w": 2}}"#] {
            let error = try #require(throws: PresetError.self) { try Self.read(json) }
            #expect(error.description.hasPrefix("looks/test.json: "), "\(json)")
            #expect(error.description.contains("expected"), "\(json)")
        }
    }

    @Test("bad values and out-of-range specs are reported with the file and key")
    func badValues() throws {
        let parse = try #require(throws: PresetError.self) { try Self.read(#"{"fps": "fast"}"#) }
        #expect(parse.description.hasPrefix("looks/test.json: fps: "))
        let range = try #require(throws: PresetError.self) { try Self.read(#"{"size": "1921x1080"}"#) }
        #expect(range.description.hasPrefix("looks/test.json: size: "))
        #expect(range.description.contains("even"))
    }

    @Test("text that is not a JSON object is refused", arguments: ["", "[1, 2]", "{", "\"spring\""])
    func notAnObject(json: String) throws {
        let error = try #require(throws: PresetError.self) { try Self.read(json) }
        #expect(error.description.hasPrefix("looks/test.json: "))
        #expect(error.description.contains("JSON") || error.description.hasPrefix("looks/test.json: line 1, column "))
        #expect(!error.description.contains("\n"))
    }
}
