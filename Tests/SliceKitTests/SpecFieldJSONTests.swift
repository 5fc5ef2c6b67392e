// JSON values of spec fields: numbers 0 and 1 are numbers, booleans are refused, and a preset
// printed by `slicevid presets show` reads back to the same spec.

import Foundation
import Testing
@testable import SliceKit

@Suite struct SpecFieldJSONTests {
    private func values(_ json: String) throws -> [Any] {
        try #require(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [Any])
    }

    @Test func zeroAndOneAreNumbersAndBooleansAreRefused() throws {
        let parsed = try values("[0, 1, 2.5, true, false, \"ease\", [1, 4], [true, 4]]")
        #expect(SpecField.hold.text(fromJSON: parsed[0]) == "0")
        #expect(SpecField.duration.text(fromJSON: parsed[1]) == "1")
        #expect(SpecField.hold.text(fromJSON: parsed[2]) == "2.5")
        #expect(SpecField.hold.text(fromJSON: parsed[3]) == nil)
        #expect(SpecField.seed.text(fromJSON: parsed[4]) == nil)
        #expect(SpecField.easing.text(fromJSON: parsed[5]) == "ease")
        #expect(SpecField.travel.text(fromJSON: parsed[6]) == "1.0,4.0")
        #expect(SpecField.slices.text(fromJSON: parsed[6]) == nil)
        #expect(SpecField.travel.text(fromJSON: parsed[7]) == nil)
    }

    @Test func aShownPresetReadsBackToTheSameSpec() throws {
        // `presets show spring` prints "end-hold": 0 and "duration": 1, which Linux Foundation
        // also calls Bool; reading it back used to fail with "wrong type".
        let shown = Preset.spring.json
        #expect(shown.contains("\"end-hold\": 0"))
        let reread = try Preset(json: Data(shown.utf8), name: "house", source: "house.json")
        #expect(reread.spec == Preset.spring.spec)
    }
}
