// Batch jobs with the newer formats: a manifest's encoding settings reach each output, a changed
// codec setting re-renders only its job, and --check finds outputs their codec cannot write.

import Foundation
import ScratchFixtures
import SliceCampaign
import SliceKit
import SliceMedia
import SliceReports
import Testing
@testable import SliceBatch
@testable import SlicePipeline

@Suite struct BatchFormatsTests {
    private func run(_ path: String) throws -> BatchReport {
        BatchRun.run(try BatchRequest(manifest: try Manifest.load(path: path, presets: testPresets), force: false, renderThreads: 2, parallel: 1, version: "test"),
                     cancellation: Cancellation())
    }

    @Test func encodingSettingsReachTheOutputsAndAChangeReRendersItsJobOnly() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        for index in 0..<2 { try scratch.still("s\(index).png", index: index) }
        var manifest: [String: Any] = [
            "defaults": tinyDefaults.merging(["crf": 40]) { $1 },
            "jobs": [
                ["id": "web", "images": ["s0.png", "s1.png"], "outputs": ["web.webm", "web.gif", "poster.png"], "gif-width": 32],
                ["id": "edit", "images": ["s0.png", "s1.png"], "outputs": ["edit.mov", "master.mkv"]],
            ],
        ]
        let path = try scratch.json("campaign.json", manifest)
        let first = try run(path)
        #expect(first.jobs.map(\.status) == [.rendered, .rendered], "\(first.jobs.map(\.error))")
        #expect(try MediaReader.info(path: scratch.path + "/web.gif").width == 32)
        #expect(try MediaReader.info(path: scratch.path + "/edit.mov").codecName == "prores")
        let webm = try #require(first.jobs[0].outputs.first?.record)
        #expect(webm.fingerprint.isEmpty == false)

        // The crf is the WebM's: changing it re-renders the web job; the edit job has no crf.
        manifest["defaults"] = tinyDefaults.merging(["crf": 36]) { $1 }
        let second = try run(scratch.json("campaign.json", manifest))
        #expect(second.jobs.map(\.status) == [.rendered, .skipped])
    }

    @Test func checkFindsOutputsTheirCodecCannotWrite() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        for index in 0..<2 { try scratch.still("s\(index).png", index: index) }
        let path = try scratch.json("campaign.json", [
            "defaults": tinyDefaults,
            "jobs": [
                ["id": "overlay", "images": ["s0.png", "s1.png"], "outputs": ["a.webm", "a.mp4"], "background": "transparent"],
                ["id": "fine", "images": ["s0.png", "s1.png"], "outputs": ["b.mp4"]],
            ],
        ])
        // What no output's codec can write is refused when the manifest is read (64), before
        // anything renders, naming the job and the output.
        do {
            _ = try Manifest.load(path: path, presets: testPresets)
            Issue.record("a transparent background in an MP4 was accepted")
        } catch {
            #expect(error.category == .usage)
            #expect(error.message.contains("job 'overlay': ") && error.message.contains("a.mp4") && error.message.contains("transparent"), "\(error.message)")
        }
        #expect(scratch.files() == ["campaign.json", "s0.png", "s1.png"])
    }

    @Test func aRefusedTransparentBackgroundNamesTheLayerThatSetIt() throws {
        // The job's own field, the defaults' field or the preset in use: the line says which,
        // so the user knows what to change.
        let scratch = try Scratch()
        defer { scratch.remove() }
        for index in 0..<2 { try scratch.still("s\(index).png", index: index) }
        try Data(#"{"background": "transparent"}"#.utf8).write(to: URL(fileURLWithPath: scratch.path + "/house.json"))
        /// The refusal of each job alone, as the manifest is read ("" when it loads).
        func problems(_ defaults: [String: Any], _ jobs: [[String: Any]]) throws -> [String] {
            try jobs.map { job in
                let path = try scratch.json("campaign.json", ["defaults": tinyDefaults.merging(defaults) { $1 }, "jobs": [job]])
                do throws(SlicevidError) { _ = try Manifest.load(path: path, presets: testPresets); return "" } catch { return error.message }
            }
        }
        func job(_ id: String, _ fields: [String: Any] = [:]) -> [String: Any] {
            ["id": id, "images": ["s0.png", "s1.png"], "outputs": ["\(id).mp4"]].merging(fields) { $1 }
        }
        let fromDefaults = try problems(["background": "transparent"], [job("d"), job("j", ["background": "#00000080"])])
        #expect(fromDefaults[0].contains("cannot keep the transparent background of the manifest's defaults; "), "\(fromDefaults)")
        #expect(fromDefaults[1].contains("cannot keep the transparent background; "), "\(fromDefaults)")
        let fromPreset = try problems(["preset": "house.json"], [job("p"), job("o", ["preset": "spring"])])
        #expect(fromPreset[0].contains("cannot keep the transparent background of preset 'house.json'; "), "\(fromPreset)")
        #expect(fromPreset[0].hasSuffix("or give an opaque background"), "\(fromPreset)")
        // A job's own preset replaces the defaults' one, and spring's background is opaque.
        #expect(fromPreset[1].isEmpty, "\(fromPreset)")
    }

    @Test func anOutputsOwnOptionsFollowItsPathAsWithMakeO() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        for index in 0..<2 { try scratch.still("s\(index).png", index: index) }
        var job: [String: Any] = ["id": "pair", "images": ["s0.png", "s1.png"],
                                  "outputs": ["a.mp4", "b.mp4:codec=hevc:crf=30", "small.gif:gif-width=24"]]
        var manifest: [String: Any] = ["defaults": tinyDefaults, "jobs": [job]]
        let path = try scratch.json("campaign.json", manifest)
        let loaded = try Manifest.load(path: path, presets: testPresets)
        // Paths are what the batch records, reports and checks; the options travel to the render.
        #expect(loaded.jobs[0].outputPaths == ["a.mp4", "b.mp4", "small.gif"].map { scratch.path + "/" + $0 })
        let first = try run(path)
        #expect(first.jobs.map(\.status) == [.rendered], "\(first.jobs.map(\.error))")
        #expect(try MediaReader.info(path: scratch.path + "/a.mp4").codecName == "h264")
        #expect(try MediaReader.info(path: scratch.path + "/b.mp4").codecName == "hevc")
        #expect(try MediaReader.info(path: scratch.path + "/small.gif").width == 24)
        #expect(!scratch.files().contains { $0.contains(":") })

        // Unchanged, the job is skipped; an output's own option is part of its fingerprint.
        #expect(try run(path).jobs.map(\.status) == [.skipped])
        job["outputs"] = ["a.mp4", "b.mp4:codec=hevc:crf=34", "small.gif:gif-width=24"]
        manifest["jobs"] = [job]
        #expect(try run(scratch.json("campaign.json", manifest)).jobs.map(\.status) == [.rendered])
    }

    @Test func aMalformedOutputOptionNamesTheEntry() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        for index in 0..<2 { try scratch.still("s\(index).png", index: index) }
        let path = try scratch.json("campaign.json", [
            "defaults": tinyDefaults,
            "jobs": [["id": "pair", "images": ["s0.png", "s1.png"], "outputs": ["a.mp4", "b.webm:crf=fast"]]],
        ])
        do {
            _ = try Manifest.load(path: path, presets: testPresets)
            Issue.record("a malformed crf was accepted")
        } catch {
            #expect(error.message.contains("outputs[1]") && error.message.contains("crf"), "\(error.message)")
        }
    }
}
