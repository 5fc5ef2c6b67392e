// `probe --json` reads back, key for key, what `make --dry-run --json` predicted, for every
// output format slicevid writes: one vocabulary (container mp4 not mov,mp4,…; profiles as
// FFmpeg names them in lower case; fps an exact fraction).

import Foundation
import Testing

@Suite("probe and --dry-run agree")
struct FactsAgreementTests {
    /// Every format, with the options that change what a file holds.
    static let opaque = ["a.mp4", "fast.mp4:encoder-preset=veryfast", "ten.mp4:pix-fmt=yuv420p10le", "full.mp4:pix-fmt=yuv444p",
                         "lossless.mp4:crf=0", "h.mp4:codec=hevc", "h10.mp4:codec=hevc:pix-fmt=yuv420p10le", "a.webm",
                         "ten.webm:pix-fmt=yuv420p10le", "av1.mkv:codec=av1", "a.mov", "a.mkv", "vp9.mkv:codec=vp9", "a.gif",
                         "slow.gif:gif-fps=7", "a.y4m", "seq/%02d.png", "poster.png", "poster.jpg", "poster.webp",
                         "board.png:sheet=2x2", "board.jpg:sheet=3x1", "board.webp:sheet=1x2"]
    static let transparent = ["a.webm", "a.mov", "a.mkv", "a.gif", "poster.png", "seq/%02d.png", "board.png:sheet=2x2"]

    @Test("every key of every format", arguments: [(opaque, "#102030"), (transparent, "transparent")])
    func probeReadsWhatTheDryRunSaid(outputs: [String], background: String) throws {
        try withScratchFolder { folder in
            let flags = tinyClip(["--size": "64x64", "--fps": "29.97", "--background": background]) + outputs.flatMap { ["-o", $0] }
            let dry = try CLI.make(flags + ["--dry-run", "--json"], in: folder)
            try #require(dry.status == 0, "\(dry)")
            let predicted = try Self.objects(dry.stdout)
            try #require(predicted.count == outputs.count, "\(dry)")
            let made = try CLI.make(flags, in: folder)
            try #require(made.status == 0, "\(made)")
            let paths = predicted.compactMap { $0["path"] as? String }
            let probe = try CLI.run(["probe", "--json"] + paths, in: folder)
            try #require(probe.status == 0, "\(probe)")
            let found = try Self.objects(probe.stdout)
            try #require(found.count == outputs.count)
            for (want, got) in zip(predicted, found) {
                #expect(want["path"] as? String == got["path"] as? String)
                for key in ["container", "codec", "profile", "pix_fmt", "alpha", "width", "height", "fps", "frames", "duration",
                            "color_primaries", "color_transfer", "color_space", "color_range"] {
                    #expect(Self.text(want[key]) == Self.text(got[key]), "\(want["path"] ?? ""): \(key)")
                }
                // Both say what the other would, so the key sets differ only by what one side
                // alone can know: the encoder and its settings, or the stream's tag.
                #expect(Set(want.keys).isSuperset(of: ["encoder"]) && got.keys.contains("tag"))
            }
            // The words people use, not libavformat's.
            let containers = Dictionary(found.map { ($0["path"] as? String ?? "", $0["container"] as? String ?? "") }) { first, _ in first }
            #expect(containers["a.webm"] == "webm" && containers["a.mov"] == "mov" && containers["a.gif"] == "gif" && containers["a.mkv"] == "mkv")
            if background != "transparent" {
                #expect(containers["a.mp4"] == "mp4" && containers["poster.jpg"] == "jpeg" && containers["a.y4m"] == "y4m")
                let byPath = Dictionary(found.map { ($0["path"] as? String ?? "", $0) }) { first, _ in first }
                #expect(byPath["a.mp4"]?["fps"] as? String == "30000/1001")
                // x264 writes the lowest profile its settings fit: ultrafast (tinyClip's) fits Constrained Baseline.
                #expect(byPath["a.mp4"]?["profile"] as? String == "constrained baseline" && byPath["fast.mp4"]?["profile"] as? String == "high")
                #expect(byPath["poster.png"]?["fps"] is NSNull && byPath["poster.png"]?["frames"] as? Int == 1)
            }
        }
    }

    @Test("the key=value lines speak the same words")
    func lines() throws {
        try withScratchFolder { folder in
            let flags = tinyClip + ["-o", "a.mp4", "-o", "h.mp4:codec=hevc:pix-fmt=yuv420p10le"]
            let dry = try CLI.make(flags + ["--dry-run"], in: folder)
            #expect(try CLI.make(flags, in: folder).status == 0)
            let probe = try CLI.run(["probe", "a.mp4", "h.mp4"], in: folder)
            let (planned, read) = (dry.stdout.split(separator: "\n"), probe.stdout.split(separator: "\n"))
            try #require(planned.count == 2 && read.count == 2, "\(dry)\n\(probe)")
            for (line, other) in zip(planned, read) {
                let (want, got) = (ProbeLine.fields(line), ProbeLine.fields(other))
                for key in ["container", "codec", "profile", "pix_fmt", "alpha", "size", "fps", "frames", "duration", "color_range"] {
                    #expect(want[key] == got[key], "\(key): \(line) | \(other)")
                }
            }
            #expect(read[1].contains(#"profile="main 10""#), "a value with a space is quoted: \(read[1])")
        }
    }

    static func objects(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { line in
            try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        }
    }

    /// A JSON value as comparable text (numbers and booleans as JSONSerialization gives them).
    static func text(_ value: Any?) -> String {
        switch value {
        case nil: "absent"
        case is NSNull: "null"
        case let number as NSNumber: number.stringValue
        case let string as String: string
        default: "\(value!)"
        }
    }
}
