// The journal a second signal reports from: finished jobs as they ended, the jobs under way
// interrupted (or rendered once every output of theirs is in place), the others pending — in
// manifest order, however many jobs run at once and in whatever order they finish.

import Foundation
import Glibc
import ScratchFixtures
import SliceCampaign
import SliceKit
import SliceReports
import Testing
@testable import SliceBatch
@testable import SlicePipeline

@Suite struct BatchJournalTests {
    @Test func aReportMidJobSaysWhatIsOnDiskAndWhatIsPending() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        for index in 0..<2 { try scratch.still("s\(index).png", index: index) }
        let path = try scratch.json("m.json", ["defaults": tinyDefaults, "jobs": ["a", "b", "c"].map { id in
            ["id": id, "images": ["s0.png", "s1.png"], "outputs": ["\(id).mp4", "\(id).webm"]]
        }])
        let journal = BatchJournal(try BatchRequest(manifest: try Manifest.load(path: path, presets: testPresets), parallel: 1, version: "test"))
        let manifest = try Manifest.load(path: path, presets: testPresets)
        let written = WrittenOutput(path: "a.mp4", format: .mp4, frames: 6, frameRate: FrameRate(30), seconds: 0.2, bytes: 10)
        let record = OutputRecord(files: [FileStamp(bytes: 10, inode: 1, modified: nil)],
                                  fingerprint: Fingerprint(sequence: manifest.jobs[0].sequence, imageHashes: [], version: "test"),
                                  written: written)

        journal.begin(manifest.jobs[0], at: 0)
        journal.committed(manifest.jobs[0].outputPaths[0], record: record, at: 0)
        journal.committed(manifest.jobs[0].outputPaths[1], record: record, at: 0)
        journal.finish(at: 0, .rendered, error: nil)
        journal.begin(manifest.jobs[1], at: 1)
        journal.committed(manifest.jobs[1].outputPaths[0], record: record, at: 1)

        let report = journal.report(stop: .signal(SIGTERM))
        #expect(report.jobs.map(\.status) == [.rendered, .interrupted, .pending])
        #expect(report.jobs[1].error == "interrupted by SIGTERM; 1 of its 2 outputs were written")
        #expect(report.jobs[1].outputs.map { $0.record != nil } == [true, false])
        #expect(report.outcome == .interrupted(signal: SIGTERM))

        // Every output of the job under way in place: it is rendered, whatever comes next.
        journal.committed(manifest.jobs[1].outputPaths[1], record: record, at: 1)
        #expect(journal.report(stop: .signal(SIGINT)).jobs.map(\.status) == [.rendered, .rendered, .pending])
    }

    @Test func jobsRunningSideBySideAreReportedInManifestOrder() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        for index in 0..<2 { try scratch.still("s\(index).png", index: index) }
        let path = try scratch.json("m.json", ["defaults": tinyDefaults, "jobs": ["a", "b", "c", "d"].map { id in
            ["id": id, "images": ["s0.png", "s1.png"], "outputs": ["\(id).mp4"]]
        }])
        let manifest = try Manifest.load(path: path, presets: testPresets)
        let journal = BatchJournal(try BatchRequest(manifest: manifest, parallel: 3, version: "test"))
        // c starts and finishes before a; b fails; a is under way when the signal comes.
        journal.begin(manifest.jobs[2], at: 2)
        journal.begin(manifest.jobs[0], at: 0)
        journal.begin(manifest.jobs[1], at: 1)
        journal.finish(at: 2, .skipped, error: nil)
        journal.finish(at: 1, .failed, error: "broken")
        let report = journal.report(stop: .signal(SIGINT))
        #expect(report.jobs.map(\.id) == ["a", "b", "c", "d"])
        #expect(report.jobs.map(\.status) == [.interrupted, .failed, .skipped, .pending])
        #expect(report.jobs[1].error == "broken")
    }
}
