// Preset files: every field reads and prints back, and each kind of bad file is refused with
// one line naming the file, the field and what is accepted.

import Foundation
import Testing
@testable import SliceKit

@Suite struct PresetJSONTests {
    static func load(_ json: String) throws(PresetError) -> Preset {
        try Preset(json: Data(json.utf8), name: "house", source: "house.json")
    }

    @Test func fieldsLeftOutKeepTheSeedsValues() throws {
        let preset = try PresetJSONTests.load(#"{"description": "Ours", "slices": 1, "easing": "ease-out-bounce"}"#)
        var expected = TransitionSpec()
        expected.strips = 1 // a JSON 1, not mistaken for true
        expected.easing = .penner(PennerCurve(.bounce, .out))
        #expect(preset == Preset(name: "house", summary: "Ours", spec: expected))
    }

    /// show → load gives the identical preset, for a spec where no field has its default.
    @Test func showOutputLoadsBackIdentically() throws {
        var spec = TransitionSpec()
        for (field, text) in [(SpecField.size, "1080x1920"), (.fps, "30000/1001"), (.hold, "0.25"), (.duration, "1.5"),
                              (.endHold, "0.5"), (.slices, "24px"), (.direction, "horizontal"), (.travel, "0.5,2.25"),
                              (.easing, "spring(stiffness: 170, damping: 26, mass: 1)"), (.stagger, "0.0125"),
                              (.seed, "18446744073709551615"), (.background, "#1a2b3c"), (.fit, "contain"), (.focus, "top-left"), (.motionBlur, "6"),
                              (.motion, "pull-out"), (.motionAmount, "0.35"), (.motionEasing, "ease-out")] {
            try spec.set(field, to: text)
        }
        #expect(SpecField.allCases.allSatisfy { spec.text(of: $0) != TransitionSpec().text(of: $0) })
        let preset = Preset(name: "house", summary: "Everything \"changed\" / new", spec: spec)
        let loaded = try PresetJSONTests.load(preset.json)
        #expect(loaded == preset)
        #expect(loaded.json == preset.json)
        #expect(preset.json.contains(#""travel": [0.5, 2.25]"#))
        #expect(preset.json.contains(#""seed": 18446744073709551615"#))
        #expect(preset.json.contains(#""slices": "24px""#))
    }

    @Test(arguments: [
        // Malformed JSON, and JSON that is not an object.
        (#"{"hold": 1,"#, "house.json: line 1, column 12: the file ends inside an object; expected a key or '}'"),
        ("{\"hold\": 1,\n \"easing\": x}", "house.json: line 2, column 12: unexpected 'x'; expected a value"),
        // Strict JSON: what Foundation on Linux would let through.
        ("{\n  \"hold\": 1,\n  \"duration\": 2,\n}", "house.json: line 3, column 16: trailing comma before '}'; JSON allows none"),
        ("\u{FEFF}{\"hold\": 1}", "house.json: line 1, column 1: starts with a byte-order mark; JSON is UTF-8 without one"),
        (#"{"fps": 0x1E}"#, "house.json: line 1, column 9: hexadecimal numbers are not JSON"),
        // A field given twice: Foundation would keep the last one silently.
        ("{\"hold\": 1,\n \"hold\": 2}", "house.json: line 2, column 2: \"hold\" is given twice in one object; give each key once"),
        ("[1, 2]", "house.json: expected a JSON object of preset fields, e.g. {\"easing\": \"ease-out-bounce\"}, got an array"),
        // Unknown keys, likely typos.
        (#"{"slice": 40}"#, "house.json: slice: unknown field; accepted: description, size, fps, hold, duration, end-hold, slices, direction, travel, easing, stagger, seed, background, fit, focus, motion-blur"),
        // Wrong types.
        (#"{"hold": "1"}"#, "house.json: hold: wrong type: expected a number (seconds the source is held before the transition, 0…3600), got a string"),
        (#"{"slices": true}"#, "house.json: slices: wrong type: expected a number or a string (number of strips 1…8192, or a strip width in pixels such as 24px), got true"),
        (#"{"travel": [1]}"#, "house.json: travel: wrong type: expected a pair [MIN, MAX] (MIN,MAX: strip travel in frame sizes within 0…100, e.g. 1,4), got an array"),
        (#"{"easing": null}"#, "house.json: easing: wrong type: expected a string ("),
        (#"{"description": 3}"#, "house.json: description: wrong type: expected a string, got a number"),
        // Values out of range or not understood.
        (#"{"easing": "spring(damping: 1.7)"}"#, "house.json: easing: spring damping 1.7 is out of range 0.01…1"),
        (#"{"easing": "bounce-out"}"#, "house.json: easing: unknown easing; did you mean ease-out-bounce?"),
        (#"{"size": "1921x1080"}"#, "house.json: size: 1921x1080 has an odd side; yuv420p video needs even width and height"),
        (#"{"size": "big"}"#, "house.json: size: 'big' is not valid; expected WxH with even sides up to 8192, e.g. 1920x1080"),
        (#"{"slices": "0px"}"#, "house.json: slices: 0px is out of range; a strip width 1px…8192px"),
        (#"{"stagger": -0.1}"#, "house.json: stagger: -0.1 is out of range; at least 0"),
        (#"{"motion-blur": 0}"#, "house.json: motion-blur: 0 is out of range; samples per frame 1 (off)…32"),
        (#"{"motion-blur": 2.5}"#, "house.json: motion-blur: '2.5' is not valid; expected sub-frame samples averaged per moving frame, 1 (off) to 32"),
        (#"{"description": "two\nlines"}"#, "house.json: description: must be one line"),
        (#"{"description": "red \u001b[31m"}"#, "house.json: description: must be one line of text without control characters"),
        // Numbers a double cannot hold, and the ones Swift's Double() would read but a person
        // should not write, are refused rather than trapping later.
        (#"{"fps": "1/9223372036854775807"}"#, "house.json: fps: '1/9223372036854775807' is not valid; expected frames per second 1…240"),
        (#"{"fps": "0x1E"}"#, "house.json: fps: '0x1E' is not valid; expected frames per second 1…240"),
        (#"{"hold": 1e308}"#, "house.json: hold: 1e+308 is out of range; seconds 0…3600"),
        (#"{"seed": 1e30}"#, "house.json: seed: '1e+30' is not valid; expected a whole number"),
        (#"{"easing": "cubic-bezier(0,1e20,1,0)"}"#, "house.json: easing: cubic-bezier y1 and y2 must be in [-10, 10]"),
    ])
    func badFilesAreOneLineNamingFileAndField(json: String, expected: String) {
        do {
            _ = try PresetJSONTests.load(json)
            Issue.record("accepted \(json)")
        } catch {
            #expect(error.message.hasPrefix(expected), "\(error.message)")
            #expect(!error.message.contains("\n"))
        }
    }
}
