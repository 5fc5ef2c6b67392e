// Missing output folders are made, one level at a time, never through a link; what cannot be
// made is refused (73) naming it; a failed run takes back the empty folders it made.

import Foundation
import Glibc
import ScratchFixtures
import SliceKit
import Synchronization
import Testing
@testable import SlicePipeline

@Suite struct OutputFolderTests {
    @Test func missingFoldersAreCreatedAndReported() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let target = try OutputTarget(path: scratch.path + "/out/coffee/%03d.png", force: false)
        #expect(target.createdFolders == [scratch.path + "/out", scratch.path + "/out/coffee"])
        var info = stat()
        #expect(lstat(scratch.path + "/out/coffee", &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR)
        // A second output in the same folder finds it there and creates nothing.
        let sibling = try OutputTarget(path: scratch.path + "/out/coffee/poster.png", force: false)
        #expect(sibling.createdFolders.isEmpty)
        #expect(OutputTarget.missingFolders(of: .file(scratch.path + "/out/coffee/x.mp4")).isEmpty)
        #expect(OutputTarget.missingFolders(of: .file(scratch.path + "/new/a/x.mp4")) == [scratch.path + "/new", scratch.path + "/new/a"])
        #expect(!FileManager.default.fileExists(atPath: scratch.path + "/new"), "asking made nothing")
    }

    @Test func aFailedRunRemovesTheEmptyFoldersItMade() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let target = try OutputTarget(path: scratch.path + "/a/b/clip.mp4", force: false)
        let kept = try OutputTarget(path: scratch.path + "/a/kept.mp4", force: false)
        try kept.commit()
        target.discard()
        OutputTarget.removeEmpty(target.createdFolders)
        // b held nothing else and goes; a holds kept.mp4 and stays.
        #expect(!FileManager.default.fileExists(atPath: scratch.path + "/a/b"))
        #expect(scratch.files(in: "a") == ["kept.mp4"])
    }

    @Test func foldersAreNeverCreatedThroughALinkOrOverAFile() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.text("file", "not a folder")
        // A link that leads nowhere: making "gone/" would create its target elsewhere.
        #expect(symlink(scratch.path + "/elsewhere", scratch.path + "/gone") == 0)
        let cases = [
            (scratch.path + "/file/x.mp4", "\(scratch.path)/file is not a folder"),
            (scratch.path + "/gone/x.mp4", "\(scratch.path)/gone is a symlink to nothing"),
            (scratch.path + "/new/../x.mp4", "'.' or '..' after the missing folder"),
        ]
        for (path, reason) in cases {
            do {
                _ = try OutputTarget(path: path, force: false)
                Issue.record("\(path) was accepted")
            } catch {
                #expect(error.category == .outputBlocked)
                #expect(error.message.hasPrefix("output \(path): cannot create folder ") && error.message.contains(reason), "\(error.message)")
            }
        }
        #expect(!FileManager.default.fileExists(atPath: scratch.path + "/elsewhere"))
        #expect(!FileManager.default.fileExists(atPath: scratch.path + "/new"))
    }

    @Test func aReadOnlyFolderIsRefusedNamingIt() throws {
        guard getuid() != 0 else { return } // root writes anywhere; the refusal cannot be shown
        let scratch = try Scratch()
        defer { chmod(scratch.path + "/locked", 0o755); scratch.remove() }
        try FileManager.default.createDirectory(atPath: scratch.path + "/locked", withIntermediateDirectories: false)
        chmod(scratch.path + "/locked", 0o555)
        #expect(throws: SlicevidError.self) { _ = try OutputTarget(path: scratch.path + "/locked/new/x.mp4", force: false) }
    }

    @Test func aLinkSwappedInWhileCreatingIsNotFollowed() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try FileManager.default.createDirectory(atPath: scratch.path + "/elsewhere", withIntermediateDirectories: false)
        // What another process may do between the plan and the mkdir: put a link where a
        // missing folder was. mkdirat fails with EEXIST; the level is then opened without
        // following links, and refused.
        let plan = try OutputFolder.plan(scratch.path + "/out/inner", for: "x")
        #expect(plan.missing == [scratch.path + "/out", scratch.path + "/out/inner"])
        #expect(symlink(scratch.path + "/elsewhere", scratch.path + "/out") == 0)
        do {
            _ = try OutputFolder.create(plan, folder: scratch.path + "/out/inner", for: "x")
            Issue.record("created through a link")
        } catch {
            #expect(error.category == .outputBlocked)
        }
        #expect(scratch.files(in: "elsewhere").isEmpty)
    }
}

/// Jobs side by side make the same folder: what one job finds while another makes it.
@Suite struct OutputFolderRaceTests {
    @Test func aFolderAnotherJobMakesMeanwhileIsNeverTakenForALinkToNothing() throws {
        let root = NSTemporaryDirectory() + "slicevid-folder-race-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let folder = root + "/out"
        // Another job makes the folder and a failed one takes it back, over and over.
        let planning = Atomic<Bool>(true)
        let rounds = Atomic<Int>(0)
        let other = Thread {
            while planning.load(ordering: .relaxed) {
                mkdir(folder, 0o777)
                rmdir(folder)
                rounds.add(1, ordering: .relaxed)
            }
        }
        other.start()
        defer { planning.store(false, ordering: .relaxed) }
        // Planned while it comes and goes, the folder is missing or there; nothing else.
        var misread: [String] = []
        var planned = 0
        while planned < 20_000 || rounds.load(ordering: .relaxed) < 1_000 {
            planned += 1
            do {
                _ = try OutputFolder.plan(folder, for: folder + "/a.mp4")
            } catch {
                misread.append(error.message)
            }
        }
        #expect(misread.isEmpty, "\(misread.count) of \(planned) plans misread the folder: \(misread.first ?? "")")
    }
}
