// Songs of any channel count slicevid accepts (1–64) and any sample format a WAV holds make a
// stereo bed, and a WAV whose header names no format is bad data (issue 23, items 8 and 9):
// WAVs of 9–15, 17–23 and 25–64 channels failed with 74 ("avfilter_graph_config failed"), 16
// and 24 dropped their height and wide channels, and 65535 bits per sample was 69 ("no decoder").

import CFFmpeg
import Foundation
import SliceKit
@testable import SliceMedia
import StillFixtures
import Testing

@Suite("Audio layouts and sample formats")
struct AudioLayoutTests {
    /// The bed (48 kHz stereo planar float) of a 1-second clip from `path`, as two sample arrays.
    static func bed(_ path: String) throws -> [[Float]] {
        let source = try AudioSource(path: path)
        let bed = try AudioBed.build(from: source, settings: AudioSettings(file: path), sampleCount: AudioBed.sampleRate)
        var sides: [[Float]] = [[], []]
        for frame in bed.frames {
            let f = frame.pointer.pointee
            #expect(f.ch_layout.nb_channels == 2 && f.format == AV_SAMPLE_FMT_FLTP.rawValue)
            for side in 0..<2 {
                let plane = UnsafeRawPointer(f.extended_data[side]!).assumingMemoryBound(to: Float.self)
                sides[side] += UnsafeBufferPointer(start: plane, count: Int(f.nb_samples))
            }
        }
        return sides
    }

    static func rms(_ samples: [Float]) -> Double {
        (samples.reduce(0) { $0 + Double($1 * $1) } / Double(max(1, samples.count))).squareRoot()
    }

    /// A tone of its own on every channel.
    static func tone(_ i: Int, _ channel: Int) -> Double { 0.25 * sin(Double(i) * 2 * .pi * Double(200 + 37 * channel) / 48_000) }

