// The bed's settings as typed: every number range-checked before any arithmetic, streams named
// only by the exact `:stream=N` suffix, and presets holding settings but never the file.

import Foundation
import SliceKit
import Testing

@Suite("Audio settings")
struct AudioSettingsTests {
    @Test("Numbers out of range, NaN, infinities and hex are refused, naming what is accepted",
          arguments: [(AudioOption.audioStart, "nan"), (.audioStart, "-1"), (.audioStart, "1e300"), (.audioStart, "86401"),
                      (.audioFadeIn, "-0.5"), (.audioFadeOut, "inf"), (.audioFadeOut, "0x10"), (.loudness, "0"), (.loudness, "-71"),
                      (.volume, "31"), (.volume, ""), (.audioLoop, "maybe")])
    func refused(_ option: AudioOption, _ text: String) {
        var settings = AudioSettings()
        #expect(throws: AudioValueError.self) { try settings.set(option, to: text) }
        #expect(settings == AudioSettings())
        do {
            try settings.set(option, to: text)
        } catch {
            #expect(error.message.contains("expected"))
            #expect(error.option == option)
        }
    }

    @Test("Values in range are taken as given")
    func accepted() throws {
        var settings = AudioSettings()
        try settings.set(.audioStart, to: "12.5")
        try settings.set(.audioFadeIn, to: "0")
        try settings.set(.audioFadeOut, to: "2")
        try settings.set(.loudness, to: "-14")
        try settings.set(.volume, to: "-3.5")
        try settings.set(.audioLoop, to: "true")
        #expect(settings.start == 12.5 && settings.fadeIn == 0 && settings.fadeOut == 2)
        #expect(settings.loudness == -14 && settings.volume == -3.5 && settings.loop)
        #expect(AudioSettings().fadeOut == 0.5)
    }

    @Test("FILE:stream=N names a stream; any other colon is part of the file name")
    func streams() throws {
        var settings = AudioSettings()
        try settings.set(.audio, to: "song.m4a:stream=2")
        #expect(settings.file == "song.m4a" && settings.stream == 2)
        try settings.set(.audio, to: "12:30 take.mp3")
        #expect(settings.file == "12:30 take.mp3" && settings.stream == nil)
        #expect(throws: AudioValueError.self) { try settings.set(.audio, to: "song.m4a:stream=x") }
        #expect(throws: AudioValueError.self) { try settings.set(.audio, to: "song.m4a:stream=99999") }
        #expect(throws: AudioValueError.self) { try settings.set(.audio, to: ":stream=1") }
    }

    @Test("Presets hold audio settings, read back the same, and refuse a file")
    func presets() throws {
        let json = #"{"audio-start": 3, "audio-loop": true, "audio-fade-out": 1.5, "loudness": -16}"#
        let preset = try Preset(json: Data(json.utf8), name: "bed", source: "bed.json")
        #expect(preset.audio.start == 3 && preset.audio.loop && preset.audio.fadeOut == 1.5 && preset.audio.loudness == -16)
        #expect(try Preset(json: Data(preset.json.utf8), name: "bed", source: "again").audio == preset.audio)
        #expect(throws: PresetError.self) { try Preset(json: Data(#"{"audio": "song.mp3"}"#.utf8), name: "x", source: "x.json") }
        #expect(throws: PresetError.self) { try Preset(json: Data(#"{"loudness": "loud"}"#.utf8), name: "x", source: "x.json") }
        #expect(throws: PresetError.self) { try Preset(json: Data(#"{"audio-loop": 1}"#.utf8), name: "x", source: "x.json") }
    }
}
