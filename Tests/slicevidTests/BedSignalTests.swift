// SIGTERM while a 10-minute music bed is levelled and encoded (issue 23, item 13): the bed is
// made on a thread of its own while the clip renders, and the outputs wait for it, so a signal
// used to wait for the whole bed. The run now stops without it: the "music bed ready" line,
// which the bed prints once it is made, never comes. (How fast the stop is, is measured, not
// tested: see docs/audio.md, "While the bed is made".)

import Foundation
import StillFixtures
import Testing

@Suite("slicevid make interrupted while its music bed is made", .serialized)
struct BedSignalTests {
    @Test("SIGTERM while a 10-minute bed is levelled stops the run with 143 and its one line, before the bed is ready")
    func sigtermDuringTheBed() throws {
        try withScratchFolder { folder in
            // 20 s of song looped to a 10-minute clip, levelled: minutes of audio to measure and encode.
            let made = try CLI.run(["-v", "error", "-f", "lavfi", "-i", "sine=frequency=330:duration=20", "-f", "lavfi",
                                    "-i", "anoisesrc=duration=20:amplitude=0.1", "-filter_complex", "amix=inputs=2", "-ac", "2",
                                    "song.wav"], in: folder, executable: "/usr/bin/ffmpeg")
            try #require(made.status == 0, "\(made)")
            let clip = ["--size", "64x36", "--fps", "1", "--hold", "0", "--duration", "1", "--end-hold", "590", "--slices", "8", "--encoder-preset", "ultrafast"]
            let result = try CLI.run(["make"] + clip + ["--audio", "song.wav", "--audio-loop", "--loudness", "-14", "--log-format", "plain",
                                                        "-o", "out.mp4"], in: folder) { process, stderr in
                // The bed's job starts before the render does; once rendering is announced (at the
                // first frame that needs the second still: the transition comes first), it is still
                // measuring minutes of audio.
                while process.isRunning, !stderr().contains("slicevid: rendering ") { usleep(5_000) }
                try #require(process.isRunning, "the run ended before it could be interrupted: \(stderr())")
                #expect(!stderr().contains("music bed ready"), "the bed was made before the signal: \(stderr())")
                kill(process.processIdentifier, SIGTERM)
            }
            #expect(result.status == 143 && !result.signalled, "\(result)")
            #expect(result.stderr.hasSuffix("slicevid: error: interrupted by SIGTERM; no output was written\n"), "\(result)")
            #expect(result.stderr.components(separatedBy: "error:").count == 2, "\(result)")
            #expect(!result.stderr.contains("music bed ready"), "the run waited for the bed: \(result)")
            #expect(leftovers(in: folder).isEmpty && !FileManager.default.fileExists(atPath: folder + "/out.mp4"))
        }
    }

    @Test("a bed that is made says so once, after the render has started, with what it measures")
    func bedReadyLine() throws {
        try withScratchFolder { folder in
            try FixtureFiles.wav(folder + "/song.wav", channels: 2, seconds: 1) { i, c in 0.2 * sin(Double(i) * (c == 0 ? 0.02 : 0.03)) }
            let result = try CLI.make(tinyClip + ["--audio", "song.wav", "--loudness", "-16", "--log-format", "plain", "-o", "out.mp4"],
                                      in: folder)
            try #require(result.status == 0, "\(result)")
            let lines = result.stderr.split(separator: "\n")
            let ready = lines.firstIndex { $0.contains("slicevid: music bed ready: -16.0 LUFS, true peak ") }
            let started = lines.firstIndex { $0.contains("slicevid: rendering ") }
            #expect(ready != nil && started != nil && started! < ready!, "\(result)")
            #expect(lines.filter { $0.contains("music bed ready") }.count == 1)
        }
    }
}
