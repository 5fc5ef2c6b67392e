// SIGTERM (a scheduler's timeout) and SIGINT (Ctrl-C) mid-render: the right exit status, no
// partial file, and an earlier output left exactly as it was.

import Foundation
import SliceMedia
import Testing

// Serialized: each test keeps both cores busy with a 720p render while it waits to signal it.
@Suite("slicevid make interrupted", .serialized)
struct SignalTrapTests {
    @Test("a second signal does not wait for the wind-down: it removes the temporary files and exits at once")
    func secondSignalExitsAtOnce() throws {
        try withScratchFolder { folder in
            try FileManager.default.createDirectory(atPath: folder + "/seq", withIntermediateDirectories: false)
            // SIGINT and SIGTERM arrive together: whichever comes second finds the render still
            // winding down from the first, so only the second-signal rule can end it this early —
            // without the rule, the first signal's wind-down runs to its usual last line.
            // A third output in folders the run makes: they go too (docs/outputs.md promises a
            // failed run removes the empty folders it made).
            let result = try interrupt(with: SIGTERM, then: [SIGINT], together: true, extra: ["-o", "made/later/x.mp4"], in: folder)
            #expect([130, 143].contains(result.status) && !result.signalled, "\(result)")
            #expect(!result.stderr.contains("no output was written"), "the run wound down as after one signal: \(result)")
            // One line says so, and it is the last.
            #expect(result.stderr.hasSuffix("again; stopped at once, its temporary files removed\n"), "\(result)")
            #expect(leftovers(in: folder).isEmpty, "left behind: \(leftovers(in: folder))")
            #expect(FolderSnapshot(folder).entries.keys.sorted() == ["seq"])
        }
    }

    /// Starts a long render to `-o out.mp4 -o seq/%04d.png`, waits until it is writing its
    /// temporary outputs, sends `signal`, and returns how it ended.
    /// - Parameter together: send `signals` while the process is stopped, so that they arrive
    ///   at once when it continues, before any wind-down can finish.
    private func interrupt(with signal: Int32, then others: [Int32] = [], together: Bool = false,
                           extra: [String], in folder: String) throws -> CLIResult {
        try CLI.run(["make"] + longClip + extra + ["-o", "out.mp4", "-o", "seq/%04d.png"], in: folder) { process, stderr in
            // Wait until frames are being written: the sequence's temporary folder holds a few.
            // (No deadline: CLI.run ends a process that outlives its timeout, and the wait ends
            // with it.)
            while process.isRunning, framesWritten(in: folder) < 3 { usleep(5_000) }
            try #require(process.isRunning, "the render finished before it could be interrupted: \(stderr())")
            // Mid-render, the outputs exist only under their temporary names.
            #expect(leftovers(in: folder).contains { $0.hasSuffix(".partial") }, "no temporary file while rendering")
            #expect(leftovers(in: folder).contains { $0.hasPrefix("seq/.slicevid-") }, "no temporary folder while rendering")
            if together { kill(process.processIdentifier, SIGSTOP) }
            defer { if together { kill(process.processIdentifier, SIGCONT) } }
            for other in others { kill(process.processIdentifier, other) }
            kill(process.processIdentifier, signal)
        }
    }

    @Test("SIGTERM stops the render with 143, leaves no partial file and keeps the earlier output")
    func sigterm() throws {
        try withScratchFolder { folder in
            try FileManager.default.createDirectory(atPath: folder + "/seq", withIntermediateDirectories: false)
            let earlier = try CLI.make(tinyClip + ["-o", "out.mp4"], in: folder)
            try #require(earlier.status == 0, "\(earlier)")
            let before = FolderSnapshot(folder)

            let result = try interrupt(with: SIGTERM, extra: ["--force"], in: folder)
            #expect(result.status == 143 && !result.signalled, "\(result)")
            #expect(result.stderr.hasSuffix("slicevid: error: interrupted by SIGTERM; no output was written\n"), "\(result)")
            #expect(leftovers(in: folder).isEmpty, "left behind: \(leftovers(in: folder))")
            #expect(FolderSnapshot(folder) == before, "was [\(before)], now [\(FolderSnapshot(folder))]")
            #expect(try MediaReader.info(path: folder + "/out.mp4").frameCount == tinyClipFrames)
        }
    }

    @Test("SIGINT stops the render with 130 and writes nothing")
    func sigint() throws {
        try withScratchFolder { folder in
            try FileManager.default.createDirectory(atPath: folder + "/seq", withIntermediateDirectories: false)
            let result = try interrupt(with: SIGINT, extra: [], in: folder)
            #expect(result.status == 130 && !result.signalled, "\(result)")
            #expect(result.stderr.contains("interrupted by SIGINT"), "\(result)")
            #expect(leftovers(in: folder).isEmpty, "left behind: \(leftovers(in: folder))")
            #expect(FolderSnapshot(folder).entries.keys.sorted() == ["seq"])
        }
    }
}

/// PNG frames the render has written so far into the sequence's temporary folder.
private func framesWritten(in folder: String) -> Int {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder + "/seq")) ?? []
    return names.filter { $0.hasPrefix(".slicevid-") }.reduce(0) { count, name in
        count + ((try? FileManager.default.contentsOfDirectory(atPath: folder + "/seq/" + name))?.count ?? 0)
    }
}
