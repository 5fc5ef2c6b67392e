// The batch runner in process: failures stay with their job, re-runs skip what is up to date
// and re-render exactly what changed, and a stop leaves the rest pending.

import Foundation
import ScratchFixtures
import SliceCampaign
import SliceKit
import SliceMedia
import SliceReports
import Synchronization
import Testing
@testable import SliceBatch
@testable import SlicePipeline

@Suite struct BatchRunTests {
    /// Three stills, a corrupt one, and a manifest of three jobs (one broken, one sequence).
    private func campaign(_ scratch: Scratch) throws -> String {
        for index in 0..<3 { try scratch.still("s\(index).png", index: index) }
        try scratch.text("corrupt.png", "\u{89}PNG\r\n\u{1A}\nnot really")
        try FileManager.default.createDirectory(atPath: scratch.path + "/out", withIntermediateDirectories: true)
        return try scratch.json("campaign.json", [
            "defaults": tinyDefaults,
            "jobs": [
                ["id": "pair", "images": ["s0.png", "s1.png"], "outputs": ["out/pair.mp4"]],
                ["id": "broken", "images": ["s0.png", "corrupt.png"], "outputs": ["out/broken.mp4"]],
                ["id": "reel", "images": ["s0.png", "s1.png", "s2.png"], "outputs": ["out/reel.mp4", "out/reel-%02d.png"]],
            ],
        ])
    }

    private func run(_ path: String, force: Bool = false, cancellation: Cancellation = Cancellation(),
                     events: @escaping @Sendable (BatchEvent) -> Void = { _ in }) throws -> BatchReport {
        let manifest = try Manifest.load(path: path, presets: testPresets)
        return BatchRun.run(try BatchRequest(manifest: manifest, force: force, renderThreads: 2, parallel: 1, version: "test"),
                            cancellation: cancellation, events: events)
    }

    private func statuses(_ report: BatchReport) -> [String: JobStatus] {
        Dictionary(uniqueKeysWithValues: report.jobs.map { ($0.id, $0.status) })
    }

    @Test func aBrokenJobFailsAloneAndTheOthersRender() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let report = try run(campaign(scratch))
        #expect(statuses(report) == ["pair": .rendered, "broken": .failed, "reel": .rendered])
        #expect(report.outcome == .someFailed)
        let broken = try #require(report.jobs.first { $0.id == "broken" })
        #expect(broken.error?.contains("corrupt.png") == true)
        #expect(!FileManager.default.fileExists(atPath: scratch.path + "/out/broken.mp4"))

