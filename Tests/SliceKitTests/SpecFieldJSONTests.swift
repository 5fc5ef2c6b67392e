// JSON values of spec fields: numbers 0 and 1 are numbers, booleans are refused, and a preset
// printed by `slicevid presets show` reads back to the same spec.

import Foundation
import Testing
@testable import SliceKit

@Suite struct SpecFieldJSONTests {
    private func values(_ json: String) throws -> [Any] {
        try #require(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [Any])
    }

    @Test func zeroAndOneAreNumbersAndBooleansAreNot() throws {
        let parsed = try values("[0, 1, 2.5, true, false, \"ease\"]")
        #expect(parsed.map(SpecField.isJSONBoolean) == [false, false, false, true, true, false])
        let zeroOne = try Preset(json: Data(#"{"end-hold": 0, "duration": 1, "seed": 0}"#.utf8), name: "t", source: "t.json")
        #expect(zeroOne.spec.endHold == 0 && zeroOne.spec.duration == 1 && zeroOne.spec.seed == 0)
        #expect(throws: PresetError.self) { try Preset(json: Data(#"{"hold": true}"#.utf8), name: "t", source: "t.json") }
        #expect(throws: PresetError.self) { try Preset(json: Data(#"{"travel": [true, 4]}"#.utf8), name: "t", source: "t.json") }
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
