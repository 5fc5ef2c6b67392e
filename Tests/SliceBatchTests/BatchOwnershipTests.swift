// A batch touches only its own files: a file at an output path is replaced, and a sequence's
// old frames deleted, only when the output's sidecar records that slicevid wrote them; the
// same output reached through a linked folder is one output; `--check` says what a run would
// replace, delete or refuse.

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

@Suite struct BatchOwnershipTests {
    /// A campaign folder (stills s0–s2, an `out/` folder) beside a `victim/` folder of files
    /// nobody asked slicevid to touch.
    private func setUp(_ scratch: Scratch) throws {
        for folder in ["campaign/out", "victim"] {
            try FileManager.default.createDirectory(atPath: scratch.path + "/" + folder, withIntermediateDirectories: true)
        }
        for index in 0..<3 { try scratch.still("campaign/s\(index).png", index: index) }
    }

    private func manifest(_ scratch: Scratch, _ jobs: [[String: Any]], name: String = "m.json") throws -> String {
        try scratch.json("campaign/" + name, ["defaults": tinyDefaults, "jobs": jobs])
    }

    private func run(_ manifest: String, force: Bool = false) throws -> BatchReport {
        BatchRun.run(try request(manifest, force: force), cancellation: Cancellation())
    }

    private func request(_ manifest: String, force: Bool = false) throws -> BatchRequest {
        try BatchRequest(manifest: try Manifest.load(path: manifest, presets: testPresets), force: force, renderThreads: 2, parallel: 1, version: "test")
    }

