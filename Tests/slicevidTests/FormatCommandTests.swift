// The formats from the command line: one render to MP4, WebM, GIF and a poster; `--dry-run`
// predicting what `probe` then finds; per-output options; and every refusal's exit code with the
// folder left as it was.

import Foundation
import Testing

@Suite("make formats, --dry-run and probe")
struct FormatCommandTests {
    @Test("one run writes MP4, WebM, GIF and a poster, and probe finds what --dry-run predicted")
    func fanOutMatchesDryRun() throws {
        try withScratchFolder { dir in
            let outputs = ["-o", "promo.mp4", "-o", "promo.webm:crf=40", "-o", "preview.gif:gif-width=32:gif-fps=5", "-o", "poster.png"]
            let dry = try CLI.make(tinyClip + outputs + ["--dry-run"], in: dir)
            #expect(dry.status == 0, "\(dry)")
            #expect(dry.stderr.contains("dry run") && dry.stderr.contains("nothing was written"))
            #expect(FolderSnapshot(dir).entries.isEmpty, "a dry run writes nothing")
            let predicted = dry.stdout.split(separator: "\n")
            #expect(predicted.count == 4)

            let made = try CLI.make(tinyClip + outputs, in: dir)
            #expect(made.status == 0, "\(made)")
            #expect(Set(FolderSnapshot(dir).entries.keys) == ["promo.mp4", "promo.webm", "preview.gif", "poster.png"])
            let probed = try CLI.run(["probe", "promo.mp4", "promo.webm", "preview.gif", "poster.png"], in: dir)
            #expect(probed.status == 0, "\(probed)")
            let found = probed.stdout.split(separator: "\n")
            #expect(found.count == 4)
            for (plan, file) in zip(predicted, found) {
                let want = ProbeLine.fields(plan), got = ProbeLine.fields(file)
                #expect(plan.prefix { $0 != ":" } == file.prefix { $0 != ":" })
                #expect(want["codec"] == got["codec"] && want["size"] == got["size"] && want["frames"] == got["frames"], "\(plan)\n\(file)")
                if want["duration"] != "none" {
                    #expect(want["pix_fmt"] == got["pix_fmt"] || want["codec"] == "gif", "\(plan)\n\(file)")
                    let wanted = Double(want["duration"] ?? "") ?? -1, gotten = Double(got["duration"] ?? "") ?? 0
                    #expect(abs(wanted - gotten) < 0.011, "\(plan)\n\(file)")
                }
            }
            let mp4 = ProbeLine.fields(found[0])
            #expect(mp4["tag"] == "avc1" && mp4["color_primaries"] == "bt709" && mp4["color_range"] == "tv")
            #expect(ProbeLine.fields(predicted[1])["crf"] == "40")
            #expect(ProbeLine.fields(found[2])["size"] == "32x18" && ProbeLine.fields(found[2])["frames"] == "4")
        }
    }

    @Test("probe gives stills and PNG sequences no frame rate, and counts a sequence's frames")
    func probeTimeless() throws {
        try withScratchFolder { dir in
            try FileManager.default.createDirectory(atPath: dir + "/seq", withIntermediateDirectories: false)
            let made = try CLI.make(tinyClip + ["-o", "seq/%03d.png", "-o", "poster.png", "-o", "clip.mp4"], in: dir)
            #expect(made.status == 0, "\(made)")
            let probed = try CLI.run(["probe", "seq/%03d.png", "poster.png", "clip.mp4"], in: dir)
            #expect(probed.status == 0, "\(probed)")
            let lines = probed.stdout.split(separator: "\n").map(ProbeLine.fields)
            #expect(lines.count == 3)
            guard lines.count == 3 else { return }
            #expect(lines[0]["fps"] == "none" && lines[0]["duration"] == "none" && lines[0]["frames"] == String(tinyClipFrames), "\(lines[0])")
            #expect(lines[1]["fps"] == "none" && lines[1]["duration"] == "none" && lines[1]["frames"] == "1", "\(lines[1])")
            #expect(lines[2]["fps"] == "10", "\(lines[2])")
        }
    }

