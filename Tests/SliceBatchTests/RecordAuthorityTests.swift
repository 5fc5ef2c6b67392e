// Records are evidence, not authority: a sidecar licenses deleting or replacing a file only when
// the running user wrote it, alone may write it, in a folder nobody else can write to, and only
// for that user's own files; a sidecar that names a manifest needs a full stamp of each file.
// The other-owner cases chown to uid 65534 (nobody), which needs root: CI runs the suite as root.

import Foundation
import Glibc
import ScratchFixtures
import SliceCampaign
import SliceKit
import SliceMedia
import SliceReports
import Testing
@testable import SliceBatch
@testable import SlicePipeline

@Suite(.serialized) struct RecordAuthorityTests {
    /// Whether this process may give files away (chown), as root may.
    static let isRoot = geteuid() == 0
    /// The user files are given to: nobody.
    static let otherUser: uid_t = 65534

    private func manifest(_ scratch: Scratch, _ jobs: [[String: Any]]) throws -> String {
        try scratch.json("m.json", ["defaults": tinyDefaults, "jobs": jobs])
    }

    private func load(_ path: String) throws -> Manifest { try Manifest.load(path: path, presets: testPresets) }

    private func run(_ path: String) throws -> BatchReport {
        BatchRun.run(try BatchRequest(manifest: try load(path), renderThreads: 2, parallel: 1, version: "test"), cancellation: Cancellation())
    }

    /// Stills s0–s2, and a manifest whose job `gone` wrote `shared/gone.jpg` and then left it
    /// (`keep` writes beside it, so the manifest still looks there): that output is an orphan of
    /// the manifest, its sidecar a true record.
    private func orphaned(_ scratch: Scratch) throws -> (manifest: String, output: String) {
        try FileManager.default.createDirectory(atPath: scratch.path + "/shared", withIntermediateDirectories: true)
        // Whatever the umask: folders only their owner may write.
        #expect(chmod(scratch.path, 0o755) == 0 && chmod(scratch.path + "/shared", 0o755) == 0)
        for index in 0..<3 { try scratch.still("s\(index).png", index: index) }
        let keep: [String: Any] = ["id": "keep", "images": ["s0.png", "s1.png"], "outputs": "shared/keep.jpg"]
        let path = try manifest(scratch, [keep, ["id": "gone", "images": ["s1.png", "s2.png"], "outputs": "shared/gone.jpg"]])
        try #require(try run(path).jobs.allSatisfy { $0.status == .rendered })
        _ = try manifest(scratch, [keep])
        return (path, scratch.path + "/shared/gone.jpg")
    }

