// At most 32 outputs per run or job: each holds an encoder and its frames in memory (200 WebM
// outputs took 4 GB). More is a usage error naming the flag or field and the limit, before
// anything is decoded or written.

import Foundation
import Testing

@Suite(.timeLimit(.minutes(10))) struct OutputCountLimitTests {
    @Test func thirtyThreeOutputsToMakeAreRefused() throws {
        try withScratchFolder { folder in
            let outputs = (0..<33).flatMap { ["-o", "o\($0).webm"] }
            let run = try CLI.make(tinyClip + outputs, in: folder)
            #expect(run.status == 64, "\(run)")
            #expect(run.stderrIsOneLine && run.stderr.contains("-o: 33 outputs given; at most 32"), "\(run)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.contains("o") && $0.hasSuffix("webm") }.isEmpty)
            // The limit itself is accepted (checked by a dry run, which writes nothing).
            let atLimit = try CLI.make(tinyClip + (0..<32).flatMap { ["-o", "o\($0).webm"] } + ["--dry-run"], in: folder)
            #expect(atLimit.status == 0, "\(atLimit)")
        }
    }

    @Test func aJobWithThirtyThreeOutputsIsRefused() throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        let manifest = try folder.campaign(jobs: [["id": "many", "images": ["s0.png", "s1.png"], "outputs": (0..<33).map { "out/o\($0).webm" }]])
        let run = try BatchCLI.run(["batch", manifest, "--check"], in: folder.path)
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr.contains("outputs: 33 outputs; at most 32 per job"), "\(run.stderr)")
    }
}
