// Commits that never clobber: a name taken during the render fails the commit with nothing
// replaced, a sequence moves all or nothing, and a batch licence replaces or deletes exactly
// the files its sidecar recorded.

import Foundation
import Glibc
import ScratchFixtures
import Testing
@testable import SlicePipeline

@Suite struct OutputTargetCommitTests {
    /// Writes in place (not atomically): a temporary must stay the file its target opened.
    private func write(_ path: String, _ text: String) {
        try? Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    private func read(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Writes `count` frames of `text` into a sequence target's temporary folder.
    private func writeFrames(_ target: OutputTarget, _ count: Int, _ text: String) throws {
        let pattern = try #require(FramePattern(target.temporaryPath))
        for index in 0..<count { write(pattern.path(index), text) }
    }

    @Test func aFileThatAppearsDuringTheRenderIsNeverReplaced() throws {
        // Two `make -o o.mp4` at once, or anyone writing o.mp4 meanwhile: the check at the
        // start passed for both, so only the commit can refuse.
        let scratch = try Scratch()
        defer { scratch.remove() }
        let output = scratch.path + "/o.mp4"
        let target = try OutputTarget(path: output, force: false)
        write(target.temporaryPath, "ours")
        write(output, "theirs")
        do {
            try target.commit()
            Issue.record("the commit replaced a file that appeared during the render")
        } catch {
            #expect(error.category == .outputBlocked)
            #expect(error.message == "output \(output): appeared during the render; nothing was replaced; pass the force option to replace it")
        }
        #expect(read(output) == "theirs")
        target.discard()
        #expect(scratch.files() == ["o.mp4"])
    }

    @Test func withForceTheCommitReplacesAtomically() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let output = scratch.path + "/o.mp4"
        write(output, "old")
        let target = try OutputTarget(path: output, force: true)
        write(target.temporaryPath, "new")
        try target.commit()
        #expect(read(output) == "new")
        #expect(scratch.files() == ["o.mp4"])
    }

    @Test("a sequence commits only when its temporary folder holds every frame written, numbered from 0",
          arguments: [0, 2, 4])
    func aSequenceMissingFramesIsNotCommitted(written: Int) throws {
        // A muxer that wrote its frames under other names (or not at all) must fail the run,
        // not report a sequence of 0 bytes as written.
        let scratch = try Scratch()
        defer { scratch.remove() }
        let target = try OutputTarget(path: scratch.path + "/f%03d.png", force: false)
        try writeFrames(target, written, "new")
        do {
            try target.commit(frames: 3)
            Issue.record("committed \(written) of 3 frames")
        } catch {
            #expect(error.category == .outputFailed)
            #expect(error.message.contains("holds \(written) frames where frames 0…2 were written"), "\(error.message)")
        }
        #expect(scratch.files().filter { !$0.hasPrefix(".") }.isEmpty)
        target.discard()
        #expect(scratch.files().isEmpty)
    }

    @Test func aSequenceFrameTakenMeanwhileUndoesTheWholeCommit() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let target = try OutputTarget(path: scratch.path + "/f%03d.png", force: false)
        try writeFrames(target, 3, "new")
        write(scratch.path + "/f001.png", "theirs")
        #expect(throws: SlicevidError.self) { try target.commit() }
        // Frame 0 had been moved in before frame 1 was found taken: it went back.
        #expect(scratch.files().filter { !$0.hasPrefix(".") } == ["f001.png"])
        #expect(read(scratch.path + "/f001.png") == "theirs")
        target.discard()
        #expect(scratch.files() == ["f001.png"])
    }

    @Test func aForcedSequenceCommitThatFailsPutsTheOldFramesBack() throws {
        // --force may replace frames, but never leave a mix of old and new: a folder named
        // like frame 2, made during the render, stops the commit after frames 0 and 1 moved,
        // and they are undone.
        let scratch = try Scratch()
        defer { scratch.remove() }
        write(scratch.path + "/f000.png", "old0")
        write(scratch.path + "/f001.png", "old1")
        let target = try OutputTarget(path: scratch.path + "/f%03d.png", force: true)
        try writeFrames(target, 3, "new")
        try FileManager.default.createDirectory(atPath: scratch.path + "/f002.png", withIntermediateDirectories: false)
        do {
            try target.commit()
            Issue.record("a folder at a frame name was replaced")
        } catch {
            #expect(error.message.contains("f002.png is a folder"), "\(error.message)")
        }
        #expect(read(scratch.path + "/f000.png") == "old0")
        #expect(read(scratch.path + "/f001.png") == "old1")
        target.discard()
        #expect(scratch.files() == ["f000.png", "f001.png", "f002.png"])
    }

