// Atomic outputs: temporary names beside the target, rename on commit, nothing left on discard.

import Foundation
import Testing
@testable import SlicePipeline

@Suite struct OutputTargetTests {
    private func folder() throws -> String {
        let path = NSTemporaryDirectory() + "slicevid-target-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    private func contents(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    @Test func writesBesideTheTargetAndRenamesOnCommit() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let target = try OutputTarget(path: dir + "/clip.mp4", force: false)
        #expect(URL(fileURLWithPath: target.temporaryPath).deletingLastPathComponent().path == dir)
        #expect(URL(fileURLWithPath: target.temporaryPath).lastPathComponent.hasPrefix("."))
        try Data("video".utf8).write(to: URL(fileURLWithPath: target.temporaryPath))
        #expect(!FileManager.default.fileExists(atPath: dir + "/clip.mp4"))
        try target.commit()
        #expect(contents(dir) == ["clip.mp4"])
    }

    /// A name so long that its hidden temporary cannot be made is refused before anything is
    /// written, naming the limit; the longest accepted name renders as usual.
    @Test func aFileNameTooLongForItsTemporaryIsRefusedUpFront() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let longest = dir + "/" + String(repeating: "x", count: OutputTarget.longestName - 4) + ".png"
        let tooLong = dir + "/" + String(repeating: "x", count: OutputTarget.longestName - 3) + ".png"
        #expect(throws: Never.self) { try OutputTarget.check(.file(longest), force: false) }
        let target = try OutputTarget(path: longest, force: false)
        try Data("png".utf8).write(to: URL(fileURLWithPath: target.temporaryPath))
        try target.commit()
        #expect(contents(dir) == [URL(fileURLWithPath: longest).lastPathComponent])
        do {
            _ = try OutputTarget(path: tooLong, force: false)
            Issue.record("a \(OutputTarget.longestName + 1)-byte name was accepted")
        } catch {
            #expect(error.category == .outputBlocked)
            #expect(error.message.contains("at most \(OutputTarget.longestName)"))
        }
        #expect(contents(dir) == [URL(fileURLWithPath: longest).lastPathComponent])
    }

    @Test func discardLeavesNothingAndKeepsTheOldOutput() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        _ = FileManager.default.createFile(atPath: dir + "/clip.mp4", contents: Data("good".utf8))
        do {
            let target = try OutputTarget(path: dir + "/clip.mp4", force: true)
            try Data("partial".utf8).write(to: URL(fileURLWithPath: target.temporaryPath))
            target.discard()
        }
        #expect(contents(dir) == ["clip.mp4"])
        #expect(FileManager.default.contents(atPath: dir + "/clip.mp4") == Data("good".utf8))
    }

    @Test func anAbandonedTargetCleansUpWhenReleased() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var target: OutputTarget? = try OutputTarget(path: dir + "/seq/%04d.png".replacingOccurrences(of: "/seq", with: ""), force: false)
        _ = FileManager.default.createFile(atPath: target!.temporaryPath.replacingOccurrences(of: "%04d", with: "0000"), contents: Data())
        #expect(contents(dir).count == 1)
        target = nil
        #expect(contents(dir).isEmpty)
    }

    @Test func sequencesMoveEveryFrameIntoPlace() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let target = try OutputTarget(path: dir + "/f%03d.png", force: false)
        for i in 0..<3 {
            _ = FileManager.default.createFile(atPath: target.temporaryPath.replacingOccurrences(of: "%03d", with: String(format: "%03d", i)),
                                           contents: Data([UInt8(i)]))
        }
        try target.commit()
        #expect(contents(dir) == ["f000.png", "f001.png", "f002.png"])
    }

    @Test func aDiscardedSequenceIsNeverCommittedOverTheOldOne() throws {
        // A second signal discards every temporary place while the job may be about to commit:
        // with --force, an empty sequence must not count as zero frames and take the old ones.
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for i in 0..<3 { _ = FileManager.default.createFile(atPath: dir + String(format: "/f%03d.png", i), contents: Data("old".utf8)) }
        let target = try OutputTarget(path: dir + "/f%03d.png", force: true)
        _ = FileManager.default.createFile(atPath: target.temporaryPath.replacingOccurrences(of: "%03d", with: "000"), contents: Data())
        target.discard()
        #expect(throws: SlicevidError.self) { try target.commit() }
        #expect(contents(dir) == ["f000.png", "f001.png", "f002.png"])
        #expect(FileManager.default.contents(atPath: dir + "/f002.png") == Data("old".utf8))
    }

    @Test func refusesExistingOutputsUncreatableFoldersAndUnknownTypes() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        _ = FileManager.default.createFile(atPath: dir + "/clip.mp4", contents: Data("good".utf8))
        _ = FileManager.default.createFile(atPath: dir + "/s00.png", contents: Data())
        func category(_ path: String) -> SlicevidError.Category? {
            do { _ = try OutputTarget(path: path, force: false); return nil } catch { return error.category }
        }
        #expect(category(dir + "/clip.mp4") == .outputBlocked)
        #expect(category(dir + "/s%02d.png") == .outputBlocked)
        #expect(category(dir + "/clip.mp4/inside/clip.mp4") == .outputBlocked, "a file where a folder would go")
        #expect(category(dir + "/clip.avi") == .usage)
        #expect(category(dir + "/still.bmp") == .usage)
        #expect(category(dir + "/bad%x.png") == .usage)
        #expect(contents(dir) == ["clip.mp4", "s00.png"])
    }

    @Test func anyFrameOfAnEarlierSequenceBlocksItAndAFolderIsNoFile() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        _ = FileManager.default.createFile(atPath: dir + "/f003.png", contents: Data())
        _ = FileManager.default.createFile(atPath: dir + "/f3.png", contents: Data())
        _ = FileManager.default.createFile(atPath: dir + "/other.png", contents: Data())
        try FileManager.default.createDirectory(atPath: dir + "/clip.mp4", withIntermediateDirectories: false)
        #expect(try #require(FramePattern(dir + "/f%03d.png")).existing().map(\.name) == ["f003.png"])
        #expect(throws: SlicevidError.self) { _ = try OutputTarget(path: dir + "/f%03d.png", force: false) }
        #expect((try? OutputTarget(path: dir + "/g%03d.png", force: false)) != nil)
        do {
            _ = try OutputTarget(path: dir + "/clip.mp4", force: true)
            Issue.record("a folder must not be accepted as an output file")
        } catch {
            #expect(error.category == .outputBlocked)
            #expect(error.message.contains("is a folder"))
        }
    }

    @Test func frameNameExpandsThePattern() {
        #expect(OutputTarget.frameName(pattern: "a/%05d.png", index: 0) == "a/00000.png")
        #expect(OutputTarget.frameName(pattern: "f%d.png", index: 12) == "f12.png")
    }
}