    @Test("--dry-run does every check a real run does: an existing output is exit 73")
    func dryRunChecks() throws {
        try withScratchFolder { dir in
            _ = FileManager.default.createFile(atPath: dir + "/promo.mp4", contents: Data("old".utf8))
            let run = try CLI.make(tinyClip + ["-o", "promo.mp4", "--dry-run"], in: dir)
            #expect(run.status == 73 && run.stderrIsOneLine && run.stderr.contains("--force"), "\(run)")
            #expect(run.stdout.isEmpty)
        }
    }

    @Test("probe describes a file; a missing file is 66, a non-media file 65, no file 64")
    func probe() throws {
        try withScratchFolder { dir in
            let made = try CLI.make(tinyClip + ["-o", "clip.mp4:codec=hevc"], in: dir)
            #expect(made.status == 0, "\(made)")
            let probed = try CLI.run(["probe", "clip.mp4"], in: dir)
            let fields = ProbeLine.fields(Substring(probed.stdout))
            #expect(probed.stdout.hasPrefix("clip.mp4: "))
            #expect(fields["codec"] == "hevc" && fields["tag"] == "hvc1" && fields["profile"] == "main")
            #expect(fields["pix_fmt"] == "yuv420p" && fields["size"] == "64x36" && fields["frames"] == "6" && fields["duration"] == "0.600")
            #expect(fields["color_space"] == "bt709" && fields["alpha"] == "no")

            _ = FileManager.default.createFile(atPath: dir + "/notes.txt", contents: Data("hello".utf8))
            for (arguments, status) in [(["probe", "gone.mp4"], Int32(66)), (["probe", "notes.txt"], 65), (["probe"], 64)] {
                let run = try CLI.run(arguments, in: dir)
                #expect(run.status == status && run.stderrIsOneLine && run.stdout.isEmpty, "\(arguments): \(run)")
            }
        }
    }

    @Test("a transparent overlay: WebM keeps alpha; MP4 is refused before anything is written")
    func transparentOverlay() throws {
        try withScratchFolder { dir in
            let ok = try CLI.make(tinyClip + ["--background", "transparent", "-o", "overlay.webm"], in: dir)
            #expect(ok.status == 0, "\(ok)")
            let probed = ProbeLine.fields(Substring(try CLI.run(["probe", "overlay.webm"], in: dir).stdout))
            #expect(probed["pix_fmt"] == "yuva420p" && probed["alpha"] == "yes")
        }
    }

    /// A command line that must fail, and what it must say.
    struct Refusal: Sendable, CustomTestStringConvertible {
        let label: String
        let arguments: [String]
        let status: Int32
        let mentions: [String]
        var testDescription: String { label }
    }

    static let refusals: [Refusal] = [
        Refusal(label: "alpha in MP4", arguments: ["--background", "transparent", "-o", "a.webm", "-o", "promo.mp4"],
                status: 64, mentions: ["promo.mp4", "transparent"]),
        Refusal(label: "a lossless GIF", arguments: ["-o", "a.gif:crf=0"], status: 64, mentions: ["a.gif", "lossless"]),
        Refusal(label: "--crf out of range for VP9", arguments: ["-o", "a.webm", "--crf", "64"], status: 64, mentions: ["a.webm", "--crf 64", "0–63"]),
        Refusal(label: "--crf with --bitrate", arguments: ["-o", "a.mp4", "--crf", "20", "--bitrate", "2M"], status: 64, mentions: ["--crf", "--bitrate"]),
        Refusal(label: "a pixel format the codec cannot take", arguments: ["-o", "a.mp4", "--pix-fmt", "yuva420p"],
                status: 64, mentions: ["--pix-fmt", "none of the outputs"]),
        Refusal(label: "an unknown codec", arguments: ["-o", "a.mp4", "--codec", "mpeg2"], status: 64, mentions: ["--codec", "h264", "hevc"]),
        Refusal(label: "--bitrate that is not a rate", arguments: ["-o", "a.mp4", "--bitrate", "lots"], status: 64, mentions: ["--bitrate", "2500k"]),
        Refusal(label: "an existing output", arguments: ["-o", "a.webm", "-o", "old.mp4"], status: 73, mentions: ["old.mp4", "--force"]),
    ]