    private func contents(_ folder: String) -> [String: Data] {
        var files: [String: Data] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
            files[name] = FileManager.default.contents(atPath: folder + "/" + name)
        }
        return files
    }

    @Test func aFileSlicevidDidNotWriteFailsItsJobAndStaysByteIdentical() throws {
        // A manifest output `../victim/important.mp4` once replaced an unrelated file.
        let scratch = try Scratch()
        defer { scratch.remove() }
        try setUp(scratch)
        try scratch.text("victim/important.mp4", "someone's video")
        let path = try manifest(scratch, [
            ["id": "outside", "images": ["s0.png", "s1.png"], "outputs": "../victim/important.mp4"],
            ["id": "inside", "images": ["s0.png", "s1.png"], "outputs": "out/inside.mp4"],
        ])
        let victim = scratch.path + "/victim/important.mp4"
        let report = try run(path)
        let outside = try #require(report.jobs.first)
        #expect(outside.status == .failed)
        #expect(outside.error == "\(victim): exists and was not written by slicevid; pass the force option to replace it")
        #expect(report.jobs.last?.status == .rendered)
        #expect(contents(scratch.path + "/victim") == ["important.mp4": Data("someone's video".utf8)])

        // `--check` says the same before anything runs.
        let check = BatchCheck.run(try request(path))
        #expect(check.first?.problems == [try #require(outside.error)])

        // Writing outside the manifest's folder is allowed; --force is the user's word that
        // the file may go.
        let forced = try run(path, force: true)
        #expect(forced.jobs.first?.status == .rendered)
        #expect(try MediaReader.info(path: victim).frameCount == 6)
    }

    @Test func aSequenceNeverTakesOverOrTrimsFramesItDidNotWrite() throws {
        // An output `../victim/%d.png` once deleted 39 files past the new sequence's end.
        let scratch = try Scratch()
        defer { scratch.remove() }
        try setUp(scratch)
        for index in 0..<40 { try scratch.text("victim/\(index).png", "photo \(index)") }
        let before = contents(scratch.path + "/victim")
        let path = try manifest(scratch, [["id": "frames", "images": ["s0.png", "s1.png"], "outputs": "../victim/%d.png"]])
        let report = try run(path)
        #expect(report.jobs.first?.status == .failed)
        #expect(report.jobs.first?.error?.hasSuffix("/victim/0.png exists and was not written by slicevid; pass the force option to replace it") == true,
                "\(report.jobs.first?.error ?? "")")
        #expect(contents(scratch.path + "/victim") == before)
    }

    @Test func aShorterSequenceDeletesOnlyTheFramesItsSidecarRecorded() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try setUp(scratch)
        let long = try manifest(scratch, [["id": "reel", "images": ["s0.png", "s1.png", "s2.png"], "outputs": "out/%d.png"]])
        #expect(try run(long).jobs.first?.status == .rendered)
        let frames = { (try? FileManager.default.contentsOfDirectory(atPath: scratch.path + "/campaign/out"))?.filter { !$0.hasPrefix(".") }.count }
        #expect(frames() == 11)

        // A file in the sequence's names that the sidecar does not record stops the job.
        try scratch.text("campaign/out/11.png", "someone's frame")
        let short = try manifest(scratch, [["id": "reel", "images": ["s0.png", "s1.png"], "outputs": "out/%d.png"]])
        let refused = try run(short)
        #expect(refused.jobs.first?.status == .failed)
        #expect(refused.jobs.first?.error?.contains("/out/11.png exists and was not written by slicevid") == true)
        #expect(frames() == 12)

        // Without it, the 6-frame render replaces frames 0–5 and deletes 6–10, all recorded.
        unlink(scratch.path + "/campaign/out/11.png")
        #expect(try run(short).jobs.first?.status == .rendered)
        #expect(frames() == 6)
        let record = try #require(OutputRecord.read(for: scratch.path + "/campaign/out/%d.png"))
        #expect(record.frames == 6 && record.files.count == 6)
        #expect(record.files[5] == FileStamp(path: scratch.path + "/campaign/out/5.png"))
    }

    @Test func checkSaysWhatARunWouldReplaceDeleteAndRefuseWithoutTouchingAnything() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try setUp(scratch)
        let first = try manifest(scratch, [["id": "reel", "images": ["s0.png", "s1.png", "s2.png"], "outputs": ["out/reel.mp4", "out/f%02d.png"]]],
                                 name: "first.json")
        _ = try run(first)
        try scratch.text("campaign/out/theirs.mp4", "someone's")
        let path = try manifest(scratch, [
            ["id": "reel", "images": ["s0.png", "s1.png"], "outputs": ["out/reel.mp4", "out/f%02d.png"]],
            ["id": "fresh", "images": ["s0.png", "s1.png"], "outputs": "out/new.mp4"],
            ["id": "blocked", "images": ["s0.png", "s1.png"], "outputs": "out/theirs.mp4"],
        ])
        let out = scratch.path + "/campaign/out"
        let before = contents(out)
        let checks = BatchCheck.run(try request(path))
        #expect(checks.map(\.id) == ["reel", "fresh", "blocked"])
        #expect(checks[0].problems.isEmpty)
        #expect(checks[0].changes == [
            "would replace \(out)/reel.mp4 (its sidecar records that slicevid wrote it)",
            "would replace 6 frames of \(out)/f%02d.png, \(out)/f00.png … \(out)/f05.png (its sidecar records that slicevid wrote it)",
            "would delete 5 frames past the new end of \(out)/f%02d.png, \(out)/f06.png … \(out)/f10.png (its sidecar records that slicevid wrote it)",
        ])
        #expect(checks[1].problems.isEmpty && checks[1].changes.isEmpty)
        #expect(checks[2].problems == ["\(out)/theirs.mp4: exists and was not written by slicevid; pass the force option to replace it"])
        #expect(contents(out) == before)

        // Unchanged, a job has nothing to say: the run would skip it.
        #expect(BatchCheck.run(try request(first)).first?.changes == [])
    }

    @Test func oneOutputReachedThroughALinkedFolderIsRefusedNamingBothJobs() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try setUp(scratch)
        try FileManager.default.createSymbolicLink(atPath: scratch.path + "/campaign/outlink", withDestinationPath: "out")
        let cases: [([String], String)] = [
            (["out/x.mp4", "outlink/x.mp4"], "outlink/x.mp4 is the same output as \(scratch.path)/campaign/out/x.mp4, written by job 'a'"),
            (["out/%d.png", "outlink/%03d.png"], "outlink/%03d.png is the same output as \(scratch.path)/campaign/out/%d.png, written by job 'a'"),
            (["out/%d.png", "out/5.png"], "out/5.png is the same output as \(scratch.path)/campaign/out/%d.png, written by job 'a'"),
        ]
        for (outputs, message) in cases {
            let path = try manifest(scratch, [
                ["id": "a", "images": ["s0.png", "s1.png"], "outputs": outputs[0]],
                ["id": "b", "images": ["s0.png", "s1.png"], "outputs": outputs[1]],
            ])
            do {
                _ = try Manifest.load(path: path, presets: testPresets)
                Issue.record("\(outputs) were accepted as two outputs")
            } catch {
                #expect(error.category == .usage)
                #expect(error.message.hasPrefix(path + ": job 'b': outputs: \(scratch.path)/campaign/"), "\(error.message)")
                #expect(error.message.hasSuffix(message + "; every output needs its own path"), "\(error.message)")
            }
        }
        // Sequences that share no file name are two outputs.
        let apart = try manifest(scratch, [
            ["id": "a", "images": ["s0.png", "s1.png"], "outputs": "out/a%d.png"],
            ["id": "b", "images": ["s0.png", "s1.png"], "outputs": "outlink/b%d.png"],
        ])
        #expect(try Manifest.load(path: apart, presets: testPresets).jobs.count == 2)
    }

    @Test func aDeviceAsAStillFailsItsJobAtOnceAndAStoppedHashIsNoResult() throws {
        // A manifest image of /dev/zero once hashed forever, holding the lock.
        let scratch = try Scratch()
        defer { scratch.remove() }
        try setUp(scratch)
        let path = try manifest(scratch, [["id": "zero", "images": ["s0.png", "/dev/zero"], "outputs": "out/zero.mp4"]])
        let job = try #require(try run(path).jobs.first)
        #expect(job.status == .failed)
        #expect(job.error?.hasPrefix("/dev/zero: ") == true, "\(job.error ?? "")")

        // Stopped mid-file, a hash is no result and is not remembered as one.
        let big = scratch.path + "/big.png"
        try #require(FileManager.default.createFile(atPath: big, contents: nil) && truncate(big, 64 << 20) == 0)
        let hashes = InputHashes()
        let stopped = Cancellation()
        stopped.cancel(signal: SIGTERM)
        #expect(try hashes.hash(big, cancellation: stopped) == nil)
        #expect(try hashes.hash(big, cancellation: Cancellation())?.count == 64)
    }
}
