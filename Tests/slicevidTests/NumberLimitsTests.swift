// Every number a user can give is range-checked before any arithmetic: what once trapped
// (exit 132) or was read as hexadecimal is now exit 64 with one line naming the flag or field
// and the accepted range, nothing written, and `--dry-run` refuses exactly what a render would.

import Foundation
import SliceKit
import SliceMedia
import Testing

@Suite("numbers from input are checked")
struct NumberLimitsTests {
    /// A flag value that must be refused, and what the error line must say.
    struct Case: Sendable, CustomTestStringConvertible {
        let flag: String
        let value: String
        let mentions: [String]
        var testDescription: String { "\(flag) \(value.prefix(40))" }
    }

    static let cases: [Case] = [
        // The reproducers: overflow traps, hexadecimal read as a number, an easing that traps mid-render.
        Case(flag: "--fps", value: "1/38430716820228233", mentions: ["1…240", "1000000"]),
        Case(flag: "--fps", value: "1/9223372036854775807", mentions: ["1…240"]),
        Case(flag: "--fps", value: "0x1E", mentions: ["'0x1E'", "1…240"]),
        Case(flag: "--fps", value: "0.5", mentions: ["1…240"]),
        Case(flag: "--easing", value: "cubic-bezier(0,1e20,1,0)", mentions: ["y1 and y2 must be in [-10, 10]"]),
        Case(flag: "--easing", value: "spring(damping: 0.0001)", mentions: ["0.01…1"]),
        Case(flag: "--easing", value: "spring(stiffness: 1e-300, damping: 10000, mass: 1e-300)", mentions: ["0.01…10000"]),
        Case(flag: "--easing", value: "spring(damping: 0.5, velocity: 1e300)", mentions: ["-100…100"]),
        Case(flag: "--easing", value: "cubic-bezier(0,0x10,1,0)", mentions: ["'0x10' is not a number"]),
        // Every other number.
        Case(flag: "--size", value: "99999999999999999999x36", mentions: ["WxH", "8192"]),
        Case(flag: "--size", value: "64xx36", mentions: ["WxH"]),
        Case(flag: "--hold", value: "1e999", mentions: ["0…3600"]),
        Case(flag: "--hold", value: "0x10", mentions: ["0…3600"]),
        Case(flag: "--hold", value: "3601", mentions: ["0…3600"]),
        Case(flag: "--duration", value: "1e-300", mentions: ["0.001…3600"]),
        Case(flag: "--end-hold", value: "-1", mentions: ["0…3600"]),
        Case(flag: "--end-hold", value: "nan", mentions: ["0…3600"]),
        Case(flag: "--stagger", value: "1e308", mentions: ["3600"]),
        Case(flag: "--slices", value: "99999999999999999999", mentions: ["8192"]),
        Case(flag: "--slices", value: "0px", mentions: ["8192px"]),
        Case(flag: "--travel", value: "1,1e300", mentions: ["0…100"]),
        Case(flag: "--travel", value: "1,,4", mentions: ["MIN,MAX"]),
        Case(flag: "--motion-blur", value: "99999999999", mentions: ["1 (off)…32"]),
        Case(flag: "--motion-amount", value: "1e300", mentions: ["0.01…1"]),
        Case(flag: "--motion-amount", value: "nan", mentions: ["0.01…1"]),
        Case(flag: "--motion-amount", value: "0x1", mentions: ["0.01…1"]),
        Case(flag: "--motion", value: "zoom\u{1B}[2J", mentions: ["push-in"]),
        Case(flag: "--motion-easing", value: "spring(damping: 0.0001)", mentions: ["0.01…1"]),
        Case(flag: "--seed", value: "-1", mentions: ["0…18446744073709551615"]),
        Case(flag: "--seed", value: "18446744073709551616", mentions: ["0…18446744073709551615"]),
        Case(flag: "--background", value: "#12345G", mentions: ["#RRGGBB"]),
        Case(flag: "--crf", value: "99999999999999999999", mentions: ["0–51"]),
        Case(flag: "--crf", value: "-1", mentions: ["0–51"]),
        Case(flag: "--bitrate", value: "1e999k", mentions: ["2000M"]),
        Case(flag: "--bitrate", value: "0x10M", mentions: ["2000M"]),
        Case(flag: "--gif-fps", value: "0x10", mentions: ["1–50"]),
        Case(flag: "--gif-width", value: "1e3", mentions: ["16–8192"]),
        Case(flag: "--poster-at", value: "inf", mentions: ["seconds"]),
        Case(flag: "--jobs", value: "1e2", mentions: ["1–64"]),
        Case(flag: "--encoder-preset", value: "fast\u{1B}[2J", mentions: ["ultrafast"]),
        // The music bed's numbers, refused before the song is even opened.
        Case(flag: "--audio-start", value: "nan", mentions: ["0–86400"]),
        Case(flag: "--audio-start", value: "1e300", mentions: ["0–86400"]),
        Case(flag: "--audio-start", value: "-0.5", mentions: ["0–86400"]),
        Case(flag: "--audio-fade-in", value: "-1", mentions: ["0–3600"]),
        Case(flag: "--audio-fade-out", value: "inf", mentions: ["0–3600"]),
        Case(flag: "--loudness", value: "0x10", mentions: ["-70 to -5"]),
        Case(flag: "--volume", value: "1e999", mentions: ["-60 to 30"]),
        Case(flag: "--audio", value: "song.mp3:stream=99999", mentions: ["0–1023"]),
    ]

