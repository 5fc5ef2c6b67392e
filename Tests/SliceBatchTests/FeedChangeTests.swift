// A feed rewritten while a run reads it, as a nightly export beside a nightly `--prune` does:
// the hook in `FeedInput` rewrites the file after the first chunk of a read. A read that saw a
// change is read again, a run from such a feed renders but deletes nothing, a feed that keeps
// changing is refused (66), and no job list mixes two versions.

import Foundation
import Glibc
import ScratchFixtures
import SliceCampaign
import SliceKit
import SliceMedia
import SliceReports
import Synchronization
import Testing
@testable import SliceBatch
@testable import SlicePipeline

@Suite struct FeedChangeTests {
    /// Six products, each row padded past 20 KB with an ignored column, so four rows already
    /// take more than the first chunk (64 KiB) of a read.
    static func rows(_ count: Int) -> String {
        "sku,notes\n" + (1...count).map { "P\($0),\(String(repeating: "n", count: 20_000))\n" }.joined()
    }

    static func campaign(_ scratch: Scratch, templates: [[String: Any]]? = nil) throws -> String {
        try scratch.still("a.png", index: 0)
        try scratch.still("b.png", index: 1)
        try scratch.text("products.csv", rows(6))
        let job: [String: Any] = ["id": "{sku}", "rows": ["file": "products.csv", "key": "sku", "ignore": ["notes"]],
                                  "images": ["a.png", "b.png"], "outputs": ["out/{id}.jpg"]]
        return try scratch.json("campaign.json", ["defaults": tinyDefaults, "jobs": templates ?? [job]])
    }

    /// Sets the feed's modification time `seconds` back from now, as an export's is by the next night.
    static func age(_ path: String, by seconds: Int) {
        var times = [timespec(tv_sec: time(nil) - seconds, tv_nsec: 0), timespec(tv_sec: time(nil) - seconds, tv_nsec: 0)]
        _ = utimensat(AT_FDCWD, path, &times, 0)
    }

    static func run(_ manifest: Manifest, prune: Bool) throws -> BatchReport {
        let request = try BatchRequest(manifest: manifest, force: false, renderThreads: 2, parallel: 1, prune: prune,
                                         pruneLimit: .percent(100), version: "test")  // what changed decides here, not the brake
        return try BatchRun.session(request, cancellation: Cancellation())
    }

