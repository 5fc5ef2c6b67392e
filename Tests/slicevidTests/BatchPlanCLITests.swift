// `batch --plan`: each job's state and every reason it would render — a new or missing output,
// one that changed size, a still whose bytes changed, a setting changed from what to what,
// another slicevid — or why it is refused or would fail; as lines and as JSON; with no lock
// taken and nothing written. A real run logs the same reasons.

import Foundation
@testable import SlicevidCLI
import Testing

@Suite("batch --plan", .serialized, .timeLimit(.minutes(10)))
struct BatchPlanCLITests {
    /// One line per job: `job 'id': state…`, keyed by id.
    private func plan(_ manifest: String, in folder: CampaignFolder, _ extra: [String] = []) throws -> (status: Int32, jobs: [String: String], text: String) {
        let run = try BatchCLI.run(["batch", manifest, "--plan"] + extra, in: folder.path)
        var jobs: [String: String] = [:]
        for line in run.stderr.split(separator: "\n") {
            guard let start = line.range(of: ": job '"), let end = line[start.upperBound...].range(of: "': ") else { continue }
            jobs[String(line[start.upperBound..<end.lowerBound])] = String(line[end.upperBound...])
        }
        return (run.status, jobs, run.stderr)
    }

    @Test("every kind of change is named, from what to what")
    func reasons() throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        try folder.still("own.png", index: 5)
        let jobs: [[String: Any]] = [
            ["id": "same", "images": ["s0.png", "s1.png"], "outputs": ["out/same.mp4"]],
            ["id": "still", "images": ["s0.png", "own.png"], "outputs": ["out/still.mp4"]],
            ["id": "setting", "images": ["s0.png", "s1.png"], "outputs": ["out/setting.mp4"]],
            ["id": "encoder", "images": ["s0.png", "s1.png"], "outputs": ["out/encoder.mp4"]],
            ["id": "missing", "images": ["s0.png", "s1.png"], "outputs": ["out/missing.mp4"]],
            ["id": "resized", "images": ["s0.png", "s1.png"], "outputs": ["out/resized.mp4"]],
            ["id": "version", "images": ["s0.png", "s1.png"], "outputs": ["out/version.mp4"]],
            ["id": "foreign", "images": ["s0.png", "s1.png"], "outputs": ["out/foreign.mp4"]],
        ]
        let manifest = try folder.campaign(jobs: jobs)
        // (Its contrast not asked for: --plan measures it, and this is about the times.)
        let first = try plan(manifest, in: folder)
        #expect(first.status == 0 && first.jobs.count == 8, "\(first.text)")
        #expect(first.jobs["same"] == "will render: new output \(folder.path)/out/same.mp4", "\(first.text)")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/.campaign.json.lock"), "--plan takes no lock")
        #expect(folder.files("out").isEmpty)
        #expect(try BatchCLI.run(["batch", manifest], in: folder.path).status == 0)
        let planned = try plan(manifest, in: folder)
        #expect(planned.jobs.values.allSatisfy { $0 == "up to date" }, "\(planned.text)")

