// The shipped presets: presets/*.json in the repository and the presets compiled into the
// binary are the same presets, and each one is valid and survives `presets show`.

import Foundation
import Testing
@testable import SliceKit

@Suite struct PresetBuiltInTests {
    /// The repository's presets/ folder, found from this file's own path.
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("presets").path

    static func files() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".json") }.sorted()
    }

    @Test func everyFileIsABuiltInAndEveryBuiltInHasAFile() throws {
        #expect(try PresetBuiltInTests.files().map { String($0.dropLast(5)) } == Preset.builtIn.map(\.name).sorted())
    }

    /// The file must read back to the built-in, and be exactly what `presets show` prints, so
    /// the file a user copies and the binary's preset never drift apart.
    @Test(arguments: Preset.builtIn.map(\.name))
    func fileEqualsTheBuiltIn(name: String) throws {
        let builtIn = try #require(Preset.builtIn.first { $0.name == name })
        let path = PresetBuiltInTests.folder + "/\(name).json"
        let data = try #require(FileManager.default.contents(atPath: path), "presets/\(name).json is missing")
        #expect(try Preset(json: data, name: name, source: path) == builtIn)
        #expect(String(decoding: data, as: UTF8.self) == builtIn.json,
                "presets/\(name).json is not in canonical form; regenerate it with: slicevid presets show \(name) > presets/\(name).json")
    }

    @Test(arguments: Preset.builtIn)
    func everyBuiltInIsValidAndRoundTrips(preset: Preset) throws {
        try preset.spec.validate()
        #expect(!preset.summary.isEmpty && !preset.summary.contains("\n"))
        #expect(try Preset(json: Data(preset.json.utf8), name: preset.name, source: "shown.json") == preset)
    }

    @Test func springIsTheSeedExactly() {
        let spec = Preset.spring.spec
        #expect(spec.width == 1920 && spec.height == 1080)
        #expect(spec.frameRate == FrameRate(30))
        #expect(spec.hold == 1 && spec.duration == 1 && spec.endHold == 0 && spec.stagger == 0)
        #expect(spec.easing == .uikitSpring(damping: 0.8, velocity: 0))
        #expect(spec.division == .count(75) && spec.direction == .vertical)
        #expect(spec.travel == 1...4)
        #expect(spec.motionBlur == 1)
    }

    @Test func theRangeOfLooksIsCovered() throws {
        func spec(_ name: String) throws -> TransitionSpec { try #require(Preset.builtIn.first { $0.name == name }).spec }
        #expect(try spec("story").width == 1080 && spec("story").height == 1920)
        #expect(try spec("square").width == 1080 && spec("square").height == 1080)
        #expect(try spec("horizontal").direction == .horizontal)
        #expect(try spec("smooth").easing == .cubicBezier(.easeInOut))
        #expect(try spec("bounce").easing.description == "ease-out-bounce")
        #expect(try spec("wave").stagger > 0 && spec("wave").motionBlur > 1)
        #expect(try FramePlan(spec: spec("preview")).frameCount < FramePlan(spec: spec("spring")).frameCount)
        guard case .physicalSpring = try spec("snappy").easing else {
            Issue.record("snappy should use the physical spring")
            return
        }
    }
}