    @Test("an export cut short during a --prune's read: read again, rendered from, and nothing is deleted")
    func cutShortWhileAPruneReadsIt() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = try Self.campaign(scratch)
        let feed = scratch.path + "/products.csv"
        #expect(try Self.run(Manifest.load(path: path, presets: testPresets), prune: false).outcome == .success)
        Self.age(feed, by: 3600)
        // The export starts again after the run's first chunk: it truncates the file and has
        // written four rows, whole, when the read reaches the end. Then it stalls.
        let reads = Mutex(0)
        let export: @Sendable (String, Int) -> Void = { file, chunk in
            guard chunk == 1, file == feed, reads.withLock({ $0 += 1; return $0 }) == 1 else { return }
            try? Data(Self.rows(4).utf8).write(to: URL(fileURLWithPath: feed))
        }
        let manifest = try FeedInput.$afterChunk.withValue(export) { try Manifest.load(path: path, presets: testPresets) }
        #expect(reads.withLock { $0 } == 2, "read once more after the change")
        #expect(manifest.jobs.map(\.id) == ["P1", "P2", "P3", "P4"] && manifest.unsettledFeeds == ["products.csv"])
        let report = try Self.run(manifest, prune: true)
        #expect(report.orphans.map { URL(fileURLWithPath: $0.path).lastPathComponent }.sorted() == ["P5.jpg", "P6.jpg"])
        #expect(report.orphans.allSatisfy { !$0.pruned && ($0.kept ?? "").contains("products.csv changed while it was read, so this run deletes nothing") },
                "\(report.orphans)")
        #expect(scratch.files(in: "out").filter { $0.hasSuffix(".jpg") } == ["P1.jpg", "P2.jpg", "P3.jpg", "P4.jpg", "P5.jpg", "P6.jpg"])

        // The next night reads it unchanged: the products that left are pruned then.
        let settled = try Manifest.load(path: path, presets: testPresets)
        #expect(settled.unsettledFeeds.isEmpty)
        let pruned = try Self.run(settled, prune: true)
        #expect(pruned.orphans.filter(\.pruned).count == 2 && scratch.files(in: "out").filter { $0.hasSuffix(".jpg") }.count == 4)
    }

    @Test("a feed that changes during every read is refused (66) in one line, and the run never starts")
    func changingDuringEveryRead() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = try Self.campaign(scratch)
        let feed = scratch.path + "/products.csv"
        Self.age(feed, by: 3600)
        let reads = Mutex(0)
        let export: @Sendable (String, Int) -> Void = { file, chunk in
            guard chunk == 1, file == feed else { return }
            let read = reads.withLock { $0 += 1; return $0 }
            try? Data(Self.rows(6).utf8).write(to: URL(fileURLWithPath: feed))
            // Each rewrite at a time of its own, whatever the clock's tick.
            Self.age(feed, by: 100 * read)
        }
        do {
            _ = try FeedInput.$afterChunk.withValue(export) { try Manifest.load(path: path, presets: testPresets) }
            Issue.record("a feed that changed during both reads was taken")
        } catch let error as SlicevidError {
            #expect(error.category == .inputMissing, "\(error.message)")
            #expect(error.message == "\(path): jobs[0]: rows: products.csv: changed while it was read, twice (its size, times or file differ between the start and the end of each read); nothing was rendered or pruned; run again once it is written",
                    "\(error.message)")
        }
        #expect(reads.withLock { $0 } == 2)
    }

    @Test("a feed swapped between two templates' reads, or during one, never gives a job list of two versions")
    func swappedBetweenTemplates() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        // Two templates read the same file (their ignore lists differ, so each reads it).
        let template: (String, [String]) -> [String: Any] = { locale, ignore in
            ["id": "{sku}-\(locale)", "rows": ["file": "products.csv", "key": "sku", "ignore": ignore],
             "images": ["a.png", "b.png"], "outputs": ["out/{id}.jpg"]]
        }
        let path = try Self.campaign(scratch, templates: [template("nl", ["notes"]), template("de", [])])
        let feed = scratch.path + "/products.csv"
        let swapped = "sku,notes\nP1,x\nP7,y\n"
        @Sendable func swap() {
            try? Data(swapped.utf8).write(to: URL(fileURLWithPath: scratch.path + "/next.csv"))
            rename(scratch.path + "/next.csv", feed)
        }
        // During the first template's read: it reads again, and both read the new version.
        let reads = Mutex(0)
        let during: @Sendable (String, Int) -> Void = { _, chunk in
            if chunk == 1, reads.withLock({ $0 += 1; return $0 }) == 1 { swap() }
        }
        let manifest = try FeedInput.$afterChunk.withValue(during) { try Manifest.load(path: path, presets: testPresets) }
        #expect(manifest.jobs.map(\.id) == ["P1-nl", "P7-nl", "P1-de", "P7-de"])

        // Between the two templates' reads: the second finds another version than the first
        // took, and the manifest is refused rather than mixed.
        try scratch.text("products.csv", Self.rows(6))
        let between = Mutex(0)
        let after: @Sendable (String, Int) -> Void = { _, chunk in
            if chunk == 1, between.withLock({ $0 += 1; return $0 }) == 2 { swap() }
        }
        do {
            let mixed = try FeedInput.$afterChunk.withValue(after) { try Manifest.load(path: path, presets: testPresets) }
            Issue.record("a job list of two versions: \(mixed.jobs.map(\.id))")
        } catch let error as SlicevidError {
            #expect(error.category == .inputMissing && error.message.contains("jobs[1]: rows: products.csv: changed while the manifest was read"),
                    "\(error.message)")
        }
    }
}