    @Test func aLicenceReplacesOnlyTheFileItsRecordDescribes() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let output = scratch.path + "/clip.mp4"
        write(output, "written by slicevid")
        let stamp = try #require(FileStamp(path: output))
        let target = try OutputTarget(path: output, replacing: .recorded([stamp]))
        write(target.temporaryPath, "new render")
        try target.commit()
        #expect(read(output) == "new render")
        #expect(scratch.files() == ["clip.mp4"])

        // The record of the earlier file does not cover the file there now.
        #expect(throws: SlicevidError.self) { _ = try OutputTarget(path: output, replacing: .recorded([stamp])) }
        // Nor does one that differs in the inode alone (a copy put in its place).
        let now = try #require(FileStamp(path: output))
        let copy = FileStamp(bytes: now.bytes, inode: now.inode.map { $0 + 1 }, modified: now.modified)
        #expect(throws: SlicevidError.self) { _ = try OutputTarget(path: output, replacing: .recorded([copy])) }
        #expect(try OutputTarget(path: output, replacing: .recorded([now])).replacing.verdict(output, index: 0) == .ours)
        #expect(read(output) == "new render")
    }

    @Test func aLicensedFileChangedDuringTheRenderIsNotReplaced() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let output = scratch.path + "/clip.mp4"
        write(output, "written by slicevid")
        let target = try OutputTarget(path: output, replacing: .recorded([try #require(FileStamp(path: output))]))
        write(target.temporaryPath, "new render")
        // Someone rewrites it after the run started: a new inode, so no longer slicevid's.
        write(scratch.path + "/edit", "edited by hand!!!!!")
        try #require(rename(scratch.path + "/edit", output) == 0)
        do {
            try target.commit()
            Issue.record("a file changed since slicevid wrote it was replaced")
        } catch {
            #expect(error.category == .outputBlocked)
            #expect(error.message.contains("has changed since slicevid wrote it"), "\(error.message)")
        }
        #expect(read(output) == "edited by hand!!!!!")
        target.discard()
        #expect(scratch.files() == ["clip.mp4"])
    }

    @Test func aShorterSequenceDeletesOnlyTheFramesItsRecordListed() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let pattern = try #require(FramePattern(scratch.path + "/f%d.png"))
        for index in 0..<5 { write(pattern.path(index), "old\(index)") }
        let stamps = try (0..<5).map { try #require(FileStamp(path: pattern.path($0))) }
        // Recorded: frames 0–4. Frame 5 is someone else's: the sequence may not take it over.
        write(pattern.path(5), "theirs")
        #expect(throws: SlicevidError.self) { _ = try OutputTarget(path: scratch.path + "/f%d.png", replacing: .recorded(stamps)) }
        unlink(pattern.path(5))

        let target = try OutputTarget(path: scratch.path + "/f%d.png", replacing: .recorded(stamps))
        try writeFrames(target, 2, "new")
        try target.commit()
        #expect(scratch.files() == ["f0.png", "f1.png"])
        #expect(read(pattern.path(1)) == "new")
    }

    @Test func theNoReplaceMoveAndItsFallbacksNeverReplace() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let from = scratch.path + "/from", to = scratch.path + "/to"
        for move in [FileMove.withoutReplacing, FileMove.byLinking, FileMove.byPlaceholder] {
            write(from, "new")
            write(to, "theirs")
            #expect(move(from, to, AT_FDCWD) == .taken)
            #expect(read(to) == "theirs" && read(from) == "new")
            unlink(to)
            #expect(move(from, to, AT_FDCWD) == .moved)
            #expect(read(to) == "new" && !FileManager.default.fileExists(atPath: from))
            unlink(to)
        }
    }
}
