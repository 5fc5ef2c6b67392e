// Manifest locks: one whole run at a time, shards side by side, never a shard beside a whole run.

import Foundation
import Glibc
import ScratchFixtures
import SliceCampaign
import SliceReports
import Testing
@testable import SliceBatch
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

    @Test func aManifestReachedThroughALinkSharesTheRealFilesLock() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let manifest = try scratch.text("campaign.json", "{}")
        #expect(symlink(manifest, scratch.path + "/alias.json") == 0)
        #expect(mkdir(scratch.path + "/sub", 0o755) == 0 && symlink(scratch.path, scratch.path + "/sub/up") == 0)
        let first = try acquire(manifest, .all)
        #expect(first != nil)
        for other in [scratch.path + "/alias.json", scratch.path + "/sub/up/campaign.json"] {
            guard case .busy(let file, _) = try ManifestLock.acquire(manifest: other, shard: .all) else {
                Issue.record("\(other) got a lock of its own while the real file's was held")
                continue
            }
            #expect(file == scratch.path + "/.campaign.json.lock")
        }
        withExtendedLifetime(first) {}
    }

    @Test func aManifestHardLinkedUnderAnotherNameCannotRunBesideIt() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let manifest = try scratch.text("campaign.json", "{}")
        let other = scratch.path + "/copy.json"
        #expect(link(manifest, other) == 0)
        var first = try acquire(manifest, .all)
        #expect(first != nil)
        guard case .busyUnderAnotherName = try ManifestLock.acquire(manifest: other, shard: .all) else {
            Issue.record("a hard link of a manifest being rendered got a lock of its own")
            return
        }
        // The refused run wrote no pid into its own lock file, and the manifest is untouched.
        #expect(try String(contentsOfFile: scratch.path + "/.copy.json.lock", encoding: .utf8).allSatisfy { $0 == " " || $0 == "\n" })
        #expect(try String(contentsOfFile: manifest, encoding: .utf8) == "{}")
        let shard = try Shard(parsing: "0/2", environment: [:])
        #expect(try acquire(other, shard) == nil, "a shard through the second name beside a whole run")
        first = nil
        #expect(try acquire(other, .all) != nil)
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

    /// The message a refused lock file gets, or nil when the lock was taken.
    private func refusal(_ manifest: String) -> SlicevidError? {
        do {
            _ = try ManifestLock.acquire(manifest: manifest, shard: .all)
            return nil
        } catch {
            return error
        }
    }

    @Test func aSymlinkAtTheLockIsRefusedAndItsTargetIsUntouched() throws {
        // `ln -s victim.txt .m.json.lock; slicevid batch m.json` once emptied victim.txt.
        let scratch = try Scratch()
        defer { scratch.remove() }
        let manifest = try scratch.text("m.json", "{}")
        let victim = try scratch.text("victim.txt", "precious")
        try FileManager.default.createSymbolicLink(atPath: scratch.path + "/.m.json.lock", withDestinationPath: victim)
        let error = try #require(refusal(manifest), "a lock through a symlink was taken")
        #expect(error.category == .outputBlocked)
        #expect(error.message == scratch.path + "/.m.json.lock: is a symbolic link; the lock must be a regular file (remove the link)")
        #expect(FileManager.default.contents(atPath: victim) == Data("precious".utf8))
        // A dangling link is not created through either.
        unlink(victim)
        #expect(refusal(manifest)?.category == .outputBlocked)
        #expect(!FileManager.default.fileExists(atPath: victim))
    }

    @Test func aFIFOAFolderOrAFileOfOtherDataAtTheLockIsRefused() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let manifest = try scratch.text("m.json", "{}")
        let lock = scratch.path + "/.m.json.lock"
        // A FIFO must be refused at once, not waited on.
        try #require(mkfifo(lock, 0o600) == 0)
        #expect(refusal(manifest)?.message == lock + ": is not a regular file; the lock must be one (remove it)")
        unlink(lock)
        try FileManager.default.createDirectory(atPath: lock, withIntermediateDirectories: false)
        #expect(refusal(manifest)?.category == .outputBlocked)
        try FileManager.default.removeItem(atPath: lock)
        // Someone's file under the lock's name: never written to.
        try scratch.text(".m.json.lock", "not a pid, and longer than one")
        #expect(refusal(manifest)?.message == lock + ": is not a slicevid lock file (it holds other data); remove it or move the manifest")
        #expect(FileManager.default.contents(atPath: lock) == Data("not a pid, and longer than one".utf8))
        unlink(lock)
        // A hard link to another file: writing the pid would change that file too.
        let other = try scratch.text("other.txt", "")
        try #require(link(other, lock) == 0)
        #expect(refusal(manifest)?.message == lock + ": has other hard links; the lock must be a file of its own (remove it)")
        #expect(FileManager.default.contents(atPath: other) == Data())
    }

    @Test func thePidIsWrittenInPlaceAndBlankedWithoutTruncating() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let manifest = try scratch.text("m.json", "{}")
        let lock = scratch.path + "/.m.json.lock"
        // What slicevid 0.2.0 left after a crash: its pid and a newline. Still a lock file.
        try scratch.text(".m.json.lock", "999999\n")
        var held = try acquire(manifest, .all)
        #expect(held != nil)
        let width = ManifestLock.recordWidth
        let recorded = try #require(FileManager.default.contents(atPath: lock))
        #expect(recorded.count == width)
        #expect(String(decoding: recorded, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == "\(getpid())")
        held = nil
        #expect(FileManager.default.contents(atPath: lock) == Data(String(repeating: " ", count: width - 1).utf8 + [0x0A]))
        #expect(try acquire(manifest, .all) != nil)
    }
}
