// Each lock guards one concern: while one is held (a batch's page being written, a commit under
// way, folders being made), what the others guard goes on. In a program embedding the library,
// one batch's report page must not stall every other render's outputs.

import Foundation
import Glibc
import ScratchFixtures
import Synchronization
import Testing
@testable import SlicePipeline

@Suite("locks by concern")
struct LockConcernTests {
    /// Holds a lock on a thread of its own (through `hold`, which runs its argument holding it)
    /// while `operation` runs on another; returns the locks `operation` waited for. Never
    /// hangs: `operation` waiting for any lock makes the holder let go, since another test's
    /// thread may hold that one while it waits for the held one (a claim holds the folders'
    /// lock while it waits for the temporaries'), which would otherwise close a cycle.
    static func waits(holding hold: @escaping @Sendable (() -> Void) -> Void,
                      while operation: @escaping @Sendable () throws -> Void) throws -> [String] {
        let held = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let holderDone = DispatchSemaphore(value: 0), operationDone = DispatchSemaphore(value: 0)
        let operationThread = Mutex<pthread_t?>(nil)
        let waited = Mutex<[String]>([])
        let failure = Mutex<(any Error)?>(nil)
        let key = LockWaits.watch { name in
            let mine = operationThread.withLock { thread in thread.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
            guard mine else { return }
            waited.withLock { $0.append(name) }
            release.signal()
        }
        defer { LockWaits.stopWatching(key) }
        Thread.detachNewThread {
            hold {
                held.signal()
                release.wait()
            }
            holderDone.signal()
        }
        held.wait()
        Thread.detachNewThread {
            operationThread.withLock { $0 = pthread_self() }
            do { try operation() } catch { failure.withLock { $0 = error } }
            release.signal()
            operationDone.signal()
        }
        operationDone.wait()
        holderDone.wait()
        if let error = failure.withLock({ $0 }) { throw error }
        return waited.withLock { $0 }
    }

    @Test("the harness sees a wait: a second whole write waits for the first")
    func harnessSeesAWait() throws {
        let waits = try Self.waits(holding: { body in WholeWrites.exclusively(body) }) {
            WholeWrites.exclusively {}
        }
        #expect(waits.contains(WholeWrites.lock.name), "\(waits)")
    }

    @Test("a report or page being written holds up no output's claim, commit, discard or folders")
    func wholeWriteHoldsUpNoOutput() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = scratch.path
        let waits = try Self.waits(holding: { body in WholeWrites.exclusively(body) }) {
            let kept = try OutputTarget(path: path + "/new/clip.mp4", force: false)
            try kept.commit()
            let dropped = try OutputTarget(path: path + "/other/frames/%03d.png", force: false)
            dropped.discard()
            OutputTarget.removeEmpty(dropped.createdFolders)
        }
        // Another test may hold some other lock a moment; never the one held here.
        #expect(!waits.contains(WholeWrites.lock.name), "\(waits)")
        #expect(scratch.files(in: "new") == ["clip.mp4"])
        #expect(!FileManager.default.fileExists(atPath: path + "/other"))
    }

    @Test("a temporary being made, committed or discarded holds up no whole write and no folder removal")
    func temporariesHoldUpNoWholeWrite() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = scratch.path
        try FileManager.default.createDirectory(atPath: path + "/empty", withIntermediateDirectories: false)
        let waits = try Self.waits(holding: { body in OutputTarget.unfinished.withLock { _ in body() } }) {
            try WholeWrites.exclusively { () throws in try Data("{}".utf8).write(to: URL(fileURLWithPath: path + "/report.json")) }
            OutputTarget.removeEmpty([path + "/empty"])
        }
        // Another test may hold some other lock a moment; never the one held here.
        #expect(!waits.contains(OutputTarget.unfinished.name), "\(waits)")
        #expect(scratch.files() == ["report.json"])
    }

    @Test("folders being made or removed hold up no commit, discard of a temporary or whole write")
    func foldersHoldUpNoCommit() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = scratch.path
        let kept = try OutputTarget(path: path + "/clip.mp4", force: false)
        let waits = try Self.waits(holding: { body in OutputFolder.changes.withLock { _ in body() } }) {
            try kept.commit()
            try WholeWrites.exclusively { () throws in try Data("{}".utf8).write(to: URL(fileURLWithPath: path + "/report.json")) }
        }
        // Another test may hold some other lock a moment; never the one held here.
        #expect(!waits.contains(OutputFolder.changes.name), "\(waits)")
        #expect(scratch.files() == ["clip.mp4", "report.json"])
    }
}
