// Manifests: how jobs are resolved (paths, presets, layering, holds, transitions) and the one
// line each bad input gets, before anything renders.

import Foundation
import ScratchFixtures
import SliceKit
import SliceMedia
import Testing
@testable import SliceCampaign
@testable import SlicePipeline

@Suite struct ManifestTests {
    private func load(_ scratch: Scratch, _ object: Any) throws -> Manifest {
        try Manifest.load(path: scratch.json("campaign.json", object), presets: testPresets)
    }

    /// The one-line message and category a bad manifest gets.
    private func failure(_ scratch: Scratch, _ object: Any) throws -> (category: SlicevidError.Category, message: String)? {
        let path = try scratch.json("campaign.json", object)
        do {
            _ = try Manifest.load(path: path, presets: testPresets)
            return nil
        } catch {
            return (error.category, error.message)
        }
    }

    private func job(_ id: String, _ extra: [String: Any] = [:]) -> [String: Any] {
        ["id": id, "images": ["a.png", "b.png"], "outputs": ["out/\(id).mp4"]].merging(extra) { $1 }
    }

    @Test func pathsResolveAgainstTheManifestsFolder() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let manifest = try load(scratch, ["jobs": [job("a", ["images": ["a.png", "sub/../b.png", "/abs/c.png"]])]])
        #expect(manifest.folder == URL(fileURLWithPath: scratch.path).standardizedFileURL.path)
        let folder = manifest.folder
        #expect(manifest.jobs[0].images == [folder + "/a.png", folder + "/b.png", "/abs/c.png"])
        #expect(manifest.jobs[0].outputPaths == [folder + "/out/a.mp4"])
    }

    @Test func settingsLayerPresetThenDefaultsThenJob() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.json("house.json", ["slices": 12, "easing": "linear", "fps": 25])
        let manifest = try load(scratch, [
            "defaults": ["preset": "spring", "size": "64x36", "slices": 20, "crf": 30],
            "jobs": [
                job("plain"),
                job("own-preset", ["preset": "house.json"]),
                job("overrides", ["preset": "house.json", "slices": 5, "hold": 0, "encoder-preset": "ultrafast"]),
            ],
        ])
        let specs = manifest.jobs.map(\.spec)
        // The defaults' fields apply over any preset; the job's own fields win.
        #expect(specs.map(\.strips) == [20, 20, 5])
        #expect(specs.map(\.width) == [64, 64, 64])
        #expect(specs[0].easing == .seedSpring && specs[1].easing == .linear)
        #expect(specs[1].frameRate == FrameRate(25))
        #expect(specs[2].hold == 0)
        #expect(manifest.jobs.map(\.encoder.crf) == [30, 30, 30])
        // Unset means each codec's own default (medium), decided when the outputs are planned.
        #expect(manifest.jobs.map(\.encoder.preset) == [nil, nil, "ultrafast"])
    }

    @Test func holdsAndTransitionsRefineOneImageOrPair() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let manifest = try load(scratch, [
            "defaults": tinyDefaults,
            "jobs": [[
                "id": "reel",
                "images": ["a.png", ["path": "b.png", "hold": 0.5], ["path": "c.png", "hold": 1]],
                "transitions": [["easing": "ease-in-out"], ["duration": 0.6, "seed": 7]],
                "outputs": "reel.mp4",
            ]],
        ])
        let sequence = manifest.jobs[0].sequence
        #expect(sequence.imageCount == 3)
        #expect(sequence.segments.map(\.hold) == [0.2, 0.5])
        #expect(sequence.segments.map(\.endHold) == [0, 1])
        #expect(sequence.segments[0].easing == .cubicBezier(.easeInOut))
        #expect(sequence.segments[1].easing == .seedSpring)
        #expect(sequence.segments.map(\.duration) == [0.3, 0.6])
        #expect(sequence.segments[0].seed == TransitionSpec.defaultSeed)
        #expect(sequence.segments[1].seed == 7)
        #expect(manifest.jobs[0].outputs.count == 1)
    }

    @Test func anImageMovesItsOwnWayAndTakesTheJobsMotionForWhatItLeavesOut() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let manifest = try load(scratch, [
            "defaults": tinyDefaults,
            "jobs": [[
                "id": "reel", "motion": "push-in", "motion-amount": 0.2,
                "images": ["a.png", ["path": "b.png", "motion": "pan-left", "motion-amount": 0.3], ["path": "c.png", "motion-easing": "ease-in"]],
                "outputs": "reel.mp4",
            ]],
        ])
        let sequence = manifest.jobs[0].sequence
        #expect(sequence.motion(ofImage: 0) == StillMotion(kind: .pushIn, amount: 0.2))
        #expect(sequence.motion(ofImage: 1) == StillMotion(kind: .panLeft, amount: 0.3))
        #expect(sequence.motion(ofImage: 2) == StillMotion(kind: .pushIn, amount: 0.2, easing: .cubicBezier(.easeIn)))
    }

    @Test func badManifestsFailWithOneLineNamingManifestJobAndField() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let cases: [(Any, String)] = [
            (["jobs": [job("a", ["slicez": 3])]], "campaign.json: job 'a': slicez: unknown field; accepted: id,"),
            (["jobs": [job("a", ["images": ["a.png"]])]], "campaign.json: job 'a': images: has 1 image; a job needs at least two"),
            (["jobs": [["id": "a", "outputs": "a.mp4"]]], "campaign.json: job 'a': images: missing"),
            (["jobs": [job("a"), job("a", ["outputs": "other.mp4"])]], "campaign.json: job 'a': id: used by jobs[0] and jobs[1]"),
            (["jobs": [job("a"), job("b", ["outputs": "out/./a.mp4"])]], "campaign.json: job 'b': outputs: "),
            (["jobs": [["images": ["a.png", "b.png"], "outputs": "x.mp4"]]], "campaign.json: jobs[0]: id: missing"),
            (["jobs": [job("a", ["slices": -3])]], "campaign.json: job 'a': slices: "),
            (["jobs": [job("a", ["easing": true])]], "campaign.json: job 'a': easing: wrong type"),
            (["jobs": [job("a", ["preset": "nope"])]], "campaign.json: job 'a': preset: nope: unknown preset"),
            (["jobs": [job("a", ["outputs": "a.avi"])]], "campaign.json: job 'a': outputs[0]: a.avi: unknown output type"),
            (["jobs": [job("a", ["outputs": ["a.mp4", "-"]])]], "campaign.json: job 'a': outputs[1]: '-' is standard output or no output, which only a single render writes; a batch job writes files"),
            (["jobs": [job("a", ["outputs": "null"])]], "campaign.json: job 'a': outputs[0]: 'null' is standard output or no output, which only a single render writes; a batch job writes files"),
            (["jobs": [job("a", ["crf": 30.5])]], "campaign.json: job 'a': crf: '30.5' is not valid; expected a whole number"),
            (["jobs": [job("a", ["crf": 20, "bitrate": "2M"])]], "campaign.json: job 'a': bitrate: crf and bitrate"),
            (["jobs": [job("a", ["encoder-preset": true])]], "campaign.json: job 'a': encoder-preset: wrong type"),
            // A speed no encoder takes is refused whatever the outputs, though a poster has no speed
            // (make fuzz seed 97 case 857: it passed --check).
            (["defaults": ["encoder-preset": "-1"], "jobs": [job("a", ["outputs": "a.png"])]], "campaign.json: defaults: encoder-preset: '-1' is not valid; expected ultrafast"),
            (["jobs": [job("a", ["encoder-preset": "bogus"])]], "campaign.json: job 'a': encoder-preset: 'bogus' is not valid; expected ultrafast"),
            (["jobs": [job("a", ["codec": "mpeg2"])]], "campaign.json: job 'a': codec: 'mpeg2' is not valid"),
            (["jobs": [job("a", ["transitions": [["size": "2x2"]]])]], "campaign.json: job 'a': transitions[0].size: unknown field"),
            (["jobs": [job("a", ["transitions": [[:], [:]]])]], "campaign.json: job 'a': transitions: expected an array of 1 objects"),
            (["jobs": [job("a", ["images": ["a.png", ["path": "b.png", "hold": -1]]])]], "campaign.json: job 'a': images[1].hold: '-1' is out of range; seconds 0…3600"),
            (["jobs": [job("a", ["images": ["a.png", ["path": "b.png", "hold": "1"]]])]], "campaign.json: job 'a': images[1].hold: expected a number of seconds"),
            (["jobs": [job("a", ["motion": "zoom"])]], "campaign.json: job 'a': motion: 'zoom' is not valid; expected none, push-in, pull-out, pan-left"),
            (["jobs": [job("a", ["motion-amount": 2])]], "campaign.json: job 'a': motion-amount: 2 is out of range; a fraction 0.01…1"),
            (["jobs": [job("a", ["images": ["a.png", ["path": "b.png", "motion": "zoom"]]])]], "campaign.json: job 'a': images[1]: motion: 'zoom' is not valid; expected none, push-in"),
            (["jobs": [job("a", ["images": ["a.png", ["path": "b.png", "motion-amount": 0]]])]], "campaign.json: job 'a': images[1]: motion-amount: 0 is out of range; a fraction 0.01…1"),
            (["jobs": [job("a", ["images": ["a.png", ["path": "b.png", "motion-easing": 3]]])]], "campaign.json: job 'a': images[1]: motion-easing: wrong type"),
            (["jobs": [job("a", ["transitions": [["motion": "push-in"]]])]], "campaign.json: job 'a': transitions[0].motion: unknown field"),
            // Every number is range-checked before any arithmetic: these once trapped or were read as hexadecimal.
            (["jobs": [job("a", ["fps": "1/9223372036854775807"])]], "campaign.json: job 'a': fps: '1/9223372036854775807' is not valid; expected frames per second 1…240"),
            (["jobs": [job("a", ["fps": "0x1E"])]], "campaign.json: job 'a': fps: '0x1E' is not valid"),
            (["jobs": [job("a", ["crf": 1e30])]], "campaign.json: job 'a': crf: '1e+30' is not valid; expected a whole number"),
            (["jobs": [job("a", ["transitions": [["easing": "cubic-bezier(0,1e20,1,0)"]]])]], "campaign.json: job 'a': transitions[0]: easing: cubic-bezier y1 and y2 must be in [-10, 10]"),
            (["jobs": [job("a", ["transitions": [["duration": 0]]])]], "campaign.json: job 'a': transitions[0]: duration: 0 is out of range; seconds 0.001…3600"),
            (["jobs": [job("a", ["images": ["a.png", "b.png", "c.png", "d.png"], "hold": 3600])]], "campaign.json: job 'a': images: 4 images make a video of 10803 s; a video lasts at most 10800 s"),
            // A value from the file is quoted cut short, and an id names its job the same way.
            (["jobs": [job("a", ["easing": String(repeating: "x", count: 100_000)])]], "campaign.json: job 'a': easing: '\(String(repeating: "x", count: 80))…' (100000 characters) is not valid; expected linear,"),
            (["jobs": [job(String(repeating: "j", count: 255), ["slicez": 1])]], "campaign.json: job '\(String(repeating: "j", count: 80))…' (255 characters): slicez: unknown field"),
            (["jobs": [job(String(repeating: "j", count: 5000), ["slicez": 1])]], "campaign.json: jobs[0]: id: '\(String(repeating: "j", count: 80))…' (5000 characters) is 5000 bytes; an id is at most 255"),
            (["defaults": ["hold": -1], "jobs": [job("a")]], "campaign.json: defaults: hold: "),
            (["jobs": [job("a")], "extra": 1], "campaign.json: extra: unknown field"),
            (["jobs": []], "campaign.json: jobs: expected a non-empty array"),
            ([job("a")], "campaign.json: expected a JSON object"),
        ]
        for (object, expected) in cases {
            let result = try failure(scratch, object)
            #expect(result?.category == .usage, "\(expected)")
            #expect(result?.message.hasPrefix(scratch.path + "/" + expected) == true, "got: \(result?.message ?? "no error")")
            #expect(result?.message.contains("\n") == false)
            #expect((result?.message.count ?? 0) < 1500, "\(expected)")
        }
    }

    @Test func malformedJSONAndMissingManifestsAreNamed() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let broken = try scratch.text("broken.json", "{\"jobs\": [")
        #expect(throws: SlicevidError.self) { try Manifest.load(path: broken, presets: testPresets) }
        do {
            _ = try Manifest.load(path: broken, presets: testPresets)
        } catch {
            #expect(error.category == .usage)
            #expect(error.message == broken + ": line 1, column 11: the file ends where a value should be")
        }
        do {
            _ = try Manifest.load(path: scratch.path + "/none.json", presets: testPresets)
        } catch {
            #expect(error.category == .inputMissing)
        }
        // Where the parser stopped, as an editor counts it.
        let unfinished = try scratch.text("unfinished.json", "{\n  \"jobs\": [\n    {\"id\": oops}\n  ]\n}")
        do {
            _ = try Manifest.load(path: unfinished, presets: testPresets)
            Issue.record("a manifest with a bare word was accepted")
        } catch {
            #expect(error.message.contains("line 3, column"), "\(error.message)")
        }
    }

    @Test func aKeyGivenTwiceIsRefusedWhereItIs() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = try scratch.text("twice.json", """
            {"defaults": {"fps": 10},
             "jobs": [{"id": "a", "images": ["x.png", "y.png"], "outputs": "a.mp4", "crf": 20, "crf": 30}]}
            """)
        do {
            _ = try Manifest.load(path: path, presets: testPresets)
            Issue.record("a key given twice was accepted")
        } catch {
            #expect(error.category == .usage)
            #expect(error.message == path + ": line 2, column 84: \"crf\" is given twice in one object; give each key once", "\(error.message)")
        }
    }
}
