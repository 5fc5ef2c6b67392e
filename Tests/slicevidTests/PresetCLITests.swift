// The preset commands as a user runs them: the real slicevid binary, its exit codes and its
// output. Every shipped preset renders a tiny clip; bad presets fail before any frame.

import Foundation
import SliceKit
import SliceMedia
import Testing

@Suite struct PresetCLITests {
    @Test func presetsListsEveryBuiltInWithItsDescription() throws {
        let run = try PresetCLI.run(["presets"])
        #expect(run.status == 0)
        for preset in Preset.builtIn {
            #expect(run.stdout.split(separator: "\n").contains { $0.hasPrefix(preset.name + " ") && $0.hasSuffix(preset.summary + "  (built in)") })
        }
    }

    /// show → save → show the saved file: identical text, hence identical settings.
    @Test(arguments: Preset.builtIn.map(\.name))
    func showRoundTrips(name: String) throws {
        let folder = try PresetCLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let shown = try PresetCLI.run(["presets", "show", name])
        #expect(shown.status == 0)
        try shown.stdout.write(toFile: folder + "/copy.json", atomically: true, encoding: .utf8)
        let again = try PresetCLI.run(["presets", "show", folder + "/copy.json"])
        #expect(again.status == 0)
        #expect(again.stdout == shown.stdout)
        #expect(try Preset(json: Data(again.stdout.utf8), name: name, source: "copy.json").spec
                == Preset.builtIn.first { $0.name == name }?.spec)
    }

    /// Each preset, with size and rate overridden by flags, renders every frame its plan says
    /// and ends on the destination picture exactly.
    @Test(arguments: Preset.builtIn.map(\.name))
    func everyPresetRendersATinyClip(name: String) throws {
        let folder = try PresetCLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try PresetCLI.run(["make", "--preset", name, "--size", "32x18", "--fps", "5", "-j", "2", "-q",
                                     "-o", folder + "/%03d.png"])
        #expect(run.status == 0, "\(run.stderr)")
        var spec = try #require(Preset.builtIn.first { $0.name == name }).spec
        spec.width = 32
        spec.height = 18
        spec.frameRate = FrameRate(5)
        let frames = FramePlan(spec: spec).frameCount
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(files == (0..<frames).map { String(format: "%03d.png", $0) })
        let last = try MediaReader.frames(path: folder + String(format: "/%03d.png", frames - 1), layout: .gbrp)
        let destination = DemoCards.destination(width: 32, height: 18).planar(.gbrp)
        #expect(last.first?.hasSamePixels(as: destination) == true)
    }

    @Test func presetFoldersFromTheEnvironmentComeFirst() throws {
        let folder = try PresetCLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try #"{"description": "Our house look", "slices": 12, "easing": "ease-out-back"}"#
            .write(toFile: folder + "/house.json", atomically: true, encoding: .utf8)
        try #"{"description": "Our spring", "duration": 0.5}"#.write(toFile: folder + "/spring.json", atomically: true, encoding: .utf8)
        let environment = ["SLICEVID_PRESETS": "/nonexistent:" + folder]
        let list = try PresetCLI.run(["presets"], environment: environment)
        #expect(list.stdout.contains("Our house look  (\(folder)/house.json)"))
        #expect(list.stdout.contains("Our spring  (\(folder)/spring.json)"))
        #expect(!list.stdout.contains(Preset.spring.summary))
        let shown = try PresetCLI.run(["presets", "show", "house"], environment: environment)
        #expect(shown.stdout.contains(#""easing": "ease-out-back""#) && shown.stdout.contains(#""slices": 12"#))
        #expect(try PresetCLI.run(["presets", "show", "house"]).status == 64)
    }

    /// Bad presets stop the run before anything is written: one line on stderr naming the
    /// file and field, exit code 64.
    @Test(arguments: [
        ("{\"hold\": 1,\n\"easing\": x}", "house.json: line 2, column 11: unexpected 'x'; expected a value"),
        ("{\n  \"hold\": 1,\n  \"duration\": 2,\n}", "house.json: line 3, column 16: trailing comma before '}'; JSON allows none"),
        (#"{"slice": 40}"#, "house.json: slice: unknown field; accepted: description, size, fps"),
        (#"{"hold": "long"}"#, "house.json: hold: wrong type: expected a number"),
        (#"{"easing": "spring(damping: 1.7)"}"#, "house.json: easing: spring damping 1.7 is out of range 0.01…1"),
        (#"{"motion-blur": 64}"#, "house.json: motion-blur: 64 is out of range; samples per frame 1 (off)…32"),
    ])
    func badPresetFilesFailBeforeTheFirstFrame(json: String, message: String) throws {
        let folder = try PresetCLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try json.write(toFile: folder + "/house.json", atomically: true, encoding: .utf8)
        let run = try PresetCLI.run(["make", "--preset", "house.json", "-o", "out.mp4"], directory: folder)
        #expect(run.status == 64)
        #expect(run.stderr.hasPrefix("slicevid: error: " + message), "\(run.stderr)")
        #expect(run.stderr.filter { $0 == "\n" }.count == 1)
        #expect(!FileManager.default.fileExists(atPath: folder + "/out.mp4"))
        // Listing reports the broken file but still lists the rest.
        let list = try PresetCLI.run(["presets"], environment: ["SLICEVID_PRESETS": folder])
        #expect(list.status == 64)
        #expect(list.stdout.contains(Preset.spring.summary))
        #expect(list.stderr.contains(folder + "/house.json: "))
    }

    @Test func aTransparentBackgroundFromAPresetIsNamedAsThePresetsWhenAnOutputCannotKeepIt() throws {
        // The user gave no --background: the refusal must point at the preset that did.
        let folder = try PresetCLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try #"{"background": "transparent"}"#.write(toFile: folder + "/house.json", atomically: true, encoding: .utf8)
        for (flags, source) in [([String](), "the transparent background of preset 'house.json'"),
                                (["--background", "transparent"], "the transparent --background")] {
            let run = try PresetCLI.run(["make", "--preset", "house.json", "-o", "out.mp4"] + flags, directory: folder)
            #expect(run.status == 64)
            #expect(run.stderr.filter { $0 == "\n" }.count == 1 && run.stderr.contains("-o out.mp4: H.264 in MP4 cannot keep " + source), "\(run.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder + "/out.mp4"))
    }

    @Test func anUnknownPresetNameListsTheAvailableOnes() throws {
        let run = try PresetCLI.run(["make", "--preset", "sprnig", "-o", "/tmp/never-written.mp4"])
        #expect(run.status == 64)
        #expect(run.stderr == "slicevid: error: unknown preset 'sprnig'; available: \(Preset.builtIn.map(\.name).sorted().joined(separator: ", ")) (or a path to a .json file)\n")
    }

    @Test func helpDocumentsTheLookupOrderAndTheNewFlags() throws {
        let presets = try PresetCLI.run(["presets", "--help"]).stdout.unwrapped
        #expect(presets.contains("$SLICEVID_PRESETS") && presets.contains("<binary dir>/../share/slicevid/presets"))
        let make = try PresetCLI.run(["make", "--help"]).stdout.unwrapped
        for flag in ["--stagger SECONDS", "--motion-blur N", "--slices N|Wpx", "ease-out-bounce", "spring(stiffness: 100, damping: 10, mass: 1)"] {
            #expect(make.contains(flag), "\(flag)")
        }
    }
}

/// Runs the slicevid binary built next to this test bundle.
private enum PresetCLI {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// `swift build` puts the slicevid executable beside the test bundle's own executable.
    static var binary: String { get throws { try CLI.binary() } }

    /// Runs slicevid with `arguments`, an environment without `SLICEVID_PRESETS` plus
    /// `environment`, in `directory`.
    static func run(_ arguments: [String], environment: [String: String] = [:], directory: String? = nil) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try binary)
        process.arguments = arguments
        var base = ProcessInfo.processInfo.environment
        base["SLICEVID_PRESETS"] = nil
        process.environment = base.merging(environment) { $1 }
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read before waiting, so a full pipe cannot block the child.
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                      stderr: String(decoding: stderr, as: UTF8.self))
    }

    static func temporaryFolder() throws -> String {
        let path = NSTemporaryDirectory() + "slicevid-preset-cli-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
