// What a render prints when stderr is a log rather than a terminal: a few plain lines a cron
// mail can show, no progress-bar redraws; and nothing at all with --quiet.

import Foundation
import Testing

@Suite("slicevid make progress on a log")
struct ProgressReporterTests {
    @Test("a successful run prints a start line and a wrote line per output, without carriage returns")
    func plainLines() throws {
        try withScratchFolder { folder in
            try FileManager.default.createDirectory(atPath: folder + "/seq", withIntermediateDirectories: false)
            let result = try CLI.make(tinyClip + ["-o", "out.mp4", "-o", "seq/%03d.png"], in: folder)
            #expect(result.status == 0, "\(result)")
            #expect(!result.stderr.contains("\r"))
            #expect(result.stdout.isEmpty)
            let lines = result.stderr.split(separator: "\n")
            #expect(result.stderr.hasSuffix("\n"))
            try #require(lines.count == 3, "\(result)")
            #expect(lines[0].hasPrefix("slicevid: rendering \(tinyClipFrames) frames, 64x36"))
            #expect(lines[1].hasPrefix("slicevid: wrote out.mp4 (\(tinyClipFrames) frames"))
            #expect(lines[2].hasPrefix("slicevid: wrote seq/%03d.png (\(tinyClipFrames) frames"))
        }
    }

    @Test("--quiet prints nothing on success")
    func quiet() throws {
        try withScratchFolder { folder in
            let result = try CLI.make(tinyClip + ["-o", "out.mp4", "--quiet"], in: folder)
            #expect(result.status == 0, "\(result)")
            #expect(result.stderr.isEmpty && result.stdout.isEmpty, "\(result)")
            #expect(FileManager.default.fileExists(atPath: folder + "/out.mp4"))
        }
    }

    @Test("--quiet still reports an error")
    func quietError() throws {
        try withScratchFolder { folder in
            let result = try CLI.make(tinyClip + ["-o", "nowhere/out.mp4", "-q"], in: folder)
            #expect(result.status == 73)
            #expect(result.stderrIsOneLine && result.stderr.contains("nowhere"), "\(result)")
        }
    }
}
