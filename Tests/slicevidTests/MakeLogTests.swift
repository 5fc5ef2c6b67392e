// What `make` prints: for cron, timestamped lines (a start line, created folders, the encoders'
// finishing phase, a wrote line per output with what it holds, a summary); for log shippers,
// JSON lines; on a terminal, a redrawn bar that never wraps. -q silences all but the error.

import Foundation
import SliceMedia
import Testing

@Suite("slicevid make logs")
struct MakeLogTests {
    /// `2025-06-01T02:00:00.412Z slicevid: …`
    static var plainLine: Regex<Substring> { /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z slicevid: .+/ }

    @Test("without a terminal every event is one timestamped line, and wrote lines say what each file holds")
    func plainLines() throws {
        try withScratchFolder { folder in
            let result = try CLI.make(tinyClip + ["--gif-fps", "5", "-o", "out.mp4", "-o", "seq/%03d.png", "-o", "small.gif", "-o", "poster.png"],
                                      in: folder)
            #expect(result.status == 0, "\(result)")
            #expect(!result.stderr.contains("\r") && result.stdout.isEmpty)
            let lines = result.stderr.split(separator: "\n").map(String.init)
            #expect(lines.allSatisfy { $0.wholeMatch(of: Self.plainLine) != nil }, "\(result)")
            let events = lines.map { $0.split(separator: " ", maxSplits: 1)[1] }
            let gifFrames = try MediaReader.info(path: folder + "/small.gif").frameCount
            try #require(events.count == 8, "\(result)")
            #expect(events[0] == "slicevid: created folder seq")
            #expect(events[1].hasPrefix("slicevid: rendering \(tinyClipFrames) frames, 64x36 at 10 fps, to out.mp4, seq/%03d.png, small.gif, poster.png"))
            #expect(events[2] == "slicevid: finishing encoders")
            #expect(events[3].hasPrefix("slicevid: wrote out.mp4 (\(tinyClipFrames) frames, 0.60 s, "))
            #expect(events[4].hasPrefix("slicevid: wrote seq/%03d.png (\(tinyClipFrames) frames, 0.60 s, "))
            // The GIF at its own rate, the poster one frame of no length.
            #expect(gifFrames < tinyClipFrames)
            #expect(events[5].hasPrefix("slicevid: wrote small.gif (\(gifFrames) frames, 0.80 s, "), "\(events[5])")
            #expect(events[6].hasPrefix("slicevid: wrote poster.png (1 frame, ") && !events[6].contains(" s,"), "\(events[6])")
            #expect(events[7].hasPrefix("slicevid: finished: \(tinyClipFrames) frames, clip 0.60 s, took "))
        }
    }

    @Test("--log-format json prints one object per event, errors included")
    func jsonEvents() throws {
        try withScratchFolder { folder in
            let result = try CLI.make(tinyClip + ["-o", "out/a.mp4", "-o", "out/a.gif", "--log-format", "json"], in: folder)
            #expect(result.status == 0, "\(result)")
            let events = try result.stderr.split(separator: "\n").map { line in
                try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
            }
            #expect(events.map { $0["event"] as? String } == ["folder-created", "started", "finishing", "wrote", "wrote", "finished"])
            #expect(events.allSatisfy { ($0["time"] as? String)?.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil })
            #expect(events[0]["path"] as? String == "out")
            #expect(events[1]["frames"] as? Int == tinyClipFrames && events[1]["fps"] as? String == "10")
            let mp4 = events[3], bytes = try FileManager.default.attributesOfItem(atPath: folder + "/out/a.mp4")[.size] as? Int
            #expect(mp4["path"] as? String == "out/a.mp4" && mp4["frames"] as? Int == tinyClipFrames && mp4["seconds"] as? Double == 0.6)
            #expect(mp4["bytes"] as? Int == bytes)
            #expect(events[4]["frames"] as? Int == (try MediaReader.info(path: folder + "/out/a.gif").frameCount))
            #expect(events[5]["clip_seconds"] as? Double == 0.6 && events[5]["took_seconds"] is Double)

            let failed = try CLI.make(tinyClip + ["-o", "out/a.mp4", "--log-format", "json"], in: folder)
            #expect(failed.status == 73 && failed.stderrIsOneLine, "\(failed)")
            let error = try #require(JSONSerialization.jsonObject(with: Data(failed.stderr.utf8)) as? [String: Any])
            #expect(error["event"] as? String == "error" && error["exit"] as? Int == 73)
            #expect((error["error"] as? String)?.contains("out/a.mp4") == true)
        }
    }

    @Test("standard output and nothing keep their spelling on the wire (- and null), each output's facts its own")
    func streamsOnTheWire() throws {
        try withScratchFolder { folder in
            let result = try CLI.make(tinyClip + ["-o", "-", "-o", "null", "-o", "a%02d.png", "-o", "a.mp4", "--log-format", "json"], in: folder)
            #expect(result.status == 0, "\(result.stderr)")
            let events = try result.stderr.split(separator: "\n").map { line in
                try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
            }
            let started = try #require(events.first { $0["event"] as? String == "started" })
            #expect(started["outputs"] as? [String] == ["-", "null", "a%02d.png", "a.mp4"])
            let wrote = events.filter { $0["event"] as? String == "wrote" }
            #expect(wrote.map { $0["path"] as? String } == ["-", "a%02d.png", "a.mp4"])
            // The file after the stream gets its own facts, not the stream's.
            let bytes = try FileManager.default.attributesOfItem(atPath: folder + "/a.mp4")[.size] as? Int
            #expect(wrote.last?["bytes"] as? Int == bytes && wrote.last?["seconds"] as? Double == 0.6)
            #expect(events.contains { $0["event"] as? String == "rendered" })

            let plan = try CLI.make(tinyClip + ["-o", "-", "-o", "null", "-o", "b.mp4", "--dry-run", "--json"], in: folder)
            let paths = try plan.stdout.split(separator: "\n").map { line in
                try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])["path"] as? String
            }
            #expect(plan.status == 0 && paths == ["-", "null", "b.mp4"], "\(plan)")
        }
    }

    @Test("--quiet prints nothing on success, in every format", arguments: ["auto", "plain", "json", "progress"])
    func quiet(format: String) throws {
        try withScratchFolder { folder in
            let result = try CLI.make(tinyClip + ["-o", "new/out.mp4", "--quiet", "--log-format", format], in: folder)
            #expect(result.status == 0, "\(result)")
            #expect(result.stderr.isEmpty && result.stdout.isEmpty, "\(result)")
            #expect(FileManager.default.fileExists(atPath: folder + "/new/out.mp4"))
        }
    }

    @Test("--quiet still reports an error, as one line")
    func quietError() throws {
        try withScratchFolder { folder in
            _ = FileManager.default.createFile(atPath: folder + "/nowhere", contents: Data())
            let result = try CLI.make(tinyClip + ["-o", "nowhere/out.mp4", "-q"], in: folder)
            #expect(result.status == 73)
            #expect(result.stderrIsOneLine && result.stderr.contains("nowhere"), "\(result)")
        }
    }

    @Test("a bad --log-format is a usage error naming the accepted values")
    func badFormat() throws {
        try withScratchFolder { folder in
            let result = try CLI.make(tinyClip + ["--log-format", "xml"], in: folder)
            #expect(result.status == 64 && result.stderrIsOneLine, "\(result)")
            #expect(result.stderr.contains("--log-format: 'xml' is not valid; accepted: auto, progress, plain, json"))
        }
    }
}
