// `-o PATH[:KEY=VALUE...]`: where the path ends and an output's own options begin.

import SliceKit
import SliceMedia
import Testing

@Suite("OutputArgument")
struct OutputArgumentTests {
    @Test("options after the path, with preset as a short key")
    func options() throws {
        let argument = try OutputArgument(parsing: "out/promo.webm:crf=32:preset=6:pix-fmt=yuv420p10le")
        #expect(argument.path == "out/promo.webm")
        #expect(argument.settings == EncoderSettings(crf: 32, preset: "6", pixelFormat: "yuv420p10le"))
        let gif = try OutputArgument(parsing: "a.gif:gif-fps=12:gif-width=320")
        #expect(gif.settings.gifFrameRate == FrameRate(12) && gif.settings.gifWidth == 320)
        #expect(try OutputArgument(parsing: "clip.mp4:codec=hevc:bitrate=4M").settings
                == EncoderSettings(codec: CodecChoice(codec: .hevc), bitrate: 4_000_000))
    }

    @Test("colons that do not start options are part of the path", arguments: [
        "12:30.mp4", "dir:x/clip.mp4", "a:b.webm", "clip.mp4:", "clip.mp4:crf", "clip.mp4:wobble=1", "-", "null",
    ])
    func plainPaths(text: String) throws {
        let argument = try OutputArgument(parsing: text)
        #expect(argument.path == text && argument.settings == EncoderSettings())
    }

    @Test("a directory's colon does not stop the options after the file name")
    func directoryColon() throws {
        let argument = try OutputArgument(parsing: "take:2/clip.mp4:crf=20")
        #expect(argument.path == "take:2/clip.mp4" && argument.settings.crf == 20)
    }

    @Test("bad options name the output and the option", arguments: [
        ("a.webm:crf=high", "crf"), ("a.webm:crf=30:crf=31", "twice"), ("a.mp4:crf=20:bitrate=2M", "give one"),
        ("a.mp4:codec=mpeg2", "h264"), ("a.gif:gif-fps=100", "1–50"), ("a.gif:gif-fps=0.5", "1–50"), ("a.mp4:bitrate=0x10k", "2500k"),
        ("a.png:poster-at=inf", "poster"), ("a.mp4:preset=fast\u{1B}[2J", "ultrafast"), ("a.mp4:pix-fmt=yuv 420p", "pixel format"), ("a.png:poster-at=-1", "poster"),
        ("a.mp4:bitrate=fast", "2500k"),
    ])
    func refusals(text: String, mention: String) throws {
        let error = try #require(throws: OutputArgumentError.self) { try OutputArgument(parsing: text) }
        #expect(error.text.pieces.first == .output(String(text.split(separator: ":")[0])) && error.description.hasPrefix("output \(text.split(separator: ":")[0]): "))
        #expect(error.description.contains(mention), "\(error)")
    }
}

@Suite("OutputOption")
struct OutputOptionTests {
    @Test("the option table's names are the flags")
    func names() {
        #expect(OutputOption.allCases.map(\.rawValue) == ["codec", "crf", "bitrate", "encoder-preset", "pix-fmt", "gif-fps", "gif-width", "poster-at", "sheet", "audio-codec"])
        #expect(OutputOption(key: "preset") == .encoderPreset)
    }

    @Test("bitrates as people write them", arguments: [("2500k", 2_500_000), ("4M", 4_000_000), ("1.5m", 1_500_000), ("800000", 800_000)])
    func bitrates(text: String, bits: Int) throws {
        var settings = EncoderSettings()
        try settings.set(.bitrate, to: text)
        #expect(settings.bitrate == bits)
    }

    @Test("a speed is a name or a number some encoder takes; anything else is refused as it is read")
    func speeds() throws {
        for text in ["ultrafast", "FAST", "placebo", "0", "8", "13"] {
            var settings = EncoderSettings()
            try settings.set(.encoderPreset, to: text)
            #expect(settings.preset == text.lowercased())
        }
        for text in ["-1", "14", "+5", "bogus", "p4", "", "1e1"] {
            var settings = EncoderSettings()
            #expect(throws: OptionValueError.self, "\(text)") { try settings.set(.encoderPreset, to: text) }
        }
    }

    @Test("codec names, aliases and encoder names", arguments: [
        ("h264", VideoCodec.h264, nil), ("x265", .hevc, nil), ("H265", .hevc, nil), ("av1", .av1, nil),
        ("libaom-av1", .av1, "libaom-av1"), ("libsvtav1", .av1, "libsvtav1"), ("prores", .prores, nil), ("ffv1", .ffv1, nil),
    ] as [(String, VideoCodec, String?)])
    func codecs(text: String, codec: VideoCodec, encoder: String?) {
        #expect(CodecChoice(parsing: text) == CodecChoice(codec: codec, encoder: encoder))
    }

    @Test("later settings override earlier ones; a crf and a bitrate replace each other")
    func overriding() {
        let run = EncoderSettings(crf: 20, preset: "fast", pixelFormat: "yuv444p")
        let merged = run.overridden(by: EncoderSettings(bitrate: 2_000_000))
        #expect(merged.crf == nil && merged.bitrate == 2_000_000 && merged.preset == "fast" && merged.pixelFormat == "yuv444p")
        #expect(merged.overridden(by: EncoderSettings(crf: 30)).bitrate == nil)
        #expect(run.givenOptions == [.crf, .encoderPreset, .pixFmt])
    }
}

@Suite("OutputArgument audio")
struct OutputArgumentAudioTests {
    @Test("audio=none leaves one output's bed out; any other value, or giving it twice, is refused naming it")
    func audioNone() throws {
        let silent = try OutputArgument(parsing: "clip.mp4:audio=none:crf=20")
        #expect(silent.path == "clip.mp4" && silent.settings.silent && silent.settings.crf == 20)
        #expect(try OutputArgument(parsing: "master.mkv:audio-codec=opus").settings.audioCodec == .opus)
        for bad in ["clip.mp4:audio=song.mp3", "clip.mp4:audio=none:audio=none", "clip.mp4:audio-codec=mp3"] {
            #expect(throws: OutputArgumentError.self) { try OutputArgument(parsing: bad) }
        }
    }
}
