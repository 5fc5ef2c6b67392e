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