    @Test("an out-of-range value is exit 64, one line naming the flag and range, nothing written, with or without --dry-run",
          arguments: cases)
    func refused(_ bad: Case) throws {
        try withScratchFolder { folder in
            let before = FolderSnapshot(folder)
            var lines: [String] = []
            for dryRun in [false, true] {
                let arguments = tinyClip([bad.flag: bad.value]) + ["-o", "out.mp4"] + (dryRun ? ["--dry-run"] : [])
                let result = try CLI.make(arguments, in: folder)
                #expect(result.status == 64 && !result.signalled, "\(result)")
                #expect(result.stderrIsOneLine && result.stderr.hasPrefix("slicevid: error: ") && result.stderr.contains(bad.flag), "\(result)")
                for word in bad.mentions { #expect(result.stderr.contains(word), "should mention \(word): \(result)") }
                #expect(!result.stderr.contains("\u{1B}"), "\(result)")
                #expect(result.stdout.isEmpty)
                lines.append(result.stderr)
            }
            // --dry-run refuses exactly what a render refuses, with the same words.
            #expect(lines[0] == lines[1])
            #expect(FolderSnapshot(folder) == before)
        }
    }

    @Test("a preset's fps that once trapped is refused, with and without --dry-run")
    func presetFrameRate() throws {
        try withScratchFolder { folder in
            try writeFile(folder + "/house.json", Data(#"{"fps": "1/9223372036854775807"}"#.utf8))
            let before = FolderSnapshot(folder)
            for extra in [[], ["--dry-run"]] {
                let result = try CLI.make(["--preset", "./house.json", "-o", "out.mp4"] + extra, in: folder)
                #expect(result.status == 64 && !result.signalled, "\(result)")
                #expect(result.stderrIsOneLine && result.stderr.hasPrefix("slicevid: error: ./house.json: fps: '1/9223372036854775807' is not valid; expected frames per second 1…240"), "\(result)")
            }
            #expect(FolderSnapshot(folder) == before)
        }
    }

    @Test("a 10 MB value is quoted cut to 80 characters with its length")
    func hugeValue() throws {
        try withScratchFolder { folder in
            // Given through a preset: a 10 MB argument is past what one argv string may hold.
            let easing = "cubic-bezier(" + String(repeating: "1", count: 10 * 1024 * 1024) + ")"
            try writeFile(folder + "/huge.json", Data("{\"easing\": \"\(easing)\"}".utf8))
            let result = try CLI.make(["--preset", "./huge.json", "-o", "out.mp4"], in: folder)
            #expect(result.status == 64 && result.stderrIsOneLine, "\(result.status)")
            #expect(result.stderr.utf8.count < 1000, "\(result.stderr.utf8.count) bytes")
            #expect(result.stderr.contains("'\(easing.prefix(80))…' (\(easing.count) characters)"))
        }
    }

    @Test("limits at their edges are accepted: 1 and 240 fps, 1000000/999999, 3600 s, cubic y at ±10")
    func edgesAreAccepted() throws {
        try withScratchFolder { folder in
            for flags in [["--fps", "1"], ["--fps", "240"], ["--fps", "1000000/999999"], ["--fps", "240000/1001"],
                          ["--hold", "3600"], ["--duration", "0.001"], ["--easing", "cubic-bezier(0,-10,1,10)"],
                          ["--easing", "spring(damping: 0.01, velocity: -100)"], ["--easing", "spring(stiffness: 0.01, damping: 10000, mass: 0.01)"]] {
                let result = try CLI.make(tinyClip([flags[0]: flags[1]]) + ["-o", "out.mp4", "--dry-run"], in: folder)
                #expect(result.status == 0, "\(flags): \(result)")
            }
        }
    }

    /// The easing that trapped mid-render and the fastest accepted springs render to the end,
    /// and the clip decodes with every frame.
    @Test("extreme accepted curves render whole clips")
    func extremeCurvesRender() throws {
        try withScratchFolder { folder in
            for (index, easing) in ["cubic-bezier(0,10,1,-10)", "spring(damping: 0.01, velocity: 100)", "spring(damping: 1, velocity: 100)",
                                    "spring(stiffness: 10000, damping: 0.01, mass: 0.01)"].enumerated() {
                let result = try CLI.make(tinyClip(["--travel": "100,100"]) + ["--easing", easing, "--motion-blur", "3", "-o", "\(index).mp4", "-q"], in: folder)
                #expect(result.status == 0 && result.stderr.isEmpty, "\(easing): \(result)")
                #expect(try MediaReader.info(path: folder + "/\(index).mp4").frameCount == tinyClipFrames)
            }
        }
    }

    /// The extreme frame rates give time bases at the edge of what encoders take (1000000/999999
    /// fps is a 999999/1000000 s tick): every encoder opens and writes what the plan says.
    @Test("the edge frame rates render with every frame", arguments: ["1000000/999999", "240000/1001"])
    func edgeFrameRates(fps: String) throws {
        try withScratchFolder { folder in
            let outputs = ["-o", "a.mp4", "-o", "a.webm", "-o", "a.gif"]
            let plan = try CLI.make(tinyClip(["--fps": fps]) + outputs + ["--dry-run"], in: folder)
            try #require(plan.status == 0, "\(plan)")
            let planned = plan.stdout.split(separator: "\n").map { line in
                line.split(separator: " ").first { $0.hasPrefix("frames=") }.map { Int($0.dropFirst(7)) } ?? nil
            }
            let result = try CLI.make(tinyClip(["--fps": fps]) + outputs + ["-q"], in: folder)
            #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
            for (index, name) in ["a.mp4", "a.webm", "a.gif"].enumerated() {
                #expect(try MediaReader.info(path: folder + "/" + name).frameCount == planned[index], "\(name)")
            }
        }
    }
}
