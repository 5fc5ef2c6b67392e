// Manifest locks: one whole run at a time, shards side by side, never a shard beside a whole run.

import Foundation
import Testing
@testable import SlicePipeline

@Suite struct ManifestLockTests {
    private func acquire(_ manifest: String, _ shard: Shard) throws -> ManifestLock? {
        if case .acquired(let lock) = try ManifestLock.acquire(manifest: manifest, shard: shard) { return lock }
        return nil
    }

    @Test func aSecondWholeRunIsRefusedUntilTheFirstEnds() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let manifest = try scratch.text("campaign.json", "{}")
        var first = try acquire(manifest, .all)
        #expect(first != nil)
        guard case .busy(let file, let holder) = try ManifestLock.acquire(manifest: manifest, shard: .all) else {
            Issue.record("a second run got the lock")
            return
        }
        #expect(file == scratch.path + "/.campaign.json.lock")
        #expect(holder == getpid())
        first = nil
        #expect(try acquire(manifest, .all) != nil)
    }

    @Test func shardsRunSideBySideButNotBesideAWholeRun() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let manifest = try scratch.text("campaign.json", "{}")
        let zero = try Shard(parsing: "0/2", environment: [:]), one = try Shard(parsing: "1/2", environment: [:])
        let first = try acquire(manifest, zero)
        let second = try acquire(manifest, one)
        #expect(first != nil && second != nil)
        #expect(try acquire(manifest, zero) == nil, "the same shard twice")
        #expect(try acquire(manifest, .all) == nil, "a whole run beside shards")
        withExtendedLifetime((first, second)) {}
    }
}
