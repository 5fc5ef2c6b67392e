// The music bed on the command line: `probe --json` reads back the audio keys `make --dry-run
// --json` predicted for every container that carries a bed, and the formats that carry none are
// told once in the log and probe as silent.

import Foundation
import Testing

@Suite("audio in probe and --dry-run")
struct AudioFactsTests {
    /// docs/audio.md's stand-in song: a 48 kHz 16-bit stereo WAV header, then 2 s of noise.
    static let song: Data = {
        var data = Data([0x52, 0x49, 0x46, 0x46, 0x24, 0xdc, 0x05, 0x00] + Array("WAVEfmt ".utf8)
            + [0x10, 0, 0, 0, 0x01, 0, 0x02, 0, 0x80, 0xbb, 0, 0, 0x00, 0xee, 0x02, 0, 0x04, 0, 0x10, 0] + Array("data".utf8) + [0x00, 0xdc, 0x05, 0x00])
        var state: UInt32 = 1
        for _ in 0..<(384_000 / 2) {
            state = state &* 1_664_525 &+ 1_013_904_223
            withUnsafeBytes(of: Int16(truncatingIfNeeded: Int32(bitPattern: state) >> 20).littleEndian) { data.append(contentsOf: $0) }
        }
        return data
    }()

    @Test("every audio key of every container with a bed; none for the others")
    func agree() throws {
        try withScratchFolder { folder in
            try Self.song.write(to: URL(fileURLWithPath: folder + "/song.wav"))
            let outputs = ["a.mp4", "a.mov", "a.webm", "a.mkv", "opus.mkv:audio-codec=opus", "silent.mp4:audio=none", "a.gif"]
            let flags = tinyClip(["--audio": "song.wav", "--loudness": "-16"]) + outputs.flatMap { ["-o", $0] }
            let dry = try CLI.make(flags + ["--dry-run", "--json"], in: folder)
            try #require(dry.status == 0, "\(dry)")
            let made = try CLI.make(flags + ["--log-format", "plain"], in: folder)
            try #require(made.status == 0, "\(made)")
            #expect(made.stderr.components(separatedBy: "no audio in a.gif").count == 2, "\(made.stderr)")
            let predicted = try Self.objects(dry.stdout)
            let paths = predicted.compactMap { $0["path"] as? String }
            let probe = try CLI.run(["probe", "--json"] + paths, in: folder)
            try #require(probe.status == 0, "\(probe)")
            let found = try Self.objects(probe.stdout)
            try #require(found.count == outputs.count && predicted.count == outputs.count)
            let codecs = ["a.mp4": "aac", "a.mov": "aac", "a.webm": "opus", "a.mkv": "flac", "opus.mkv": "opus"]
            for (want, got) in zip(predicted, found) {
                let path = want["path"] as? String ?? ""
                #expect(got["audio"] as? String == codecs[path], "\(path)")
                for key in ["audio", "audio_rate", "audio_channels"] {
                    #expect("\(want[key] ?? "")" == "\(got[key] ?? "")", "\(path): \(key)")
                }
                guard codecs[path] != nil else { continue }
                #expect(want["audio_rate"] as? Int == 48_000 && want["audio_channels"] as? Int == 2 && want["loudness"] as? Double == -16)
                // Matroska's millisecond clock, and WebM's Opus shifted by its pre-skip (docs/audio.md), allow 7 ms.
                let delta = abs((want["audio_duration"] as? Double ?? 0) - (got["audio_duration"] as? Double ?? -1))
                #expect(delta <= (path.hasSuffix(".mp4") || path.hasSuffix(".mov") ? 0 : 0.0075), "\(path): audio_duration off by \(delta)")
            }
        }
    }

    @Test("a batch job's bed: its audio in the video outputs, the ones without audio named once in its log")
    func batch() throws {
        try withScratchFolder { folder in
            try Self.song.write(to: URL(fileURLWithPath: folder + "/song.wav"))
            for (name, index) in [("a.png", 0), ("b.png", 1)] {
                let made = try CLI.make(tinyClip(["--poster-at": "0"]) + ["-o", name] + (index == 1 ? ["--seed", "7", "--background", "#336699"] : []), in: folder)
                try #require(made.status == 0, "\(made)")
            }
            let manifest = #"{"defaults": {"size": "64x36", "fps": 10, "hold": 0.2, "duration": 0.3, "encoder-preset": "ultrafast", "audio": {"file": "song.wav", "loudness": -16}}, "jobs": [{"id": "j", "images": ["a.png", "b.png"], "outputs": ["j.mp4", "j.gif", "j.jpg"]}]}"#
            try Data(manifest.utf8).write(to: URL(fileURLWithPath: folder + "/m.json"))
            let run = try CLI.run(["batch", "m.json", "--log-format", "plain", "--report", "r.json"], in: folder)
            try #require(run.status == 0, "\(run)")
            // The GIF is named; the poster, which never carries sound, only with -v.
            #expect(run.stderr.components(separatedBy: "j: no audio in ").count == 2 && run.stderr.contains("no audio in \(folder)/j.gif:"), "\(run.stderr)")
            #expect(!run.stderr.contains("j.jpg:") && !run.stderr.contains("j.jpg,"), "\(run.stderr)")
            let verbose = try CLI.run(["batch", "m.json", "--log-format", "plain", "--force", "-v"], in: folder)
            #expect(verbose.stderr.contains("no audio in \(folder)/j.gif, \(folder)/j.jpg: they carry none"), "\(verbose.stderr)")
            // The report gives the bed's loudness as encoded for the output that carries it.
            let report = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/r.json"))) as? [String: Any])
            let outputs = try #require(((report["jobs"] as? [[String: Any]])?.first?["outputs"]) as? [[String: Any]])
            let loudness = try #require(outputs.first?["loudness"] as? Double, "\(outputs)")
            #expect(abs(loudness + 16) < 1, "\(loudness)")
            #expect(outputs.dropFirst().allSatisfy { $0["loudness"] is NSNull }, "\(outputs)")
            let probe = try CLI.run(["probe", "--json", "j.mp4", "j.gif"], in: folder)
            let found = try Self.objects(probe.stdout)
            #expect(found.first?["audio"] as? String == "aac" && found.last?["audio"] is NSNull, "\(probe)")
        }
    }

    static func objects(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }
}
