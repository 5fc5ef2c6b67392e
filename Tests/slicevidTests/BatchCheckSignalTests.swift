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

    /// A new folder on /dev/shm when that is a tmpfs this process may write to; nil otherwise.
    private static func tmpfsFolder() throws -> String? {
        let mounts = (try? String(contentsOfFile: "/proc/mounts", encoding: .utf8)) ?? ""
        guard mounts.split(separator: "\n").contains(where: { $0.split(separator: " ").dropFirst().prefix(2) == ["/dev/shm", "tmpfs"] }),
              access("/dev/shm", W_OK) == 0 else { return nil }
        let path = "/dev/shm/slicevid-check-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        return path
    }

    /// Whether slicevid at `pid` no longer dies of SIGINT by default (ignored or caught): it
    /// has taken charge of it.
    private func trapsSIGINT(_ pid: Int32, binary: String) -> Bool {
        guard let masks = signalMasks(pid, binary: binary) else { return false }
        return (masks.ignored | masks.caught) & bit(SIGINT) != 0
    }

    /// A child started with posix_spawn: its pid, waited for with waitpid.
    private struct Child {
        let pid: pid_t
        /// How it ended, once it has: (exited, status or signal).
        var ended: (exited: Bool, code: Int32)?

        /// Whether it still runs (reaping it when it has ended).
        mutating func isRunning() -> Bool {
            guard ended == nil else { return false }
            var status: Int32 = 0
            guard waitpid(pid, &status, WNOHANG) == pid else { return true }
            ended = Child.decode(status)
            return false
        }

        /// Waits for its end.
        mutating func wait() -> (exited: Bool, code: Int32) {
            if let ended { return ended }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            let result = Child.decode(status)
            ended = result
            return result
        }

        private static func decode(_ status: Int32) -> (exited: Bool, code: Int32) {
            status & 0x7f == 0 ? (true, (status >> 8) & 0xff) : (false, status & 0x7f)
        }
    }

    /// Starts slicevid with SIGINT and SIGTERM at their default actions, whatever this test
    /// process does with them (a child inherits ignored signals: a CI that starts the tests in
    /// the background without job control ignores SIGINT, and then "ignored" in /proc would
    /// say nothing about slicevid's trap). `env --default-signal` resets them, then execs.
    /// Started with posix_spawn, not Foundation's Process: in this busy test process,
    /// Process.run once returned 14 s after the child had started, by when the check it was
    /// meant to interrupt had run to its end. (Later found: the test thread had opened SVT-AV1
    /// as root, which left it SCHED_FIFO 99, and the check inherited that; the spawning thread
    /// then waited behind it. Opening an encoder now keeps the thread's scheduling.)
    /// - Parameter blocked: start it with them blocked too, as some supervisors do.
    private func launchFromDefaultDispositions(_ binary: String, _ arguments: [String], in folder: String,
                                               blocked: Bool) throws -> Child {
        let words = ["/usr/bin/env", "--chdir=" + folder, "--default-signal=INT,TERM"] + (blocked ? ["--block-signal=INT,TERM"] : []) + [binary] + arguments
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, folder + "/stderr.log", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var argv = words.map { strdup($0) } + [nil]
        defer { for word in argv { free(word) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/usr/bin/env", &actions, nil, &argv, environ)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
        return Child(pid: pid)
    }

    /// A parent that blocks SIGINT and SIGTERM, as some supervisors do, starts slicevid with
    /// them blocked; the trap unblocks them, or a signal would wait for ever, pending.
    @Test(arguments: [false, true])
    func aSignalTheMomentTheTrapIsSetEndsTheCheckWithOneLine(blockedByTheParent: Bool) throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        // 4 × 64 GB of nothing (sparse files) to hash: minutes of checking, so a signal that is
        // handled lands mid-check, and one that is lost lets the check finish (exit 2). One 16 GB
        // still was not enough: on CI, with the suite's renders on both cores, this thread once
        // did not look at /proc for the whole check (its verdict was on stderr, exit 2).
        // On tmpfs: a hole there reads as the zero page, so hashing costs CPU alone. On ext4 each
        // hole read becomes a page of cache (230 MB/s of it): an attempt that ran long filled the
        // machine's memory, and the reclaim stalled the whole suite for 12 minutes on CI.
        let hugeFolder = try Self.tmpfsFolder() ?? folder.path
        defer { if hugeFolder != folder.path { try? FileManager.default.removeItem(atPath: hugeFolder) } }
        var images = ["s0.png"]
        for index in 1...4 {
            let huge = hugeFolder + "/huge\(index).png"
            try #require(FileManager.default.createFile(atPath: huge, contents: nil) && truncate(huge, 64 << 30) == 0)
            images.append(huge)
        }
        let manifest = try folder.campaign(jobs: [["id": "huge", "images": images, "outputs": "out/huge.mp4"]])
        // SIGINT the instant /proc shows it is no longer fatal. With libdispatch's signal
        // sources it was first ignored and caught only milliseconds later, from another
        // thread: 4 to 9 of 20 such signals vanished and the check ran to the end.
        let binary = URL(fileURLWithPath: try BatchCLI.binary).resolvingSymlinksInPath().path
        for attempt in 1...20 {
            // Unblocked, as a shell starts it (this test thread may block them, and a child
            // inherits its mask; blocked, a signal would wait instead of being lost in the race),
            // or blocked by the parent.
            var run = try BatchCLI.withStopSignalsUnblocked {
                try launchFromDefaultDispositions(binary, ["batch", manifest, "--check"], in: folder.path, blocked: blockedByTheParent)
            }
            // What /proc last said, for the message should the check end before the trap shows.
            var seen = "nothing"
            var polls = 0
            while run.isRunning(), !trapsSIGINT(run.pid, binary: binary) {
                polls += 1
                if polls % 1000 == 0 {
                    let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(run.pid)/exe")) ?? "unreadable"
                    seen = "exe \(exe), masks \(signalMasks(run.pid, binary: binary).map { "\(String($0.ignored, radix: 16))/\(String($0.caught, radix: 16))" } ?? "unread")"
                }
                sched_yield()
            }
            let log = { (try? String(contentsOfFile: folder.path + "/stderr.log", encoding: .utf8)) ?? "" }
            let stillRunning = run.isRunning()
            try #require(stillRunning, "attempt \(attempt): the check ended before it could be interrupted: \(run.ended.map { "\($0.exited ? "exit" : "signal") \($0.code)" } ?? ""), after \(polls) looks at /proc (last: \(seen); the binary: \(binary)), \(log())")
            kill(run.pid, SIGINT)
            let ended = run.wait()
            let stderr = log()
            try #require(ended.exited && ended.code == 130, "attempt \(attempt), blocked by the parent: \(blockedByTheParent): \(ended) \(stderr)")
            #expect(stderr.hasSuffix("--check interrupted by SIGINT; nothing was written\n") && stderr.split(separator: "\n").count == 1, "\(stderr)")
        }
    }
}
