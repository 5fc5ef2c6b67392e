// Songs that must be refused before anything is rendered: missing, not audio, no audio stream,
// a stream that is not audio, and damage FFmpeg's own tools play through (flipped MP3 bytes,
// lost Ogg pages, a truncated MP3 or WAV).

import Foundation
import SliceKit
@testable import SliceMedia
import Testing

@Suite("Audio sources")
struct AudioSourceTests {
    /// Builds the bed for a 61-frame clip, which decodes the song as a render would.
    private func bed(_ path: String, loop: Bool = true) throws(MediaError) {
        var settings = AudioSettings(file: path)
        settings.loop = loop
        _ = try AudioTrack.make(settings, frames: 61, rate: FrameRate(30), codecs: [.flac])
    }

    /// How building a bed from `path` (or opening `stream` of it) was refused; nil if it was not.
    private func refusal(_ path: String, stream: Int? = nil, loop: Bool = true) -> (MediaError.Kind, String)? {
        do {
            if let stream { _ = try AudioSource(path: path, stream: stream) } else { try bed(path, loop: loop) }
            return nil
        } catch {
            return (error.kind, error.description)
        }
    }

    private func damage(_ path: String, at fraction: Double, bytes: Int, fill: UInt8? = nil) throws {
        var data = try Data(contentsOf: URL(fileURLWithPath: path))
        let start = Int(Double(data.count) * fraction)
        for i in start..<min(data.count, start + bytes) { data[i] = fill ?? data[i] ^ 0x5A }
        try data.write(to: URL(fileURLWithPath: path))
    }

    private func truncate(_ path: String, to fraction: Double, plus extra: Int = 0) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        try data.prefix(Int(Double(data.count) * fraction) + extra).write(to: URL(fileURLWithPath: path))
    }

    @Test("A missing file is 66's kind; text, or a video without sound, is not audio")
    func notAudio() throws {
        try withTemporaryDirectory { dir in
            #expect(refusal(dir + "/none.mp3")?.0 == .inputMissing)
            try "not a song".write(toFile: dir + "/text.mp3", atomically: true, encoding: .utf8)
            let text = refusal(dir + "/text.mp3")
            #expect(text?.0 == .inputInvalid && text?.1.contains("text.mp3") == true, "\(String(describing: text))")
            try BedClip.write(dir + "/silent.mp4", settings: AudioSettings())
            let silent = refusal(dir + "/silent.mp4")
            #expect(silent?.0 == .inputInvalid && silent?.1.contains("has no audio stream") == true, "\(String(describing: silent))")
        }
    }

    @Test("FILE:stream=N takes that stream, and refuses one that is not audio, listing those that are")
    func streamChoice() throws {
        try withTemporaryDirectory { dir in
            let song = dir + "/song.wav"
            try AudioFixture.write(song, seconds: 3) { i, _ in 0.2 * sin(Float(i) * 0.02) }
            try BedClip.write(dir + "/with.mp4", settings: AudioSettings(file: song))
            #expect(try AudioSource(path: dir + "/with.mp4", stream: 1).codecName == "aac")
            #expect(try AudioSource(path: dir + "/with.mp4").streamIndex == 1)
            let video = refusal(dir + "/with.mp4", stream: 0)
            #expect(video?.0 == .inputInvalid && video?.1.contains("its audio streams: 1") == true, "\(String(describing: video))")
            #expect(refusal(dir + "/with.mp4", stream: 7)?.0 == .inputInvalid)
        }
    }

    @Test("Damaged songs are refused, naming the file", arguments: ["flipped.mp3", "zeroed.mp3", "pages.opus", "truncated.mp3", "truncated.wav", "flipped.flac"])
    func damaged(_ name: String) throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/" + name
            let rate = name.hasSuffix(".opus") ? 48_000 : 44_100
            // Damage inside the part of a 12 s song the bed uses is found without reading on to
            // the end (decoding stops a second past the bed); a truncated 4 s song is found at
            // its end, which comes before the bed is full.
            let truncated = name.hasPrefix("truncated")
            try AudioFixture.write(path, rate: rate, seconds: truncated ? 4 : 12) { i, c in
                0.3 * sin(Float(i) * (c == 0 ? 0.021 : 0.034)) + 0.05 * sin(Float(i) * 0.0007)
            }
            // The undamaged file is a good song.
            try bed(path, loop: truncated)
            switch name {
            // An MP3 frame is 627 bytes here: a thousand flipped bytes break at least one header.
            case "flipped.mp3": try damage(path, at: 0.1, bytes: 1_000)
            case "flipped.flac", "pages.opus": try damage(path, at: 0.1, bytes: 40)
            case "zeroed.mp3": try damage(path, at: 0.1, bytes: 2_000, fill: 0)
            case "truncated.mp3": try truncate(path, to: 0.6)
            default: try truncate(path, to: 0.6, plus: 1)
            }
            let refused = refusal(path, loop: truncated)
            #expect(refused?.0 == .inputInvalid, "\(name): \(String(describing: refused))")
            #expect(refused?.1.hasPrefix(path) == true, "\(name): \(String(describing: refused))")
        }
    }
}
