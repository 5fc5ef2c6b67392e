// The journal a second signal reports from: finished jobs as they ended, the job under way
// interrupted (or rendered once every output of it is in place), the others pending.

import Foundation
import Glibc
import SliceKit
import Testing
@testable import SlicePipeline

@Suite struct BatchJournalTests {
    @Test func aReportMidJobSaysWhatIsOnDiskAndWhatIsPending() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        for index in 0..<2 { try scratch.still("s\(index).png", index: index) }
        let path = try scratch.json("m.json", ["defaults": tinyDefaults, "jobs": ["a", "b", "c"].map { id in
            ["id": id, "images": ["s0.png", "s1.png"], "outputs": ["\(id).mp4", "\(id).webm"]]
        }])
        let journal = BatchJournal(BatchRequest(manifest: try Manifest.load(path: path, presets: testPresets), version: "test"))
        let manifest = try Manifest.load(path: path, presets: testPresets)
        let record = OutputRecord(files: [FileStamp(bytes: 10, inode: 1, modified: nil)],
                                  fingerprint: Fingerprint(sequence: manifest.jobs[0].sequence, imageHashes: [], version: "test"),
                                  frames: 6, frameRate: FrameRate(30))

        journal.begin(manifest.jobs[0])
        journal.committed(manifest.jobs[0].outputs[0], record: record)
        journal.committed(manifest.jobs[0].outputs[1], record: record)
        journal.finish(.rendered, error: nil, seconds: 1)
        journal.begin(manifest.jobs[1])
        journal.committed(manifest.jobs[1].outputs[0], record: record)

        let report = journal.report(signal: SIGTERM)
        #expect(report.jobs.map(\.status) == [.rendered, .interrupted, .pending])
        #expect(report.jobs[1].error == "interrupted by SIGTERM; 1 of its 2 outputs were written")
        #expect(report.jobs[1].outputs.map { $0.record != nil } == [true, false])
        #expect(report.outcome == .interrupted(signal: SIGTERM))

        // Every output of the job under way in place: it is rendered, whatever comes next.
        journal.committed(manifest.jobs[1].outputs[1], record: record)
        #expect(journal.report(signal: SIGINT).jobs.map(\.status) == [.rendered, .rendered, .pending])
    }
}