        // One change per job.
        try folder.still("own.png", index: 6)
        var changed = jobs
        changed[2]["duration"] = 0.4
        changed[3]["crf"] = 30
        _ = try folder.campaign(jobs: changed)
        try FileManager.default.removeItem(atPath: folder.path + "/out/missing.mp4")
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: folder.path + "/out/resized.mp4"))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("more".utf8))
        try handle.close()
        let sidecar = folder.path + "/out/.version.mp4.slicevid.json"
        var record = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: sidecar))) as? [String: Any])
        var lines = try #require(record["producedBy"] as? [String])
        lines[0] = "slicevid 0.1.0"
        record["producedBy"] = lines
        // Another fingerprint, as a real one is written: a SHA-256 in hex.
        record["fingerprint"] = String(repeating: "0", count: 64)
        try JSONSerialization.data(withJSONObject: record).write(to: URL(fileURLWithPath: sidecar))
        try FileManager.default.removeItem(atPath: folder.path + "/out/foreign.mp4")
        try FileManager.default.removeItem(atPath: folder.path + "/out/.foreign.mp4.slicevid.json")
        try folder.write("out/foreign.mp4", "somebody else's file")

        let after = try plan(manifest, in: folder)
        #expect(after.status == 1, "a refused job makes the plan exit 1: \(after.text)")
        let out = folder.path + "/out"
        #expect(after.jobs["same"] == "up to date")
        #expect(after.jobs["still"] == "will render: still 1 (\(folder.path)/own.png) changed", "\(after.text)")
        #expect(after.jobs["setting"] == "will render: duration 0.3 → 0.4", "\(after.text)")
        #expect(after.jobs["encoder"] == "will render: crf 18 → 30 (\(out)/encoder.mp4)", "\(after.text)")
        #expect(after.jobs["missing"] == "will render: \(out)/missing.mp4 is missing", "\(after.text)")
        // Edited in place, it is no longer slicevid's file: refused, and left alone, unless --force.
        #expect(after.jobs["resized"] == "refused: \(out)/resized.mp4: has changed since slicevid wrote it (its sidecar records another size, inode or time); pass --force to replace it", "\(after.text)")
        #expect(after.jobs["version"] == "will render: slicevid 0.1.0 → slicevid \(SlicevidTool.version)", "\(after.text)")
        #expect(after.jobs["foreign"] == "refused: \(out)/foreign.mp4: exists and was not written by slicevid; pass --force to replace it",
                "\(after.text)")
        #expect(after.text.hasSuffix("8 jobs: 1 up to date, 5 to render, 2 refused\n"), "\(after.text)")
        let forced = try plan(manifest, in: folder, ["--force"])
        let size = try #require(try FileManager.default.attributesOfItem(atPath: out + "/resized.mp4")[.size] as? Int)
        #expect(forced.jobs["resized"] == "will render: \(out)/resized.mp4 changed size (recorded \(size - 4) bytes, now \(size))", "\(forced.text)")
        #expect(forced.jobs["foreign"] == "will render: new output \(out)/foreign.mp4" && forced.jobs["same"] == "will render: --force")

        // The same as JSON lines, each reason with its kind and values.
        let json = try BatchCLI.run(["batch", manifest, "--plan", "--log-format", "json"], in: folder.path)
        let events = try json.stderr.split(separator: "\n").map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        let byJob = Dictionary(events.compactMap { event in (event["job"] as? String).map { ($0, event) } }) { first, _ in first }
        let setting = try #require((byJob["setting"]?["reasons"] as? [[String: Any]])?.first)
        #expect(setting["kind"] as? String == "setting-changed" && setting["field"] as? String == "duration")
        #expect(setting["from"] as? String == "0.3" && setting["to"] as? String == "0.4")
        #expect((byJob["still"]?["reasons"] as? [[String: Any]])?.first?["kind"] as? String == "still-changed")
        #expect((byJob["version"]?["reasons"] as? [[String: Any]])?.first?["kind"] as? String == "version-changed")
        #expect((byJob["missing"]?["reasons"] as? [[String: Any]])?.first?["kind"] as? String == "output-missing")
        #expect(byJob["foreign"]?["state"] as? String == "refused" && byJob["same"]?["state"] as? String == "up-to-date")
        #expect(events.last?["event"] as? String == "plan-finished" && events.last?["will-render"] as? Int == 5)

        // A run says why it renders each job, and does what the plan said.
        let run = try BatchCLI.run(["batch", manifest], in: folder.path)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains("setting: rendering (duration 0.3 → 0.4)"), "\(run.stderr)")
        #expect(run.stderr.contains("still: rendering (still 1 (\(folder.path)/own.png) changed)"))
        #expect(run.stderr.contains("failed: job 'foreign': \(out)/foreign.mp4: exists and was not written by slicevid"))
        #expect(try String(contentsOfFile: out + "/foreign.mp4", encoding: .utf8) == "somebody else's file")
    }

    @Test("moving layers: their times once for the jobs that share them, and a change of effect in words")
    func layerMotion() throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        try writeFile(folder.path + "/motion.json", Data(#"{"contrast": {"minimum": 1, "large": 1}, "layers": [{"name": "name", "text": "Flat White", "box": [0, 0.4, 1, 0.3], "in": {"at": "landed", "effect": "slide-up"}}]}"#.utf8))
        let defaults: [String: Any] = ["size": "64x36", "fps": 10, "hold": 0.2, "duration": 0.3, "end-hold": 1, "slices": 8, "encoder-preset": "ultrafast",
                                       "layout": "motion.json"]
        let jobs: [[String: Any]] = [
            ["id": "a", "images": ["s0.png", "s1.png"], "outputs": ["out/a.mp4"]],
            ["id": "b", "images": ["s0.png", "s1.png"], "outputs": ["out/b.mp4"]],
            ["id": "long", "images": ["s0.png", "s1.png"], "outputs": ["out/long.mp4"], "hold": 1.2],
        ]
        let manifest = try folder.campaign(jobs: jobs, defaults: defaults)
        // (Its contrast not asked for: --plan measures it, and this is about the times.)
        let first = try plan(manifest, in: folder)
        #expect(first.status == 0 && first.text.contains("2 jobs ('a', 'b'): layer 'name': shows 0.5–1.5 s; in slide-up 0.5–1 s (at landed, ease-out)\n"), "\(first.text)")
        #expect(first.text.contains("job 'long': layer 'name': shows 1.5–2.5 s; in slide-up 1.5–2 s (at landed, ease-out)\n"), "\(first.text)")
        #expect(try BatchCLI.run(["batch", manifest], in: folder.path).status == 0)
        try writeFile(folder.path + "/motion.json", Data(#"{"contrast": {"minimum": 1, "large": 1}, "layers": [{"name": "name", "text": "Flat White", "box": [0, 0.4, 1, 0.3], "in": {"at": "landed", "effect": "fade"}}]}"#.utf8))
        let changed = try plan(manifest, in: folder)
        #expect(changed.jobs["a"] == "will render: layer 'name' in: slide-up → fade", "\(changed.text)")
    }

    @Test("a job that cannot render says why, and a matrix plans its expanded jobs")
    func failuresAndMatrices() throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        let manifest = try folder.campaign(jobs: [
            ["id": "gone", "images": ["s0.png", "absent.png"], "outputs": ["out/gone.mp4"]],
            ["id": "{still}-{n}", "matrix": ["still": ["s0", "s1"], "n": [1, 2]], "images": ["{still}.png", "s2.png"], "seed": "{n}",
             "outputs": ["out/{still}/{id}.mp4"]],
        ])
        let planned = try plan(manifest, in: folder)
        #expect(planned.status == 1, "\(planned.text)")
        #expect(planned.jobs["gone"]?.hasPrefix("will fail: ") == true && planned.jobs["gone"]?.contains("absent.png") == true)
        #expect(Set(planned.jobs.keys) == ["gone", "s0-1", "s0-2", "s1-1", "s1-2"], "\(planned.text)")
        #expect(planned.jobs["s1-2"] == "will render: new output \(folder.path)/out/s1/s1-2.mp4 (creating \(folder.path)/out/s1)", "\(planned.text)")
        let check = try BatchCLI.run(["batch", manifest, "--check"], in: folder.path)
        // Each folder once, however many jobs write to it.
        #expect(check.stderr.components(separatedBy: "would create folder \(folder.path)/out/s0\n").count == 2, "\(check.stderr)")
        #expect(check.stderr.contains("5 jobs checked, 1 with problems"), "\(check.stderr)")
    }
}
