// Every bad input ends with its documented exit code, one stderr line naming the culprit, and
// the output folder exactly as it was: no output, no hidden temporary file, no old file touched.

import Foundation
import SliceKit
import SliceMedia
import Testing

/// One failing command line and what it must produce.
struct BadRun: Sendable, CustomTestStringConvertible {
    let label: String
    let arguments: [String]
    let status: Int32
    /// Words the error line must contain (the path, the flag, the accepted values…).
    let mentions: [String]
    /// Puts fixtures in the folder before the run.
    var setup: @Sendable (String) throws -> Void = { _ in }

    var testDescription: String { label }

    /// A readable 64x36 PNG.
    static func goodPNG(_ name: String, in folder: String) throws {
        try StillWriter.write(DemoCards.destination(width: 64, height: 36), to: folder + "/" + name, format: .png)
    }

    static let all: [BadRun] = [
        BadRun(label: "missing --from file", arguments: tinyClip + ["--from", "nope.png", "--to", "b.png", "-o", "out.mp4", "-o", "seq/%03d.png"],
               status: 66, mentions: ["nope.png"]) { folder in
            try goodPNG("b.png", in: folder)
            try FileManager.default.createDirectory(atPath: folder + "/seq", withIntermediateDirectories: false)
        },
        BadRun(label: "a text file named .png", arguments: tinyClip + ["--from", "x.png", "--to", "b.png", "-o", "out.mp4"],
               status: 65, mentions: ["x.png"]) { folder in
            try writeFile(folder + "/x.png", Data("not a picture\n".utf8))
            try goodPNG("b.png", in: folder)
        },
        BadRun(label: "a truncated PNG", arguments: tinyClip + ["--from", "b.png", "--to", "cut.png", "-o", "out.mp4", "-o", "seq/%03d.png"],
               status: 65, mentions: ["cut.png"]) { folder in
            try goodPNG("b.png", in: folder)
            try goodPNG("whole.png", in: folder)
            let bytes = try #require(FileManager.default.contents(atPath: folder + "/whole.png"))
            try writeFile(folder + "/cut.png", bytes.prefix(bytes.count / 2))
            try FileManager.default.removeItem(atPath: folder + "/whole.png")
            try FileManager.default.createDirectory(atPath: folder + "/seq", withIntermediateDirectories: false)
        },
        BadRun(label: "--size with an odd side", arguments: tinyClip(["--size": "641x360"]) + ["-o", "out.mp4"],
               status: 64, mentions: ["--size", "641x360"]),
        BadRun(label: "--size too large", arguments: tinyClip(["--size": "9000x100"]) + ["-o", "out.mp4"],
               status: 64, mentions: ["--size", "9000x100"]),
        BadRun(label: "--fps 0", arguments: tinyClip(["--fps": "0"]) + ["-o", "out.mp4"], status: 64, mentions: ["--fps"]),
        BadRun(label: "--hold -1", arguments: tinyClip(["--hold": "-1"]) + ["-o", "out.mp4"], status: 64, mentions: ["--hold"]),
        BadRun(label: "--duration 0", arguments: tinyClip(["--duration": "0"]) + ["-o", "out.mp4"], status: 64, mentions: ["--duration"]),
        BadRun(label: "--easing wobble", arguments: tinyClip(["--easing": "wobble"]) + ["-o", "out.mp4"],
               status: 64, mentions: ["--easing", "wobble", "spring", "linear", "ease-in-out", "cubic-bezier"]),
        BadRun(label: "--crf 99", arguments: tinyClip(["--crf": "99"]) + ["-o", "out.mp4"], status: 64, mentions: ["--crf", "99"]),
        BadRun(label: "--jobs 0", arguments: tinyClip(["--jobs": "0"]) + ["-o", "out.mp4"], status: 64, mentions: ["--jobs"]),
        BadRun(label: "unknown flag", arguments: tinyClip + ["--wobble", "-o", "out.mp4"], status: 64, mentions: ["--wobble"]),
        BadRun(label: "--from without --to", arguments: tinyClip + ["--from", "b.png", "-o", "out.mp4"],
               status: 64, mentions: ["--to"]) { folder in try goodPNG("b.png", in: folder) },
        BadRun(label: "unknown --preset", arguments: tinyClip + ["--preset", "autumn", "-o", "out.mp4"],
               status: 64, mentions: ["autumn", "spring"]),
        BadRun(label: "output folder cannot be created (a file is in the way)", arguments: tinyClip + ["-o", "nowhere/out.mp4"],
               status: 73, mentions: ["nowhere", "not a folder"]) { folder in try writeFile(folder + "/nowhere", Data("a file".utf8)) },
        BadRun(label: "sequence folder cannot be created (a link to nothing)", arguments: tinyClip + ["-o", "frames/deeper/%05d.png"],
               status: 73, mentions: ["frames"]) { folder in
            try FileManager.default.createSymbolicLink(atPath: folder + "/frames", withDestinationPath: folder + "/gone")
        },
        BadRun(label: "a missing still after the output folders were made: they are taken back",
               arguments: tinyClip + ["--from", "a.png", "--to", "absent.png", "-o", "new/deeper/out.mp4"],
               status: 66, mentions: ["absent.png"]) { folder in try goodPNG("a.png", in: folder) },
        BadRun(label: "unknown output extension", arguments: tinyClip + ["-o", "out.avi"], status: 64, mentions: ["out.avi", ".mp4"]),
        BadRun(label: "a bad second output after a sequence", arguments: tinyClip + ["-o", "seq/%03d.png", "-o", "out.avi"],
               status: 64, mentions: ["out.avi"]) { folder in
            try FileManager.default.createDirectory(atPath: folder + "/seq", withIntermediateDirectories: false)
        },
        BadRun(label: "existing output without --force", arguments: tinyClip + ["-o", "out.mp4"],
               status: 73, mentions: ["out.mp4", "--force"]) { folder in
            try writeFile(folder + "/out.mp4", Data("an earlier clip".utf8))
        },
        BadRun(label: "existing sequence without --force", arguments: tinyClip + ["-o", "seq/%03d.png"],
               status: 73, mentions: ["000.png", "--force"]) { folder in
            try FileManager.default.createDirectory(atPath: folder + "/seq", withIntermediateDirectories: false)
            try writeFile(folder + "/seq/000.png", Data("an earlier frame".utf8))
        },
    ]
}

