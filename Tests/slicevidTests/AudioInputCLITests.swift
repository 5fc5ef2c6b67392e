// Songs on the command line (issue 23): WAVs of every channel count the message accepts make a
// stereo bed, and a WAV whose header names no format is refused as bad data (65), not as a
// missing decoder (69). What was written is decoded back by ffmpeg, the peer.

import Foundation
import SliceKit
import SliceMedia
import StillFixtures
import Testing

@Suite("slicevid make with odd songs")
struct AudioInputCLITests {
    /// The audio of `path` decoded by ffmpeg to 32-bit float, one array per channel.
    static func decodedAudio(_ path: String, in folder: String) throws -> [[Float]] {
        let result = try CLI.run(["-v", "error", "-i", path, "-map", "0:a", "-f", "f32le", "-"], in: folder, executable: "/usr/bin/ffmpeg")
        try #require(result.status == 0, "\(result)")
        let floats = result.stdoutData.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        return [stride(from: 0, to: floats.count, by: 2).map { floats[$0] }, stride(from: 1, to: floats.count, by: 2).map { floats[$0] }]
    }

    static func rms(_ samples: [Float]) -> Double {
        (samples.reduce(0) { $0 + Double($1 * $1) } / Double(max(1, samples.count))).squareRoot()
    }

    @Test("a WAV of 9, 13, 17, 25, 33 or 64 channels without a mask makes a stereo bed with sound on both sides, the same bytes twice",
          arguments: [9, 13, 17, 25, 33, 64])
    func manyChannels(_ channels: Int) throws {
        try withScratchFolder { folder in
            try FixtureFiles.wav(folder + "/song.wav", channels: channels, seconds: 1) { i, c in
                0.25 * sin(Double(i) * 2 * .pi * Double(200 + 37 * c) / 48_000)
            }
            var outputs: [Data] = []
            for name in ["a.mkv", "b.mkv"] {
                let result = try CLI.make(tinyClip + ["--audio", "song.wav", "-o", name], in: folder)
                try #require(result.status == 0, "\(channels) channels: \(result)")
                outputs.append(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)))
            }
            #expect(outputs[0] == outputs[1], "\(channels) channels: two runs differ")
            let audio = try Self.decodedAudio("a.mkv", in: folder)
            #expect(audio[0].count == 28_800, "\(channels) channels: \(audio[0].count) samples for 0.6 s")
            for side in 0..<2 { #expect(Self.rms(audio[side]) > 0.005, "\(channels) channels, side \(side): \(Self.rms(audio[side]))") }
        }
    }

    @Test("a WAV declaring 65535 bits per sample is refused with 65 and one line naming it, before anything is written")
    func impossibleBits() throws {
        try withScratchFolder { folder in
            try FixtureFiles.wav(folder + "/odd.wav", channels: 2, seconds: 0.5, declaredBits: 65535) { i, _ in sin(Double(i) / 10) / 4 }
            for dryRun in [[], ["--dry-run"]] {
                let result = try CLI.make(tinyClip + ["--audio", "odd.wav", "-o", "out.mp4"] + dryRun, in: folder)
                #expect(result.status == 65 && result.stderrIsOneLine, "\(result)")
                #expect(result.stderr.hasPrefix("slicevid: error: odd.wav: its audio is in no format FFmpeg knows"), "\(result)")
                #expect(!FileManager.default.fileExists(atPath: folder + "/out.mp4") && leftovers(in: folder).isEmpty)
            }
        }
    }

    @Test("an Ogg Vorbis song with one flipped byte in its first or last audio page is refused with 65 and one line naming the page",
          arguments: ["first", "last"])
    func damagedOgg(_ which: String) throws {
        try withScratchFolder { folder in
            let made = try CLI.run(["-v", "error", "-f", "lavfi", "-i", "sine=frequency=440:duration=6", "-ac", "2", "-c:a", "libvorbis",
                                    "song.ogg"], in: folder, executable: "/usr/bin/ffmpeg")
            try #require(made.status == 0, "\(made)")
            #expect(try CLI.make(tinyClip + ["--audio", "song.ogg", "-o", "good.mp4"], in: folder).status == 0)
            var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/song.ogg")))
            // Page starts: pages 0 and 1 hold Vorbis's headers, 2 is the first audio page.
            var starts: [Int] = []
            var offset = 0
            while offset + 27 <= bytes.count {
                starts.append(offset)
                let segments = Int(bytes[offset + 26])
                offset += 27 + segments + bytes[(offset + 27)..<(offset + 27 + segments)].reduce(0) { $0 + Int($1) }
            }
            try #require(starts.count > 4)
            // A byte of the page's packet data, after its header and segment table.
            let page = which == "first" ? starts[2] : starts[starts.count - 1]
            bytes[page + 27 + Int(bytes[page + 26]) + 10] ^= 0x55
            try writeFile(folder + "/song.ogg", Data(bytes))
            let result = try CLI.make(tinyClip + ["--audio", "song.ogg", "-o", "out.mp4"], in: folder)
            #expect(result.status == 65 && result.stderrIsOneLine, "\(result)")
            #expect(result.stderr.hasPrefix("slicevid: error: song.ogg: damaged audio: Ogg page"), "\(result)")
            #expect(!FileManager.default.fileExists(atPath: folder + "/out.mp4") && leftovers(in: folder).isEmpty)
        }
    }
}
