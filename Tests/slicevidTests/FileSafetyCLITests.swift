// The reproducers of "files that are not ours" and "signals always win", run as a user runs
// them: a planted lock symlink, two makes racing for one output, a killed run's temporaries, a
// second signal mid-batch, a signal while a huge still is hashed.

import Foundation
import Glibc
import SliceMedia
import Testing

// Serialized: several tests keep a render going while they signal or race it.
@Suite(.serialized, .timeLimit(.minutes(10))) struct FileSafetyCLITests {
    /// A render of a few seconds: long enough to be caught mid-way, short enough to finish.
    /// About a second of rendering on a quiet 2-core machine: time enough to be caught mid-render.
    private let mediumClip = ["--size", "640x360", "--hold", "0", "--duration", "10", "--fps", "30", "--encoder-preset", "ultrafast"]

    @Test func aSymlinkAtTheLockIsRefusedWithSeventyThreeAndItsTargetKept() throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        let manifest = try folder.campaign(jobs: [["id": "a", "images": ["s0.png", "s1.png"], "outputs": "out/a.mp4"]])
        let victim = try folder.write("victim.txt", "precious")
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/.campaign.json.lock", withDestinationPath: victim)
        let result = try BatchCLI.run(["batch", manifest], in: folder.path)
        #expect(result.status == 73)
        #expect(result.stderr == "slicevid: error: \(folder.path)/.campaign.json.lock: is a symbolic link; the lock must be a regular file (remove the link)\n")
        #expect(FileManager.default.contents(atPath: victim) == Data("precious".utf8))
        #expect(folder.files("out").isEmpty)
    }

    @Test func twoMakesToOneOutputNeverReplaceEachOther() throws {
        try withScratchFolder { folder in
            let first = try BatchCLI.launch(["make"] + mediumClip + ["-o", "o.mp4"], in: folder, log: "first.log")
            // Its temporary file exists: it passed the start's check and is rendering.
            try BatchCLI.waitUntil { !first.isRunning || leftovers(in: folder).contains { $0.hasPrefix(".o.mp4.slicevid-") } }
            // Frozen first, then asked: running now means frozen mid-render, for certain.
            if first.isRunning { kill(first.processIdentifier, SIGSTOP) }
            try #require(first.isRunning && !FileManager.default.fileExists(atPath: folder + "/o.mp4"),
                         "the first render ended before the second could start")
            let second = try CLI.make(tinyClip + ["-o", "o.mp4"], in: folder)
            kill(first.processIdentifier, SIGCONT)
            first.waitUntilExit()
            #expect(second.status == 0, "\(second)")
            let written = FileManager.default.contents(atPath: folder + "/o.mp4")

            #expect(first.terminationStatus == 73)
            let log = (try? String(contentsOfFile: folder + "/first.log", encoding: .utf8)) ?? ""
            #expect(log.hasSuffix("slicevid: error: -o o.mp4: appeared during the render; nothing was replaced; pass --force to replace it\n"), "\(log)")
            #expect(FileManager.default.contents(atPath: folder + "/o.mp4") == written)
            #expect(try MediaReader.info(path: folder + "/o.mp4").frameCount == tinyClipFrames)
            #expect(leftovers(in: folder).isEmpty, "left behind: \(leftovers(in: folder))")
        }
    }

    @Test func aKilledRunsTemporariesAreRemovedByTheNextRunOnTheSameOutputs() throws {
        try withScratchFolder { folder in
            try FileManager.default.createDirectory(atPath: folder + "/seq", withIntermediateDirectories: false)
            let killed = try BatchCLI.launch(["make"] + mediumClip + ["-o", "out.mp4", "-o", "seq/%04d.png"], in: folder, log: "killed.log")
            // Wait until it has written frames into its temporary folder, then kill it hard:
            // no handler runs, so everything it made stays.
            try BatchCLI.waitUntil {
                !killed.isRunning || leftovers(in: folder).contains { $0.hasPrefix("seq/.slicevid-") && $0.hasSuffix(".png") }
            }
            if killed.isRunning { kill(killed.processIdentifier, SIGSTOP) }
            try #require(killed.isRunning, "the render ended before it could be killed")
            kill(killed.processIdentifier, SIGKILL)
            killed.waitUntilExit()
            let stale = leftovers(in: folder)
            #expect(stale.contains { $0.hasSuffix(".partial") } && stale.contains { $0.hasPrefix("seq/.slicevid-") }, "\(stale)")

            let again = try CLI.make(tinyClip + ["-o", "out.mp4", "-o", "seq/%04d.png"], in: folder)
            #expect(again.status == 0, "\(again)")
            #expect(leftovers(in: folder).isEmpty, "left behind: \(leftovers(in: folder))")
            #expect(try MediaReader.info(path: folder + "/out.mp4").frameCount == tinyClipFrames)
        }
    }

    @Test(arguments: [1, 2])
    func aSecondSignalMidBatchStillWritesTheReportAndLeavesNothingBehind(parallel: Int) throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        // 40 jobs of about 0.1 s: seconds of rendering left when the signals come, so some are
        // still pending (12 left about one second).
        let manifest = try folder.campaign(jobs: BatchCLI.slowJobs(40), defaults: BatchCLI.slowDefaults)
        let run = try BatchCLI.launch(["batch", manifest, "-j", "1", "--parallel", String(parallel), "--report", "report.json"],
                                      in: folder.path)
        // The first job is done and another is rendering: its temporary file exists.
        try BatchCLI.waitUntil {
            FileManager.default.fileExists(atPath: folder.path + "/out/slow0.mp4") && folder.files("out").contains { $0.hasSuffix(".partial") }
        }
        // Two different signals, so the kernel cannot merge them: both are delivered at once
        // on SIGCONT, and the second comes while the first is still being handled.
        kill(run.processIdentifier, SIGSTOP)
        try #require(run.isRunning, "the batch ended before it could be interrupted")
        kill(run.processIdentifier, SIGTERM)
        kill(run.processIdentifier, SIGINT)
        kill(run.processIdentifier, SIGCONT)
        run.waitUntilExit()
        #expect(run.terminationReason == .exit && [130, 143].contains(run.terminationStatus), "\(run.terminationStatus)")

        let report = try folder.report()
        let object = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder.path + "/report.json"))) as? [String: Any])
        #expect(report.status == "interrupted")
        #expect(object["signal"] as? String == (run.terminationStatus == 143 ? "SIGTERM" : "SIGINT"))
        #expect(report.statuses.count == 40)
        #expect(report.statuses["slow0"] == "rendered")
        #expect(report.statuses.values.contains("pending"))
        // In job order: jobs rendered or stopped mid-way (at most one per job at once), then
        // pending ones; and the disk agrees with every status.
        let order = (0..<12).map { report.statuses["slow\($0)"] ?? "" }
        let started = order.prefix { $0 != "pending" }.count
        #expect(order.prefix(started).allSatisfy { $0 == "rendered" || $0 == "interrupted" }, "\(order)")
        #expect(order.dropFirst(started).allSatisfy { $0 == "pending" } && started < 12, "\(order)")
        #expect(order.filter { $0 == "interrupted" }.count <= parallel, "\(order)")
        for index in 0..<12 {
            let present = folder.files("out").contains("slow\(index).mp4")
            #expect(present == (order[index] == "rendered"), "slow\(index).mp4 present: \(present), status \(order[index])")
            if present { #expect(folder.files("out").contains(".slow\(index).mp4.slicevid.json")) }
        }
        #expect(folder.leftovers().isEmpty, "left behind: \(folder.leftovers())")
        let root = folder.files("").filter { ![".campaign.json.lock", "campaign.json", "corrupt.png", "out", "report.json",
                                               "s0.png", "s1.png", "s2.png", "stderr.log"].contains($0) }
        #expect(root.isEmpty, "left behind: \(root)")
    }

    @Test func aSignalWhileAHugeStillIsHashedEndsTheRunAtOnce() throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        // 64 GB of nothing (a sparse file): minutes of hashing if nothing stops it.
        let huge = folder.path + "/huge.png"
        try #require(FileManager.default.createFile(atPath: huge, contents: nil) && truncate(huge, 64 << 30) == 0)
        let manifest = try folder.campaign(jobs: [["id": "huge", "images": ["s0.png", "huge.png"], "outputs": "out/huge.mp4"]])
        let run = try BatchCLI.launch(["batch", manifest, "--report", "report.json"], in: folder.path)
        // The start line comes once the signal handlers are in place; hashing follows.
        try BatchCLI.waitUntil {
            ((try? String(contentsOfFile: folder.path + "/stderr.log", encoding: .utf8)) ?? "").contains(": 1 job")
        }
        kill(run.processIdentifier, SIGTERM)
        run.waitUntilExit()
        #expect(run.terminationStatus == 143)
        let report = try folder.report()
        #expect(report.statuses == ["huge": "interrupted"])
        #expect(report.jobs["huge"]?["error"] as? String == "interrupted by SIGTERM while hashing its stills; nothing of it was written")
        #expect(folder.files("out").isEmpty)
    }

    @Test(arguments: [false, true])
    func aFIFOAtAnOutputsRecordIsNeverReplaced(force: Bool) throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        let manifest = try folder.campaign(jobs: [["id": "a", "images": ["s0.png", "s1.png"], "outputs": "out/a.mp4"]])
        let record = folder.path + "/out/.a.mp4.slicevid.json"
        try #require(mkfifo(record, 0o644) == 0)
        let check = try BatchCLI.run(["batch", manifest, "--check"], in: folder.path)
        #expect(check.status == 2 && check.stderr.contains("its record '\(record)' is a named pipe (FIFO)"), "\(check.stderr)")
        let run = try BatchCLI.run(["batch", manifest, "--report", "report.json"] + (force ? ["--force"] : []), in: folder.path)
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.contains("failed: job 'a': \(folder.path)/out/a.mp4: its record '\(record)' is a named pipe (FIFO); "
            + "a record is written to a regular file, and this is never replaced (remove it)"), "\(run.stderr)")
        var info = stat()
        #expect(lstat(record, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
        #expect(folder.files("out") == [".a.mp4.slicevid.json"], "nothing rendered: \(folder.files("out"))")
    }

    @Test func aFIFOThatAppearsAtAnOutputsRecordMidRenderIsNeverReplaced() throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        let manifest = try folder.campaign(jobs: [["id": "a", "images": ["s0.png", "s1.png"], "outputs": "out/a.mp4"]],
                                           defaults: ["size": "640x360", "fps": 30, "hold": 0, "duration": 30, "encoder-preset": "ultrafast"])
        let record = folder.path + "/out/.a.mp4.slicevid.json"
        let run = try BatchCLI.launch(["batch", manifest], in: folder.path)
        // Planned (the record's name checked) and rendering: the FIFO comes after the check.
        try BatchCLI.waitUntil {
            ((try? String(contentsOfFile: folder.path + "/stderr.log", encoding: .utf8)) ?? "").contains("a: rendering")
        }
        try #require(mkfifo(record, 0o644) == 0)
        run.waitUntilExit()
        let log = (try? String(contentsOfFile: folder.path + "/stderr.log", encoding: .utf8)) ?? ""
        #expect(run.terminationStatus == 2, "\(log)")
        #expect(log.contains("\(record): cannot record the output (its name is a named pipe (FIFO))"), "\(log)")
        var info = stat()
        #expect(lstat(record, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
        #expect(try MediaReader.info(path: folder.path + "/out/a.mp4").frameCount == 901)
    }
}
