// A layout font rewritten while a batch runs: the job whose survey fingerprinted the old bytes
// fails with one line naming the font, instead of drawing with bytes its record does not
// describe (or faulting under FreeType's mapping of the file); the jobs before it are unharmed,
// and the next run renders it with the new font.

import Foundation
import ScratchFixtures
import SliceCampaign
import SliceKit
import SliceMedia
import SliceReports
import Testing
@testable import SliceBatch
@testable import SlicePipeline

@Suite struct LayoutFontChangeTests {
    private func run(_ path: String, events: @escaping @Sendable (BatchEvent) -> Void = { _ in }) throws -> BatchReport {
        let manifest = try Manifest.load(path: path, presets: testPresets)
        return BatchRun.run(try BatchRequest(manifest: manifest, force: false, renderThreads: 2, parallel: 1, version: "test"),
                            cancellation: Cancellation(), events: events)
    }

    @Test("a font rewritten in place (cp) once the next job has been surveyed fails that job with one line naming the font")
    func fontRewrittenBetweenJobs() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.still("s0.png", index: 0)
        try scratch.still("s1.png", index: 1)
        let brand = scratch.path + "/Brand.ttf"
        try FileManager.default.copyItem(atPath: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", toPath: brand)
        try scratch.json("layout.json", ["fonts": ["Brand.ttf"],
                                         "layers": [["on": "over", "name": "title", "text": "{title}", "size": 150, "box": [0.1, 0.1, 0.8, 0.5]]]])
        var defaults = tinyDefaults
        defaults["size"] = "192x108"
        defaults["layout"] = "layout.json"
        let path = try scratch.json("campaign.json", [
            "defaults": defaults,
            "jobs": [
                ["id": "first", "images": ["s0.png", "s1.png"], "outputs": ["out/first.mp4"], "vars": ["title": "Flat White"]],
                ["id": "second", "images": ["s0.png", "s1.png"], "outputs": ["out/second.mp4"], "vars": ["title": "Oat Latte"]],
            ],
        ])
        let serif = try Data(contentsOf: URL(fileURLWithPath: "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"))
        let report = try run(path) { event in
            // The second job is surveyed (its font hashed) and about to render: a designer
            // copies a new font over the old one, as `cp` does, into the same file.
            guard case .jobRendering(let id, _, _, _) = event, id == "second", let handle = FileHandle(forUpdatingAtPath: brand) else { return }
            try? handle.truncate(atOffset: 0)
            try? handle.write(contentsOf: serif)
            try? handle.close()
        }
        let statuses = Dictionary(uniqueKeysWithValues: report.jobs.map { ($0.id, $0.status) })
        #expect(statuses == ["first": .rendered, "second": .failed])
        let error = try #require(report.jobs.first { $0.id == "second" }?.error)
        #expect(error.hasSuffix("font '\(brand)': changed while the run used it: its bytes are not the ones the run checked; run again once it is final"))
        #expect(!error.contains("\n"))
        #expect(!FileManager.default.fileExists(atPath: scratch.path + "/out/second.mp4"))
        #expect(try MediaReader.info(path: scratch.path + "/out/first.mp4").frameCount == 6)

        // The font left alone, the next run renders the job with it.
        let again = try run(path)
        #expect(Dictionary(uniqueKeysWithValues: again.jobs.map { ($0.id, $0.status) }) == ["first": .rendered, "second": .rendered])
    }
}