@Suite("slicevid make failures")
struct ExitCodeTests {
    /// Runs a failing command and checks the status, the one-line message and the folder.
    private func expectFailure(_ arguments: [String], in folder: String, status: Int32, mentions: [String]) throws {
        let before = FolderSnapshot(folder)
        let result = try CLI.make(arguments, in: folder)
        #expect(result.status == status && !result.signalled, "\(result)")
        #expect(result.stderrIsOneLine, "\(result)")
        #expect(result.stderr.hasPrefix("slicevid: error: "), "\(result)")
        for word in mentions { #expect(result.stderr.contains(word), "the message should name \(word): \(result)") }
        #expect(result.stdout.isEmpty)
        #expect(leftovers(in: folder).isEmpty, "temporary files left behind: \(leftovers(in: folder))")
        #expect(FolderSnapshot(folder) == before, "the folder changed: was [\(before)], now [\(FolderSnapshot(folder))]")
    }

    @Test("a bad input fails with its exit code and leaves the folder as it was", arguments: BadRun.all)
    func badInput(_ run: BadRun) throws {
        try withScratchFolder { folder in
            try run.setup(folder)
            try expectFailure(run.arguments, in: folder, status: run.status, mentions: run.mentions)
        }
    }

    @Test("a run that fails after its checks never touches an existing good output")
    func failedRunKeepsOldOutput() throws {
        try withScratchFolder { folder in
            let first = try CLI.make(tinyClip + ["-o", "out.mp4"], in: folder)
            try #require(first.status == 0, "\(first)")
            try BadRun.goodPNG("a.png", in: folder)
            try writeFile(folder + "/corrupt.png", Data(repeating: 0x89, count: 300))
            // --force passes the "exists" check; the corrupt --to fails only when decoded.
            try expectFailure(tinyClip + ["--from", "a.png", "--to", "corrupt.png", "-o", "out.mp4", "--force"],
                              in: folder, status: 65, mentions: ["corrupt.png"])
            #expect(try MediaReader.info(path: folder + "/out.mp4").frameCount == tinyClipFrames)
        }
    }

    @Test("a read-only output folder fails with 73",
          .enabled(if: ReadOnlyFolder.isSupported,
                   "root passes every permission check, so this needs a read-only bind mount (unshare + mount)"))
    func readOnlyFolder() throws {
        try withScratchFolder { folder in
            let locked = folder + "/locked"
            try FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: false)
            let result = try ReadOnlyFolder.run(try CLI.binary(), ["make"] + tinyClip + ["-o", locked + "/out.mp4"], readOnly: locked, in: folder)
            #expect(result.status == 73, "\(result)")
            #expect(result.stderrIsOneLine && result.stderr.contains(locked), "\(result)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: locked).isEmpty)
        }
    }
}

/// A folder made read-only for one child process only: root ignores permission bits (and
/// `access(W_OK)` is always true for it), but not a read-only mount. The bind mount lives in a
/// private mount namespace that disappears with the child, so nothing leaks onto the machine.
enum ReadOnlyFolder {
    static let isSupported: Bool = {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else { return false }
        let probe = FileManager.default.temporaryDirectory.appendingPathComponent("slicevidTests-ro-\(UUID().uuidString)").path
        guard (try? FileManager.default.createDirectory(atPath: probe, withIntermediateDirectories: false)) != nil else { return false }
        defer { try? FileManager.default.removeItem(atPath: probe) }
        let result = try? run("/usr/bin/touch", [probe + "/x"], readOnly: probe, in: probe)
        // touch must fail inside the namespace (read-only), and nothing may appear outside it.
        return result.map { $0.status != 0 && !$0.signalled } == true
            && ((try? FileManager.default.contentsOfDirectory(atPath: probe)) ?? ["?"]).isEmpty
            && result?.stderr.contains("Read-only") == true
    }()

    /// Runs `executable arguments` with `folder` bind-mounted read-only onto itself.
    static func run(_ executable: String, _ arguments: [String], readOnly folder: String, in cwd: String) throws -> CLIResult {
        let script = "mount --bind \"$1\" \"$1\" && mount -o remount,bind,ro \"$1\" && shift && exec \"$@\""
        return try CLI.run(["--mount", "--propagation", "private", "/bin/sh", "-c", script, "sh", folder, executable] + arguments,
                           in: cwd, executable: "/usr/bin/unshare")
    }
}
