// Nightly re-renders must be safe to repeat: the same seed and inputs give the same bytes,
// whatever the number of render threads.

import Foundation
import Testing

@Suite("slicevid make determinism")
struct DeterminismTests {
    /// Renders `tinyClip + extra` to `name` in `folder` and returns the file's bytes.
    private func render(_ name: String, _ extra: [String], in folder: String) throws -> Data {
        let result = try CLI.make(tinyClip + extra + ["-o", name], in: folder)
        #expect(result.status == 0, "\(result)")
        return try #require(FileManager.default.contents(atPath: folder + "/" + name))
    }

    @Test("two runs with the same seed write byte-identical files")
    func sameSeed() throws {
        try withScratchFolder { folder in
            let a = try render("a.mp4", ["--seed", "42"], in: folder)
            let b = try render("b.mp4", ["--seed", "42"], in: folder)
            #expect(!a.isEmpty)
            #expect(a == b)
        }
    }

    @Test("Matroska and WebM are byte-identical run to run too (no random segment UIDs)", arguments: ["mkv", "webm"])
    func matroska(extension: String) throws {
        try withScratchFolder { folder in
            let a = try render("a.\(`extension`)", ["--seed", "42"], in: folder)
            let b = try render("b.\(`extension`)", ["--seed", "42"], in: folder)
            #expect(!a.isEmpty)
            #expect(a == b)
        }
    }

    @Test("several H.264 outputs of one run are byte-identical run to run, and equal settings give equal files")
    func severalEncoders() throws {
        try withScratchFolder { folder in
            let outputs = ["-o", "a.mp4", "-o", "b.mkv:codec=h264", "-o", "c.mp4:crf=30", "-o", "d.mp4:crf=30"]
            var runs: [[Data]] = []
            for run in 0..<3 {
                let result = try CLI.make(tinyClip + outputs + ["--force"], in: folder)
                #expect(result.status == 0, "run \(run): \(result)")
                runs.append(try ["a.mp4", "b.mkv", "c.mp4", "d.mp4"].map { try #require(FileManager.default.contents(atPath: folder + "/" + $0)) })
            }
            #expect(runs[0] == runs[1] && runs[1] == runs[2])
            #expect(runs[0][2] == runs[0][3], "two outputs with the same settings, encoded side by side")
        }
    }

    @Test("--jobs 1 and --jobs 2 write byte-identical files")
    func threadCount() throws {
        try withScratchFolder { folder in
            let one = try render("one.mp4", ["--jobs", "1"], in: folder)
            let two = try render("two.mp4", ["--jobs", "2"], in: folder)
            #expect(one == two)
        }
    }

    @Test("a different --seed gives a different clip")
    func differentSeed() throws {
        try withScratchFolder { folder in
            let a = try render("a.mp4", ["--seed", "1"], in: folder)
            let b = try render("b.mp4", ["--seed", "2"], in: folder)
            #expect(a != b)
        }
    }
}