    @Test("a WAV of any channel count from 1 to 64, with no channel mask, makes a stereo bed with sound on both sides, the same every time",
          arguments: [1, 2, 3, 6, 8, 9, 13, 15, 16, 17, 23, 24, 25, 33, 48, 63, 64])
    func channelCounts(_ channels: Int) throws {
        try withTemporaryDirectory { dir in
            let path = "\(dir)/\(channels).wav"
            try FixtureFiles.wav(path, channels: channels, seconds: 1, signal: Self.tone)
            let bed = try Self.bed(path)
            #expect(bed[0].count == AudioBed.sampleRate)
            // The quietest mix (64 tones at 1/32 each) is still far above silence.
            for side in 0..<2 { #expect(Self.rms(bed[side]) > 0.005, "\(channels) channels, side \(side): \(Self.rms(bed[side]))") }
            #expect(try Self.bed(path) == bed)
        }
    }

    @Test("channels with no known place go left and right in turn; every speaker of a layout libswresample would drop reaches the bed",
          arguments: [(9, 0, 0), (9, 1, 1), (9, 8, 0), (64, 63, 1), (16, 14, 0), (16, 15, 1)])
    func placement(channels: Int, loud: Int, side: Int) throws {
        try withTemporaryDirectory { dir in
            // 16 channels without a mask take FFmpeg's default layout (hexadecagonal), whose
            // channels 14 and 15 are the wide left and right speakers.
            let path = "\(dir)/one-of-\(channels).wav"
            try FixtureFiles.wav(path, channels: channels, seconds: 1) { i, c in c == loud ? Self.tone(i, c) : 0 }
            let bed = try Self.bed(path)
            #expect(Self.rms(bed[side]) > 0.002, "channel \(loud) of \(channels) should sound on side \(side)")
            #expect(Self.rms(bed[1 - side]) < 1e-6, "channel \(loud) of \(channels) should be silent on side \(1 - side)")
        }
    }

    @Test("a WAV whose mask names only height speakers (which libswresample cannot down-mix) places them left and right")
    func heightOnlyMask() throws {
        try withTemporaryDirectory { dir in
            // Top front left, top front right, top back left, top back right: bits 12, 14, 15, 17.
            let path = "\(dir)/tops.wav"
            try FixtureFiles.wav(path, channels: 4, seconds: 1, mask: 1 << 12 | 1 << 14 | 1 << 15 | 1 << 17) { i, c in c == 2 ? Self.tone(i, c) : 0 }
            let bed = try Self.bed(path)
            #expect(Self.rms(bed[0]) > 0.05 && Self.rms(bed[1]) < 1e-6)
        }
    }

    /// Channel counts and masks: speakers FFmpeg has no name for (bits 18–28, all 32 bits, three
    /// of them), and one speaker a side or one for both that libswresample cannot place (front
    /// left and top back right, top front left and right, top back right alone: seed 5 of make
    /// fuzz, case 1527, failed with 74 for the first).
    static let unnamedMasks: [(Int, UInt32)] = [(28, 0xCFFF_FDBF), (32, 0xFFFF_FFFF), (3, 0x0070_0000),
                                                (2, 0x0002_0001), (2, 0x0000_5000), (1, 0x0002_0000)]

    @Test("a WAV whose mask sets speakers FFmpeg has no name for (bits 18–28) makes a bed; its graph is told the layout by its mask",
          arguments: unnamedMasks)
    func unnamedSpeakers(channels: Int, mask: UInt32) throws {
        // Found by the fuzz harness (seed 5, case 112): 28 channels failed with 74, because the
        // layout's long name was cut short and abuffer could not read it back.
        try withTemporaryDirectory { dir in
            let path = "\(dir)/masked.wav"
            try FixtureFiles.wav(path, channels: channels, seconds: 0.5, mask: mask, signal: Self.tone)
            let bed = try Self.bed(path)
            for side in 0..<2 { #expect(Self.rms(bed[side]) > 0.005, "\(channels) channels, mask \(mask), side \(side)") }
        }
    }

    @Test("every sample format a WAV holds decodes to the samples written", arguments: FixtureFiles.WAVSamples.allCases)
    func sampleFormats(_ format: FixtureFiles.WAVSamples) throws {
        try withTemporaryDirectory { dir in
            let path = "\(dir)/song.wav"
            try FixtureFiles.wav(path, channels: 2, seconds: 0.2, samples: format, signal: Self.tone)
            let decoded = try AudioFixture.decode(path)
            #expect(decoded.channels == 2 && decoded.count == 9_600)
            let step = format == .unsigned8 ? 1.0 / 64 : 1e-3
            for c in 0..<2 {
                let worst = (0..<decoded.count).map { abs(Double(decoded.samples[c][$0]) - Self.tone($0, c)) }.max() ?? 1
                #expect(worst < step, "\(format) channel \(c): off by \(worst)")
            }
        }
    }

    @Test("a WAV declaring bits per sample no decoder takes (0, 40, 65535; 16-bit float) is bad data, not a missing decoder",
          arguments: [(FixtureFiles.WAVSamples.signed16, 65535), (.signed16, 0), (.signed16, 40), (.float32, 16)])
    func impossibleBits(samples: FixtureFiles.WAVSamples, bits: Int) throws {
        try withTemporaryDirectory { dir in
            let path = "\(dir)/odd.wav"
            try FixtureFiles.wav(path, channels: 2, seconds: 0.2, samples: samples, declaredBits: bits, signal: Self.tone)
            let error = #expect(throws: MediaError.self) { _ = try AudioSource(path: path) }
            #expect(error?.kind == .inputInvalid && error?.subject == path, "\(String(describing: error))")
            #expect(error?.message.contains("no format FFmpeg knows") == true && error?.message.contains("\(bits) bits") == true,
                    "\(String(describing: error))")
        }
    }

    @Test("a WAV whose blocks disagree with its bits per sample (16-bit blocks said to hold 1-bit samples) is refused, not read as noise; fewer bits in a whole container are fine",
          arguments: [(FixtureFiles.WAVSamples.signed16, 1, false), (.signed16, 7, false), (.unsigned8, 16, false), (.signed16, 24, false),
                      (.signed16, 12, true), (.signed24, 20, true), (.unsigned8, 7, true)])
    func blocksAndBits(samples: FixtureFiles.WAVSamples, bits: Int, sound: Bool) throws {
        try withTemporaryDirectory { dir in
            let path = "\(dir)/song.wav"
            try FixtureFiles.wav(path, channels: 3, seconds: 0.2, samples: samples, declaredBits: bits, signal: Self.tone)
            if sound {
                let decoded = try AudioFixture.decode(path)
                #expect(decoded.channels == 3 && decoded.count == 9_600)
                return
            }
            let error = #expect(throws: MediaError.self) { _ = try AudioSource(path: path) }
            #expect(error?.kind == .inputInvalid && error?.message.hasPrefix("its header does not add up: \(3 * samples.bytes)-byte blocks for 3 channels of \(bits)-bit samples") == true,
                    "\(String(describing: error))")
        }
    }
}
