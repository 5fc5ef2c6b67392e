// Started with standard error closed (`2>&-`), slicevid must not take descriptor 2 for the
// manifest's lock file and write its log lines into it.

import Foundation
import Glibc
import Testing

@Suite(.serialized, .timeLimit(.minutes(10))) struct ClosedStreamsTests {
    @Test func closedStandardErrorNeverBecomesTheLockFile() throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        // One job fails, so the batch has error lines to log.
        let manifest = try folder.campaign(jobs: [
            ["id": "good", "images": ["s0.png", "s1.png"], "outputs": ["out/good.mp4"]],
            ["id": "bad", "images": ["s0.png", "missing.png"], "outputs": ["out/bad.mp4"]],
        ])
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exec 2>&-; exec \"$0\" batch \"$1\"", try CLI.binary(), manifest]
        process.currentDirectoryURL = URL(fileURLWithPath: folder.path)
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 1)
        let lock = try String(contentsOfFile: folder.path + "/.campaign.json.lock", encoding: .utf8)
        #expect(!lock.contains("slicevid"), "log lines went into the lock file: \(lock.debugDescription)")
        #expect(FileManager.default.fileExists(atPath: folder.path + "/out/good.mp4"))
    }
}