        // The good outputs decode, with the frames and length the report gives.
        let pair = try #require(report.jobs.first { $0.id == "pair" }?.outputs.first?.record)
        #expect(try MediaReader.info(path: scratch.path + "/out/pair.mp4").frameCount == 6)
        #expect(pair.frames == 6 && pair.seconds == 0.6 && pair.frameRate == "10")
        #expect(pair.bytes == (try FileManager.default.attributesOfItem(atPath: scratch.path + "/out/pair.mp4")[.size] as? Int))
        #expect(try MediaReader.info(path: scratch.path + "/out/reel.mp4").frameCount == 11)
        #expect(scratch.files(in: "out").filter { $0.hasPrefix("reel-") }.count == 11)
        #expect(scratch.files(in: "out").filter { $0.hasSuffix(".partial") || $0.contains(".slicevid-") }.isEmpty)
    }

    @Test func aStillReplacedWhileItsJobRendersMakesTheNextRunRenderAgain() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        for index in 0..<2 { try scratch.still("s\(index).png", index: index) }
        let original = try #require(FileManager.default.contents(atPath: scratch.path + "/s1.png"))
        let path = try scratch.json("campaign.json", [
            "defaults": tinyDefaults,
            "jobs": [["id": "pair", "images": ["s0.png", "s1.png"], "outputs": ["out/pair.mp4"]]],
        ])
        // Hashed as A, replaced by B before its frames are made, A again before the commit: the
        // next run hashes A, as the sidecar would record, yet the video may show B.
        let changes = Mutex<[[String]]>([])
        let first = try run(path) { event in
            switch event {
            case .jobRendering: _ = try? scratch.still("s1.png", index: 5)
            case .jobFinishing: try? original.write(to: URL(fileURLWithPath: scratch.path + "/s1.png"))
            case .jobInputsChanged(_, _, _, let inputs): changes.withLock { $0.append(inputs) }
            default: break
            }
        }
        #expect(statuses(first) == ["pair": .rendered])
        #expect(changes.withLock { $0 } == [["still 1 (\(scratch.path)/s1.png)"]])

        let reasons = Mutex<[RenderReason]>([])
        let second = try run(path) { event in
            if case .jobRendering(_, _, _, let why) = event { reasons.withLock { $0 += why } }
        }
        #expect(statuses(second) == ["pair": .rendered])
        #expect(reasons.withLock { $0.map(\.description) } == ["still 1 (\(scratch.path)/s1.png) changed"])
        // Left alone, the still is the one hashed: the third run skips and tells of no change.
        let third = try run(path) { event in
            if case .jobInputsChanged = event { changes.withLock { $0.append(["again"]) } }
        }
        #expect(statuses(third) == ["pair": .skipped])
        #expect(changes.withLock { $0.count } == 1)
    }

    @Test func aReRunSkipsEverythingAndAChangeReRendersOnlyItsJob() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = try campaign(scratch)
        _ = try run(path)
        let pairFile = scratch.path + "/out/pair.mp4"
        let before = try FileManager.default.attributesOfItem(atPath: pairFile)[.systemFileNumber] as? Int

        let again = try run(path)
        #expect(statuses(again) == ["pair": .skipped, "broken": .failed, "reel": .skipped])
        #expect(again.jobs.first { $0.id == "reel" }?.outputs.map { $0.record?.frames } == [11, 11])

        // A touched still re-renders the only job that uses it.
        try scratch.still("s2.png", index: 7)
        let touched = try run(path)
        #expect(statuses(touched) == ["pair": .skipped, "broken": .failed, "reel": .rendered])
        #expect(try FileManager.default.attributesOfItem(atPath: pairFile)[.systemFileNumber] as? Int == before)

        // Without its sidecar, or changed since, an output is no longer slicevid's to replace:
        // the job fails and the file stays as it is.
        unlink(OutputRecord.sidecarPath(for: pairFile))
        let unrecorded = try run(path).jobs.first { $0.id == "pair" }
        #expect(unrecorded?.status == .failed)
        #expect(unrecorded?.error?.contains("exists and was not written by slicevid; pass the force option to replace it") == true)
        #expect(try FileManager.default.attributesOfItem(atPath: pairFile)[.systemFileNumber] as? Int == before)
        try Data("truncated".utf8).write(to: URL(fileURLWithPath: scratch.path + "/out/reel-03.png"))
        let changed = try run(path).jobs.first { $0.id == "reel" }
        #expect(changed?.status == .failed)
        #expect(changed?.error?.contains("reel-03.png has changed since slicevid wrote it") == true)
        #expect(FileManager.default.contents(atPath: scratch.path + "/out/reel-03.png") == Data("truncated".utf8))

        // --force renders every job again.
        #expect(statuses(try run(path, force: true)) == ["pair": .rendered, "broken": .failed, "reel": .rendered])
    }

    @Test func aChangedSettingReRendersOnlyItsJob() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = try campaign(scratch)
        _ = try run(path)
        var object = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        var jobs = try #require(object["jobs"] as? [[String: Any]])
        jobs[2]["transitions"] = [["easing": "linear"], [:]]
        object["jobs"] = jobs
        let report = try run(scratch.json("campaign.json", object))
        #expect(statuses(report) == ["pair": .skipped, "broken": .failed, "reel": .rendered])
    }

    @Test func aStopLeavesTheRestPendingAndKeepsFinishedJobs() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let cancellation = Cancellation()
        let report = try run(campaign(scratch), cancellation: cancellation) { event in
            if case .jobFinished(let result, _, _) = event, result.id == "pair" { cancellation.cancel(signal: SIGTERM) }
        }
        #expect(statuses(report) == ["pair": .rendered, "broken": .pending, "reel": .pending])
        #expect(report.outcome == .interrupted(signal: SIGTERM))
        #expect(scratch.files(in: "out") == [".pair.mp4.slicevid.json", "pair.mp4"])
    }

    @Test func theReportSaysWhatHappenedToEachJob() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let report = try run(campaign(scratch))
        try report.write(to: scratch.path + "/report.json")
        let json = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: scratch.path + "/report.json"))) as? [String: Any])
        #expect(json["status"] as? String == "some-failed")
        #expect((json["counts"] as? [String: Int])?["rendered"] == 2)
        let jobs = try #require(json["jobs"] as? [[String: Any]])
        #expect(jobs.map { $0["id"] as? String } == ["pair", "broken", "reel"])
        #expect(jobs.map { $0["status"] as? String } == ["rendered", "failed", "rendered"])
        #expect((jobs[1]["error"] as? String)?.contains("corrupt.png") == true)
        #expect((jobs[0]["fingerprint"] as? String)?.count == 64)
        let output = try #require((jobs[0]["outputs"] as? [[String: Any]])?.first)
        #expect(output["path"] as? String == URL(fileURLWithPath: scratch.path + "/out/pair.mp4").standardizedFileURL.path)
        #expect((output["bytes"] as? Int ?? 0) > 0)
        #expect(output["seconds"] as? Double == 0.6)
        #expect(scratch.files().filter { $0.contains("report") } == ["report.json"])
    }
}