    /// A sidecar for `output` as slicevid writes one, naming `manifest` and the job `ghost`, with
    /// `files` as its stamps (by default the file's own stamp, copied: size, inode and time).
    @discardableResult
    private func plantRecord(for output: String, manifest: String, files: Any? = nil) throws -> String {
        let stamp = try #require(FileStamp(path: output))
        var object: [String: Any] = ["fingerprint": String(repeating: "a", count: 64), "bytes": stamp.bytes, "frames": 1, "fps": NSNull(),
                                     "seconds": 0, "producedBy": ["slicevid test"], "manifest": manifest, "job": "ghost"]
        object["files"] = files ?? [stamp.json]
        let sidecar = OutputRecord.sidecarPath(for: output)
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: sidecar))
        #expect(chmod(sidecar, 0o644) == 0)
        return sidecar
    }

    /// Finds the manifest's orphans and prunes them, as `batch --prune` does.
    private func prune(_ manifest: String) throws -> [Orphan] {
        Orphan.prune(Orphan.find(in: try load(manifest)))
    }

    @Test func aRecordInAFolderOtherUsersMayWriteLicensesNothing() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let (path, output) = try orphaned(scratch)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: output))
        // A shared folder like /tmp: anyone may put a record there, so none there proves anything.
        #expect(chmod(scratch.path + "/shared", 0o1777) == 0)
        let kept = try prune(path)
        try #require(kept.count == 1 && kept[0].path == output && !kept[0].pruned, "\(kept)")
        #expect(kept[0].kept == "its sidecar licenses nothing: other users may write to its folder (mode 1777)", "\(kept)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == bytes)
        // Nor does it license replacing the output: the job back, changed, fails in one line.
        _ = try manifest(scratch, [["id": "gone", "images": ["s2.png", "s1.png"], "outputs": "shared/gone.jpg"],
                                   ["id": "keep", "images": ["s0.png", "s1.png"], "outputs": "shared/keep.jpg"]])
        let refused = try run(path).jobs[0]
        #expect(refused.status == .failed)
        #expect(refused.error == "\(output): exists, and its sidecar '\(OutputRecord.sidecarPath(for: output))' licenses nothing: "
            + "other users may write to its folder (mode 1777); pass the force option to replace it", "\(refused.error ?? "")")
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == bytes)
        _ = try manifest(scratch, [["id": "keep", "images": ["s0.png", "s1.png"], "outputs": "shared/keep.jpg"]])

        // A record its owner alone may not write (group- or world-writable) proves nothing either.
        #expect(chmod(scratch.path + "/shared", 0o755) == 0 && chmod(OutputRecord.sidecarPath(for: output), 0o664) == 0)
        #expect(try prune(path).first?.kept == "its sidecar licenses nothing: other users may write it (mode 664)")
        // Once the folder and the record are the user's alone, the same record licenses it.
        #expect(chmod(OutputRecord.sidecarPath(for: output), 0o644) == 0)
        let pruned = try prune(path)
        try #require(pruned.count == 1 && pruned[0].pruned, "\(pruned)")
        #expect(!FileManager.default.fileExists(atPath: output) && !FileManager.default.fileExists(atPath: OutputRecord.sidecarPath(for: output)))
    }

    @Test func aRecordPlantedInAStickyFolderCopyingAFilesStampDeletesNothing() throws {
        // The finding: another user's sidecar beside a file of root's in a mode-1777 folder,
        // copying its size, inode and time and naming the manifest, had --prune delete the file.
        let scratch = try Scratch()
        defer { scratch.remove() }
        let (path, _) = try orphaned(scratch)
        #expect(chmod(scratch.path + "/shared", 0o1777) == 0)
        let victim = try scratch.text("shared/victim.jpg", "the running user's own picture")
        let sidecar = try plantRecord(for: victim, manifest: try load(path).reportName)
        // Planted by nobody when the test can give it away; by this user otherwise (the folder alone refuses it).
        if Self.isRoot { #expect(chown(sidecar, Self.otherUser, gid_t(Self.otherUser)) == 0) }
        let orphans = try prune(path)
        let planted = try #require(orphans.first { $0.path == victim })
        #expect(!planted.pruned && planted.kept?.hasPrefix("its sidecar licenses nothing: ") == true, "\(planted)")
        if Self.isRoot { #expect(planted.kept?.contains("it is owned by uid 65534, not this user (uid 0)") == true, "\(planted)") }
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "the running user's own picture")
        #expect(FileManager.default.fileExists(atPath: sidecar))
    }

    @Test(.enabled(if: isRoot, "giving a file to another user (chown) needs root"))
    func anotherUsersRecordOrFileLicensesNothingEvenInAFolderOfOurOwn() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let (path, output) = try orphaned(scratch)
        let sidecar = OutputRecord.sidecarPath(for: output)
        // The record is another user's: whoever wrote it, slicevid did not write it for this user.
        #expect(chown(sidecar, Self.otherUser, gid_t(Self.otherUser)) == 0)
        #expect(try prune(path).first?.kept == "its sidecar licenses nothing: it is owned by uid 65534, not this user (uid 0)")
        #expect(chown(sidecar, 0, 0) == 0)
        // The file is another user's: its stamps match, yet a record never vouches for it.
        #expect(chown(output, Self.otherUser, gid_t(Self.otherUser)) == 0)
        #expect(try prune(path).first?.kept == "\(output) is owned by uid 65534, not this user (uid 0); a record licenses only this user's files")
        #expect(FileManager.default.fileExists(atPath: output))
        #expect(chown(output, 0, 0) == 0)
        // The folder is another user's, who could have written anything in it.
        #expect(chown(scratch.path + "/shared", Self.otherUser, gid_t(Self.otherUser)) == 0)
        #expect(try prune(path).first?.kept == "its sidecar licenses nothing: its folder is owned by uid 65534, not this user (uid 0)")
        #expect(FileManager.default.fileExists(atPath: output))
        #expect(chown(scratch.path + "/shared", 0, 0) == 0)

        // Another user's file shaped like a report is theirs: never replaced without force.
        let report = try scratch.json("report.json", ["slicevid": "x", "manifest": "m", "jobs": [], "counts": [:], "status": "ok"])
        #expect(chown(report, Self.otherUser, gid_t(Self.otherUser)) == 0)
        #expect(throws: SlicevidError.self) { try BatchReport.checkReplaceable(report, force: false) }
        // Nor is another user's file named like a temporary of a run that is gone.
        let keep = scratch.path + "/shared/keep.jpg"
        let stale = scratch.path + "/shared/.keep.jpg.slicevid-999999999-1.partial"
        try Data("someone's".utf8).write(to: URL(fileURLWithPath: stale))
        #expect(chown(stale, Self.otherUser, gid_t(Self.otherUser)) == 0)
        #expect(StaleTemporaries.find(output: keep, frames: nil).isEmpty)
        #expect(chown(stale, 0, 0) == 0)
        #expect(StaleTemporaries.find(output: keep, frames: nil) == [stale])
        // And a record of another user's at a sidecar's name is never replaced by a commit.
        try OutputRecord.checkPlace(for: keep)
        #expect(chown(OutputRecord.sidecarPath(for: keep), Self.otherUser, gid_t(Self.otherUser)) == 0)
        #expect(throws: SlicevidError.self) { try OutputRecord.checkPlace(for: keep) }
    }

    @Test func aRecordNamingTheManifestNeedsAFullStampOfEachFile() throws {
        // `"files": []` or a size-only stamp once got any file of the recorded size pruned.
        let scratch = try Scratch()
        defer { scratch.remove() }
        let (path, _) = try orphaned(scratch)
        let name = try load(path).reportName
        let cases: [(String, Any?, String)] = [
            ("empty", [Any](), "files is not a list of 1…1 stamps (one per file written)"),
            ("sized", [["bytes": 23]], "files[0] is not a full stamp (bytes, inode and modified, as slicevid writes them)"),
            ("none", nil, "it names a manifest but stamps no file; a record stamps each file it licenses"),
        ]
        for (file, files, _) in cases {
            let victim = try scratch.text("shared/\(file).jpg", "23 bytes of someone's..")
            let sidecar = try plantRecord(for: victim, manifest: name, files: files)
            if files == nil {
                // No `files` at all: the record as slicevid 0.2.0 wrote it, but naming a manifest.
                var object = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: sidecar))) as? [String: Any])
                object.removeValue(forKey: "files")
                try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: sidecar))
            }
        }
        let orphans = try prune(path)
        for (file, _, why) in cases {
            let victim = scratch.path + "/shared/\(file).jpg"
            let orphan = try #require(orphans.first { $0.path == victim })
            #expect(!orphan.pruned && orphan.kept == "its sidecar licenses nothing: it is not a record slicevid writes (\(why))", "\(orphan)")
            #expect(try String(contentsOfFile: victim, encoding: .utf8) == "23 bytes of someone's..")
        }
        // The same record with the file's full stamp does license it: the checks above are the stamps'.
        let full = try scratch.text("shared/full.jpg", "23 bytes of slicevid's.")
        try plantRecord(for: full, manifest: name)
        #expect(try prune(path).first { $0.path == full }?.pruned == true)
        #expect(!FileManager.default.fileExists(atPath: full))
    }

    @Test func everyNumberOfASidecarIsCheckedBeforeItIsUsed() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        #expect(chmod(scratch.path, 0o755) == 0)
        let output = scratch.path + "/f%03d.png"
        let sidecar = OutputRecord.sidecarPath(for: output)
        let stamp: [String: Any] = ["bytes": 3, "inode": 7, "modified": "1700000000.000000000"]
        let real: [String: Any] = ["fingerprint": String(repeating: "0", count: 64), "bytes": 3, "frames": 1, "fps": NSNull(), "seconds": 0,
                                   "files": [stamp], "manifest": "/m.json", "job": "a"]
        func reading(_ change: [String: Any]) throws -> OutputRecord.Reading {
            try JSONSerialization.data(withJSONObject: real.merging(change) { $1 }).write(to: URL(fileURLWithPath: sidecar))
            #expect(chmod(sidecar, 0o644) == 0)
            return OutputRecord.reading(for: output)
        }
        #expect(try reading([:]).record?.frames == 1)
        let hostile: [(String, Any, String)] = [
            ("frames", -1, "frames is"), ("frames", 2_147_483_648, "frames is"), ("frames", 1e12, "frames is"),
            ("frames", Int.max, "frames is"), ("frames", 1.5, "frames is"), ("frames", "1", "frames is '1'"),
            ("bytes", -3, "bytes is"), ("seconds", 1e308, "seconds is"), ("fps", "0", "fps is '0'"),
            ("loudness", 1e300, "loudness is"), ("fingerprint", "x", "fingerprint is 'x'"),
            ("files", [stamp.merging(["inode": 1e30]) { $1 }], "files[0] is not a full stamp"),
            ("files", [stamp.merging(["modified": "-1.5"]) { $1 }], "files[0] is not a full stamp"),
            ("files", [stamp, stamp], "files is not a list of 1…1 stamps"),
            ("bytes", 4, "its files add up to 3 bytes, not the 4 it records"),
        ]
        for (key, value, why) in hostile {
            let read = try reading([key: value])
            #expect(read.record == nil && read.refusal?.contains(why) == true, "\(key) \(value): \(read)")
            // Licenses nothing, saying why.
            guard case .recorded(let stamps, let refusal?) = read.licence(output: output, format: .pngSequence) else {
                Issue.record("\(key) \(value) licenses something"); continue
            }
            #expect(stamps.isEmpty && refusal.contains(sidecar))
        }
        // A link or a FIFO at the sidecar's name is no record, and reading one never waits.
        try FileManager.default.removeItem(atPath: sidecar)
        #expect(symlink("/etc/passwd", sidecar) == 0)
        #expect(OutputRecord.reading(for: output).refusal == "it is a symbolic link")
        try FileManager.default.removeItem(atPath: sidecar)
        #expect(mkfifo(sidecar, 0o644) == 0)
        #expect(OutputRecord.reading(for: output).refusal == "it is not a regular file")
    }
}
