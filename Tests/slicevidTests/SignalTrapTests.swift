// SIGTERM (a scheduler's timeout) and SIGINT (Ctrl-C) mid-render: the right exit status, no
// partial file, and an earlier output left exactly as it was.

import Foundation
import SliceMedia
import Testing

// Serialized: each test keeps both cores busy with a 720p render while it waits to signal it.
@Suite("slicevid make interrupted", .serialized)
struct SignalTrapTests {
    /// Starts a long render to `-o out.mp4 -o seq/%04d.png`, waits until it is writing its
    /// temporary outputs, sends `signal`, and returns how it ended.
    private func interrupt(with signal: Int32, times: Int = 1, extra: [String], in folder: String) throws -> CLIResult {
        try CLI.run(["make"] + longClip + extra + ["-o", "out.mp4", "-o", "seq/%04d.png"], in: folder, timeout: 20) { process, stderr in
            // Wait for the start line (printed after the stills are decoded and the encoders
            // open), then let it render a little.
            let deadline = Date().addingTimeInterval(30)
            while !stderr().contains("slicevid: rendering"), process.isRunning, Date() < deadline { usleep(10_000) }
            try #require(process.isRunning && stderr().contains("slicevid: rendering"), "the render did not start: \(stderr())")
            usleep(500_000)
            try #require(process.isRunning, "the render finished before it could be interrupted")
            // Mid-render, the outputs exist only under their temporary names.
            #expect(leftovers(in: folder).contains { $0.hasSuffix(".partial") }, "no temporary file while rendering")
            #expect(leftovers(in: folder).contains { $0.hasPrefix("seq/.slicevid-") }, "no temporary folder while rendering")
            for time in 0..<times {
                // Apart, but well inside the clean-up: two pending signals would be merged into one.
                if time > 0 { usleep(5_000) }
                kill(process.processIdentifier, signal)
            }
        }
    }

    @Test("SIGTERM stops the render with 143, leaves no partial file and keeps the earlier output")
    func sigterm() throws {
        try withScratchFolder { folder in
            try FileManager.default.createDirectory(atPath: folder + "/seq", withIntermediateDirectories: false)
            let earlier = try CLI.make(tinyClip + ["-o", "out.mp4"], in: folder)
            try #require(earlier.status == 0, "\(earlier)")
            let before = FolderSnapshot(folder)

            let started = Date()
            let result = try interrupt(with: SIGTERM, extra: ["--force"], in: folder)
            #expect(result.status == 143 && !result.signalled, "\(result)")
            #expect(Date().timeIntervalSince(started) < 15, "the render should stop promptly")
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

    @Test("a second SIGINT exits at once, and still leaves no temporary file")
    func secondSignal() throws {
        try withScratchFolder { folder in
            try FileManager.default.createDirectory(atPath: folder + "/seq", withIntermediateDirectories: false)
            let result = try interrupt(with: SIGINT, times: 2, extra: [], in: folder)
            #expect(result.status == 130 && !result.signalled, "\(result)")
            // One line says it stopped at once, and nothing follows it.
            #expect(result.stderr.hasSuffix("slicevid: error: interrupted by SIGINT again; stopped at once, no output was written\n"), "\(result)")
            #expect(leftovers(in: folder).isEmpty, "left behind: \(leftovers(in: folder))")
            #expect(FolderSnapshot(folder).entries.keys.sorted() == ["seq"])
        }
    }
}