    @Test("each impossible request exits with its code, one line naming the output, the folder untouched", arguments: refusals)
    func refused(_ refusal: Refusal) throws {
        try withScratchFolder { dir in
            _ = FileManager.default.createFile(atPath: dir + "/old.mp4", contents: Data("an earlier clip".utf8))
            let before = FolderSnapshot(dir)
            let run = try CLI.make(tinyClip + refusal.arguments, in: dir)
            #expect(run.status == refusal.status, "\(run)")
            #expect(run.stderrIsOneLine && run.stderr.hasPrefix("slicevid: error: "), "\(run)")
            for word in refusal.mentions { #expect(run.stderr.contains(word), "should mention \(word): \(run)") }
            #expect(FolderSnapshot(dir) == before)
        }
    }

    @Test("a stream that fails part-way (stdout on a full disk) stops every output and leaves the old ones")
    func diskFullMidWay() throws {
        try withScratchFolder { dir in
            try FileManager.default.createDirectory(atPath: dir + "/seq", withIntermediateDirectories: false)
            _ = FileManager.default.createFile(atPath: dir + "/promo.mp4", contents: Data("an earlier clip".utf8))
            let before = FolderSnapshot(dir)
            let run = try CLI.run(["make", "--size", "320x180", "--fps", "10", "--hold", "0.5", "--duration", "1", "--slices", "16",
                                         "--encoder-preset", "ultrafast", "--force", "--quiet",
                                         "-o", "promo.mp4", "-o", "seq/%03d.png", "-o", "promo.gif", "-o", "-"],
                                        in: dir, standardOutput: FileHandle(forWritingAtPath: "/dev/full"))
            #expect(run.status == 74, "\(run)")
            #expect(run.stderrIsOneLine && run.stderr.contains("-o -"), "\(run)")
            #expect(FolderSnapshot(dir) == before, "left: \(FolderSnapshot(dir))")
        }
    }

    @Test("help lists the encoding flags and the per-output syntax; probe has its own help")
    func help() throws {
        try withScratchFolder { dir in
            let make = try CLI.run(["make", "--help"], in: dir)
            for flag in ["--codec", "--crf", "--bitrate", "--encoder-preset", "--pix-fmt", "--gif-fps", "--gif-width", "--poster-at",
                         "--dry-run", "PATH[:KEY=VALUE...]", "promo.webm:crf=32"] {
                #expect(make.stdout.contains(flag), "make --help should mention \(flag)")
            }
            let probe = try CLI.run(["probe", "--help"], in: dir)
            #expect(probe.status == 0 && probe.stdout.contains("USAGE: slicevid probe [--json] FILE"))
            #expect(try CLI.run(["--help"], in: dir).stdout.contains("probe"))
        }
    }
}

/// Reads the `PATH: key=value …` lines of `probe` and `make --dry-run`.
enum ProbeLine {
    /// The pairs after `PATH: `, quotes removed.
    static func fields(_ line: Substring) -> [String: String] {
        guard let colon = line.range(of: ": ") else { return [:] }
        var fields: [String: String] = [:]
        var rest = line[colon.upperBound...]
        while let equals = rest.firstIndex(of: "=") {
            let key = String(rest[..<equals]).trimmingCharacters(in: .whitespaces)
            rest = rest[rest.index(after: equals)...]
            let value: Substring
            if rest.first == "\"", let close = rest.dropFirst().firstIndex(of: "\"") {
                value = rest[rest.index(after: rest.startIndex)..<close]
                rest = rest[rest.index(after: close)...]
            } else {
                let end = rest.firstIndex(of: " ") ?? rest.endIndex
                value = rest[..<end]
                rest = rest[end...]
            }
            fields[key] = String(value)
        }
        return fields
    }
}
