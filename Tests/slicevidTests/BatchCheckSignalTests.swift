// `batch --check` stopped by a signal says so in one line and exits 130/143, instead of dying
// without a word.

import Foundation
import Glibc
import Testing

@Suite(.serialized, .timeLimit(.minutes(10))) struct BatchCheckSignalTests {
    /// Whether `pid` no longer dies of SIGINT by default (ignored or caught, as the kernel
    /// reports it): slicevid's trap is in place.
    private func trapsSIGINT(_ pid: Int32) -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return false }
        return ["SigIgn:", "SigCgt:"].contains { key in
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(key) }),
                  let mask = UInt64(line.dropFirst(key.count).trimmingCharacters(in: .whitespaces), radix: 16) else { return false }
            return mask & (1 << (UInt64(SIGINT) - 1)) != 0
        }
    }

    @Test func anInterruptedCheckPrintsOneLine() throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        // 64 GB of nothing (a sparse file) to hash: minutes of checking, so it is still
        // checking when the signal comes. (10,000 small jobs were not enough: a loaded machine
        // let the check finish, exit 0, before the trap's handler ran.)
        let huge = folder.path + "/huge.png"
        try #require(FileManager.default.createFile(atPath: huge, contents: nil) && truncate(huge, 64 << 30) == 0)
        let manifest = try folder.campaign(jobs: [["id": "huge", "images": ["s0.png", "huge.png"], "outputs": "out/huge.mp4"]])
        let run = try BatchCLI.launch(["batch", manifest, "--check"], in: folder.path)
        try BatchCLI.waitUntil { trapsSIGINT(run.processIdentifier) || !run.isRunning }
        try #require(run.isRunning, "the check ended before it could be interrupted")
        kill(run.processIdentifier, SIGINT)
        run.waitUntilExit()
        let stderr = (try? String(contentsOfFile: folder.path + "/stderr.log", encoding: .utf8)) ?? ""
        #expect(run.terminationReason == .exit && run.terminationStatus == 130, "\(stderr)")
        #expect(stderr.hasSuffix("--check interrupted by SIGINT; nothing was written\n") && stderr.split(separator: "\n").count == 1, "\(stderr)")
    }
}
