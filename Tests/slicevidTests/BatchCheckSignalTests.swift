// `batch --check` stopped by a signal says so in one line and exits 130/143, instead of dying
// without a word; and a signal sent the moment slicevid takes charge of SIGINT is never lost.

import Foundation
import Glibc
import Testing

@Suite(.serialized, .timeLimit(.minutes(10))) struct BatchCheckSignalTests {
    /// The signals `pid` ignores and catches, as /proc reports them, once it is slicevid (it
    /// has exec'd: before that it is a copy of this test process, with its handlers).
    private func signalMasks(_ pid: Int32, binary: String) -> (ignored: UInt64, caught: UInt64)? {
        guard (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")) == binary,
              let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        func mask(_ key: String) -> UInt64? {
            status.split(separator: "\n").first { $0.hasPrefix(key) }
                .flatMap { UInt64($0.dropFirst(key.count).trimmingCharacters(in: .whitespaces), radix: 16) }
        }
        guard let ignored = mask("SigIgn:"), let caught = mask("SigCgt:") else { return nil }
        return (ignored, caught)
    }

    private func bit(_ signal: Int32) -> UInt64 { 1 << (UInt64(signal) - 1) }

    /// Whether slicevid at `pid` no longer dies of SIGINT by default (ignored or caught): it
    /// has taken charge of it.
    private func trapsSIGINT(_ pid: Int32, binary: String) -> Bool {
        guard let masks = signalMasks(pid, binary: binary) else { return false }
        return (masks.ignored | masks.caught) & bit(SIGINT) != 0
    }

    /// Starts slicevid with SIGINT and SIGTERM at their default actions, whatever this test
    /// process does with them (a child inherits ignored signals: a CI that starts the tests in
    /// the background without job control ignores SIGINT, and then "ignored" in /proc would
    /// say nothing about slicevid's trap). `env --default-signal` resets them, then execs.
    /// - Parameter blocked: start it with them blocked too, as some supervisors do.
    private func launchFromDefaultDispositions(_ binary: String, _ arguments: [String], in folder: String,
                                               blocked: Bool) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["--default-signal=INT,TERM"] + (blocked ? ["--block-signal=INT,TERM"] : []) + [binary] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        process.standardOutput = FileHandle.nullDevice
        _ = FileManager.default.createFile(atPath: folder + "/stderr.log", contents: nil)
        process.standardError = FileHandle(forWritingAtPath: folder + "/stderr.log")
        try process.run()
        return process
    }

    /// A parent that blocks SIGINT and SIGTERM, as some supervisors do, starts slicevid with
    /// them blocked; the trap unblocks them, or a signal would wait for ever, pending.
    @Test(arguments: [false, true])
    func aSignalTheMomentTheTrapIsSetEndsTheCheckWithOneLine(blockedByTheParent: Bool) throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        // 32 GB of nothing (a sparse file) to hash: half a minute or more of checking, so a
        // signal that is handled lands mid-check, and one that is lost lets the check finish
        // (exit 2). 2 GB took four seconds, which a test thread starved on a loaded machine
        // (load average 20 on two cores) spent before it looked at /proc even once.
        let huge = folder.path + "/huge.png"
        try #require(FileManager.default.createFile(atPath: huge, contents: nil) && truncate(huge, 32 << 30) == 0)
        let manifest = try folder.campaign(jobs: [["id": "huge", "images": ["s0.png", "huge.png"], "outputs": "out/huge.mp4"]])
        // SIGINT the instant /proc shows it is no longer fatal. With libdispatch's signal
        // sources it was first ignored and caught only milliseconds later, from another
        // thread: 4 to 9 of 20 such signals vanished and the check ran to the end.
        let binary = URL(fileURLWithPath: try BatchCLI.binary).resolvingSymlinksInPath().path
        for attempt in 1...20 {
            // Unblocked, as a shell starts it (this test thread may block them, and a child
            // inherits its mask; blocked, a signal would wait instead of being lost in the race),
            // or blocked by the parent.
            let run = try BatchCLI.withStopSignalsUnblocked {
                try launchFromDefaultDispositions(binary, ["batch", manifest, "--check"], in: folder.path, blocked: blockedByTheParent)
            }
            while run.isRunning, !trapsSIGINT(run.processIdentifier, binary: binary) { sched_yield() }
            try #require(run.isRunning, "attempt \(attempt): the check ended before it could be interrupted: \(run.terminationReason == .exit ? "exit" : "signal") \(run.terminationStatus), \((try? String(contentsOfFile: folder.path + "/stderr.log", encoding: .utf8)) ?? "")")
            kill(run.processIdentifier, SIGINT)
            run.waitUntilExit()
            let stderr = (try? String(contentsOfFile: folder.path + "/stderr.log", encoding: .utf8)) ?? ""
            try #require(run.terminationReason == .exit && run.terminationStatus == 130, "attempt \(attempt), blocked by the parent: \(blockedByTheParent): \(run.terminationStatus) \(stderr)")
            #expect(stderr.hasSuffix("--check interrupted by SIGINT; nothing was written\n") && stderr.split(separator: "\n").count == 1, "\(stderr)")
        }
    }
}
