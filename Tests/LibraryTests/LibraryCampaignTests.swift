// What the command line's probe, report merge, report html and presets do, done through the
// library alone: a program that embeds Slicevid reads media back, merges a campaign's shard
// reports, makes the morning page, and meets a bad preset with the category the command line
// gives it.

import Foundation
import Slicevid
import Testing

@Suite("the Slicevid library's probe, reports and presets")
struct LibraryCampaignTests {
    @Test("probe reads back what make wrote; a file that is not media is refused by category")
    func probe() async throws {
        let folder = try Scratch()
        defer { folder.remove() }
        var encoder = EncoderSettings()
        try encoder.set(.encoderPreset, to: "ultrafast")
        _ = try await Slicevid.make(try MakeRequest(outputs: [try .file(folder.path + "/clip.mp4"), try .file(folder.path + "/still.png")],
                                                    spec: try LibraryTests.tinySpec(), encoder: encoder))
        let clip = try Slicevid.probe(folder.path + "/clip.mp4")
        #expect(clip.path == folder.path + "/clip.mp4" && clip.tag == "avc1")
        #expect(clip.facts.container == "mp4" && clip.facts.codec == "h264" && clip.facts.width == 64 && clip.facts.height == 36)
        #expect(clip.facts.frames == 6 && clip.facts.frameRate?.description == "10" && clip.facts.audio == nil)
        let still = try Slicevid.probe(folder.path + "/still.png")
        #expect(still.facts.container == "png" && still.facts.frameRate == nil && still.facts.duration == nil)

        try "not a video".write(toFile: folder.path + "/notes.mp4", atomically: true, encoding: .utf8)
        let invalid = try #require(throws: SlicevidError.self) { try Slicevid.probe(folder.path + "/notes.mp4") }
        #expect(invalid.category == .inputInvalid && invalid.message.contains("notes.mp4"), "\(invalid.message)")
        let missing = try #require(throws: SlicevidError.self) { try Slicevid.probe(folder.path + "/gone.mp4") }
        #expect(missing.category == .inputMissing, "\(missing.message)")
        #expect(Slicevid.stillFormats.contains("PNG") && Slicevid.stillFormats.contains("JPEG"))
    }

    @Test("a campaign's shard reports merge into the report the command line writes, and its page is made")
    func reports() async throws {
        let folder = try Scratch()
        defer { folder.remove() }
        let manifest = try Slicevid.manifest(at: try folder.campaign())
        var shards: [String] = []
        for index in 0..<2 {
            let report = folder.path + "/shard-\(index).json"
            _ = try await Slicevid.batch(try BatchRequest(manifest: manifest, shard: try Shard(parsing: "\(index)/2", environment: [:]), reportFile: report))
            shards.append(report)
        }

        let merged = folder.path + "/campaign.json"
        let merge = try Slicevid.mergeReports(shards, writingTo: merged)
        #expect(merge.isComplete && !merge.isWorthRetry && merge.problems.isEmpty && merge.missingShards.isEmpty, "\(merge.problems)")
        #expect(merge.counts["rendered"] == 2 && merge.counts["failed"] == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: merged)) == merge.json)
        // The command line's merge of the same reports is the same file, byte for byte.
        let cli = try folder.slicevid(["report", "merge"] + shards + ["-o", folder.path + "/cli.json"])
        #expect(cli.status == 0, "\(cli.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.path + "/cli.json")) == merge.json)

        // Nothing made from a report takes the place of one it is made from.
        let before = try Data(contentsOf: URL(fileURLWithPath: shards[0]))
        let over = try #require(throws: SlicevidError.self) { try Slicevid.mergeReports(shards, writingTo: shards[0], force: true) }
        #expect(over.category == .usage && over.message.contains("is also one of the reports to merge"), "\(over.message)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: shards[0])) == before)

        let page = folder.path + "/index.html"
        let made = try Slicevid.reportPage(of: merged, writingTo: page)
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(Data(html.utf8) == made.html && made.text == html)
        #expect(html.hasPrefix("<!DOCTYPE html>") && html.contains(">a<") && html.contains(">b<"))
        let itself = try #require(throws: SlicevidError.self) { try Slicevid.reportPage(of: merged, writingTo: merged, force: true) }
        #expect(itself.category == .usage && itself.message.contains("is the report itself"), "\(itself.message)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: merged)) == merge.json)
    }

    @Test("a preset that cannot be had gets one category, from the library as from the command line", arguments: [
        ("folder.json", SlicevidError.Category.inputMissing, Int32(66)),
        ("missing.json", .usage, 64),
    ])
    func presetCategories(_ name: String, _ category: SlicevidError.Category, _ status: Int32) throws {
        let folder = try Scratch()
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.path + "/folder.json", withIntermediateDirectories: false)
        let preset = folder.path + "/" + name
        let named = try #require(throws: SlicevidError.self) { try Slicevid.preset(preset, in: Slicevid.presetCatalog()) }
        #expect(named.category == category && named.message.contains(name), "\(named.message)")
        let flag = try folder.slicevid(["make", "--preset", preset, "-o", folder.path + "/a.png", "--dry-run"])
        #expect(flag.status == status && flag.stderr.contains(name), "\(flag.stderr)")

        // Named by a manifest, either is the manifest's fault (64), wherever it is read.
        let manifest = folder.path + "/m.json"
        try #"{"defaults": {"preset": "\#(preset)"}, "jobs": [{"id": "a", "outputs": ["a.png"]}]}"#
            .write(toFile: manifest, atomically: true, encoding: .utf8)
        let read = try #require(throws: SlicevidError.self) { try Slicevid.manifest(at: manifest, presets: Slicevid.presetCatalog()) }
        #expect(read.category == .usage && read.message.contains(name), "\(read.message)")
        let cli = try folder.slicevid(["batch", manifest, "--check"])
        #expect(cli.status == 64 && cli.stderr.contains(name), "\(cli.stderr)")
    }
}
