// `make --dry-run` refuses the stills a run refuses before decoding them: a missing still, a
// folder, a FIFO, a file that is no image, a picture larger than slicevid decodes — with the
// run's exit code and the run's line (a missing still passed the dry run and failed the run
// with 66). What it leaves to the run, data damaged past a still's header, is said in
// docs/outputs.md and checked here too.

import Foundation
import Glibc
import SliceKit
import SliceMedia
import Testing

@Suite("make --dry-run and the stills")
struct DryRunStillTests {
    @Test("each still a run refuses before decoding, the dry run refuses with the same code and line")
    func sameRefusalAsTheRun() throws {
        try withScratchFolder { outside in
            try withScratchFolder { folder in
                try StillWriter.write(DemoCards.destination(width: 64, height: 36), to: folder + "/b.png", format: .png)
                try Data("not a picture\n".utf8).write(to: URL(fileURLWithPath: folder + "/text.png"))
                // A PNG header declaring 100000x100000: refused from its header alone.
                try StillInputCLITests.png(width: 100_000, height: 100_000, rows: 1).write(to: URL(fileURLWithPath: folder + "/huge.png"))
                try FileManager.default.createDirectory(atPath: folder + "/folder.png", withIntermediateDirectories: false)
                let fifo = outside + "/pipe.png"
                #expect(mkfifo(fifo, 0o600) == 0)
                for (still, status, words) in [("missing.png", Int32(66), "missing.png: no such file"),
                                               ("folder.png", 66, "folder.png: is a folder"),
                                               (fifo, 66, "named pipe (FIFO)"),
                                               ("text.png", 65, "text.png: is not a readable image"),
                                               ("huge.png", 65, "huge.png: is 100000x100000 pixels, larger than slicevid decodes")] {
                    let run = try CLI.make(tinyClip + ["--from", "b.png", "--to", still, "-o", "x.mp4"], in: folder)
                    let dry = try CLI.make(tinyClip + ["--from", "b.png", "--to", still, "-o", "x.mp4", "--dry-run"], in: folder)
                    #expect(run.status == status && run.stderr.contains(words), "run, \(still): \(run)")
                    #expect(dry.status == status && dry.stderrIsOneLine && dry.stderr == run.stderr, "dry run, \(still): \(dry)")
                    #expect(dry.stdout.isEmpty, "\(dry.stdout)")
                }
                #expect(!FileManager.default.fileExists(atPath: folder + "/x.mp4"))
            }
        }
    }

    @Test("a still damaged past its header passes the dry run, as documented, and the run refuses it")
    func damagedPastTheHeaderIsTheRunsToFind() throws {
        try withScratchFolder { folder in
            try StillWriter.write(DemoCards.destination(width: 64, height: 36), to: folder + "/b.png", format: .png)
            // A whole header and a picture whose rows stop after one of 36.
            try StillInputCLITests.png(width: 64, height: 36, rows: 1).write(to: URL(fileURLWithPath: folder + "/cut.png"))
            let dry = try CLI.make(tinyClip + ["--from", "b.png", "--to", "cut.png", "-o", "x.mp4", "--dry-run"], in: folder)
            #expect(dry.status == 0 && dry.stdout.hasPrefix("x.mp4: "), "\(dry)")
            let run = try CLI.make(tinyClip + ["--from", "b.png", "--to", "cut.png", "-o", "x.mp4"], in: folder)
            #expect(run.status == 65 && run.stderr.contains("cut.png: is truncated or corrupt"), "\(run)")
        }
    }
}
