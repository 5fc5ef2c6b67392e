// EncodingPlan.resolve: each container's defaults, the options each codec takes, and every
// impossible combination refused before anything is written, with a message naming the setting.

import SliceKit
import SliceMedia
import Testing

@Suite("EncodingPlan")
struct EncodingPlanTests {
    static let clip = Clip(width: 1280, height: 720, frameRate: FrameRate(30), frameCount: 61)
    static let transparent = Clip(width: 1280, height: 720, frameRate: FrameRate(30), frameCount: 61, isTransparent: true)

    func plan(_ path: String, run: EncoderSettings = EncoderSettings(), own: EncoderSettings = EncoderSettings(),
              clip: Clip = clip, catalog: EncoderCatalog = .installed) throws -> EncodingPlan {
        let format = try #require(OutputFormat(path: path))
        return try EncodingPlan.resolve(path: path, format: format, runWide: run, own: own, clip: clip, catalog: catalog)
    }

    func refusal(_ path: String, run: EncoderSettings = EncoderSettings(), own: EncoderSettings = EncoderSettings(),
                 clip: Clip = clip, catalog: EncoderCatalog = .installed) throws -> PlanError {
        let format = try #require(OutputFormat(path: path))
        return try #require(throws: PlanError.self) {
            _ = try EncodingPlan.resolve(path: path, format: format, runWide: run, own: own, clip: clip, catalog: catalog)
        }
    }

    @Test("playback-safe defaults for every container", arguments: [
        ("a.mp4", "libx264", "yuv420p", "high", Quality.crf(18), ColorTags.bt709Limited),
        ("a.webm", "libvpx-vp9", "yuv420p", nil, .crf(31), .bt709Limited),
        ("a.mov", "prores_ks", "yuv422p10le", "hq", .profile, .bt709Limited),
        ("a.mkv", "ffv1", "bgr0", nil, .lossless, .sRGB),
        ("a.gif", "gif", "pal8", nil, .palette(256), .none),
        ("a.png", "png", "rgb24", nil, .lossless, .none),
        ("f/%03d.png", "png", "rgb24", nil, .lossless, .none),
        ("a.y4m", "wrapped_avframe", "yuv420p", nil, .uncompressed, .bt709Limited),
    ] as [(String, String, String, String?, Quality, ColorTags)])
    func defaults(path: String, encoder: String, pixelFormat: String, profile: String?, quality: Quality, tags: ColorTags) throws {
        let plan = try plan(path)
        #expect(plan.encoder == encoder)
        #expect(plan.pixelFormat == pixelFormat)
        #expect(plan.profile == profile)
        #expect(plan.quality == quality)
        #expect(plan.colorTags == tags)
        #expect(!plan.keepsAlpha)
    }

    @Test("sizes, frames and durations: video keeps all, a GIF subsamples and shrinks, a poster keeps one")
    func framesAndSizes() throws {
        let mp4 = try plan("a.mp4")
        #expect(mp4.width == 1280 && mp4.height == 720 && mp4.frameCount == 61)
        #expect(abs(mp4.duration - 61.0 / 30) < 1e-9)
        let gif = try plan("a.gif")
        #expect(gif.width == 480 && gif.height == 270)
        #expect(gif.frameRate == FrameRate(15) && gif.frameCount == 31)
        #expect(abs(gif.duration - 2.07) < 1e-9, "GIF delays are centiseconds: 60 frames to 2.00 s, then one 7 cs frame")
        let small = try plan("a.gif", own: EncoderSettings(gifFrameRate: FrameRate(10), gifWidth: 320))
        #expect(small.width == 320 && small.height == 180 && small.frameCount == 21)
        let wide = try plan("a.gif", run: EncoderSettings(gifFrameRate: FrameRate(50), gifWidth: 4000))
        #expect(wide.width == 1280 && wide.frameCount == 61, "never wider or faster than the render")
        // 60 fps into a 50 fps GIF keeps uneven steps of the render; the GIF's delays stay even.
        let fast = try plan("a.gif", own: EncoderSettings(gifFrameRate: FrameRate(50)), clip: Clip(width: 640, height: 360,
                            frameRate: FrameRate(60), frameCount: 121))
        #expect(fast.frameCount == 101 && abs(fast.duration - 2.02) < 1e-9)
        let poster = try plan("a.png")
        #expect(poster.selection.indices == [60] && poster.frameCount == 1)
        #expect(try plan("a.png", own: EncoderSettings(posterTime: 0.5)).selection.indices == [15])
    }

    @Test("HEVC: libx265 with its own default crf, in MP4 and in Matroska")
    func hevc() throws {
        #expect(try plan("a.mp4").summary.contains { $0.key == "crf" && $0.value == "18" })
        let hevc = try plan("a.mp4", own: EncoderSettings(codec: CodecChoice(parsing: "hevc")))
        #expect(hevc.encoder == "libx265" && hevc.quality == .crf(22))
        #expect(try plan("a.mkv", own: EncoderSettings(codec: CodecChoice(parsing: "h265"))).encoder == "libx265")
    }

    @Test("H.264's profile follows the pixel format; crf 0 alone asks for lossless", arguments: [
        ("yuv420p", 18, "high"), ("yuv420p10le", 18, "high10"), ("yuv422p", 18, "high422"), ("yuv444p", 18, "high444"),
        ("yuv420p", 0, "high444"),
    ])
    func h264Profiles(pixelFormat: String, crf: Int, profile: String) throws {
        let plan = try plan("a.mp4", own: EncoderSettings(crf: crf, pixelFormat: pixelFormat))
        #expect(plan.profile == profile)
        #expect(plan.quality == (crf == 0 ? .lossless : .crf(crf)))
    }

    @Test("a transparent background picks each codec's alpha format")
    func alphaFormats() throws {
        let expected = [("a.webm", "yuva420p"), ("a.mov", "yuva444p10le"), ("a.mkv", "bgra"), ("a.png", "rgba"),
                        ("a.gif", "pal8"), ("s%02d.png", "rgba")]
        for (path, format) in expected {
            let plan = try plan(path, clip: Self.transparent)
            #expect(plan.pixelFormat == format && plan.keepsAlpha, "\(path)")
        }
        #expect(try plan("a.mov", clip: Self.transparent).profile == "4444")
        #expect(try plan("a.webm", clip: Self.transparent).renderLayout == .yuva420p)
        #expect(try plan("a.gif", clip: Self.transparent).renderLayout == .gbrap)
    }

    @Test("outputs that cannot keep alpha are refused, naming those that can",
          arguments: ["a.mp4", "a.y4m", "a.webm:av1", "a.mp4:hevc", "a.mkv:h264"])
    func alphaRefused(_ output: String) throws {
        let parts = output.split(separator: ":").map(String.init)
        let own = EncoderSettings(codec: parts.count > 1 ? CodecChoice(parsing: parts[1]) : nil)
        let error = try refusal(parts[0], own: own, clip: Self.transparent)
        #expect(error.kind == .usage)
        #expect(error.message.contains("transparent") && error.message.contains(".webm (VP9)"))
    }

    @Test("a pixel format without alpha is refused when the background is transparent")
    func alphaPixelFormat() throws {
        let error = try refusal("a.webm", own: EncoderSettings(pixelFormat: "yuv420p"), clip: Self.transparent)
        #expect(error.message.contains("pix-fmt=yuv420p") && error.message.contains("yuva420p"))
    }

    @Test("crf ranges are the codec's", arguments: [
        ("a.mp4", 52, "0–51"), ("a.webm", 64, "0–63"), ("a.mp4:hevc", -1, "0–51"), ("a.webm:av1", 0, "1–63"),
    ])
    func crfRanges(output: String, crf: Int, range: String) throws {
        let parts = output.split(separator: ":").map(String.init)
        let codec = parts.count > 1 ? CodecChoice(parsing: parts[1]) : nil
        let own = try refusal(parts[0], own: EncoderSettings(crf: crf, codec: codec))
        #expect(own.kind == .usage && own.message.contains("crf=\(crf)") && own.message.contains(range))
        // Out of range is an error from the flag too: the output could use a crf, just not that one.
        let run = try refusal(parts[0], run: EncoderSettings(crf: crf), own: EncoderSettings(codec: codec))
        #expect(run.text.pieces.first == .setting(OutputOption.crf.setting) && run.message.hasPrefix("crf \(crf) "))
    }

    @Test("codecs without a quality setting refuse their own crf or bitrate, and skip the flags'", arguments: [
        ("a.gif", "lossless"), ("a.mov", "profile"), ("a.mkv", "lossless"), ("a.png", "lossless"),
    ])
    func noQualitySetting(path: String, reason: String) throws {
        let error = try refusal(path, own: EncoderSettings(crf: 0))
        #expect(error.kind == .usage && error.message.contains("crf=0") && error.message.contains(reason))
        #expect(try refusal(path, own: EncoderSettings(bitrate: 2_000_000)).message.contains("bitrate=2M"))
        let skipped = try plan(path, run: EncoderSettings(crf: 20, preset: "ultrafast"))
        #expect(skipped.ignored[.crf] != nil)
    }

    @Test("an output's own bitrate replaces the run's crf, and its crf the run's bitrate")
    func qualityPrecedence() throws {
        let bitrate = try plan("a.webm", run: EncoderSettings(crf: 40), own: EncoderSettings(bitrate: 1_500_000))
        #expect(bitrate.quality == .bitrate(1_500_000))
        let crf = try plan("a.mp4", run: EncoderSettings(bitrate: 4_000_000), own: EncoderSettings(crf: 23))
        #expect(crf.quality == .crf(23))
        #expect(try plan("a.mp4", run: EncoderSettings(bitrate: 4_000_000)).quality == .bitrate(4_000_000))
    }

    @Test("a pixel format the encoder does not list is refused with the list; a flag's is skipped")
    func pixelFormats() throws {
        let error = try refusal("a.mp4", own: EncoderSettings(pixelFormat: "yuva420p"))
        #expect(error.message.contains("pix-fmt=yuva420p") && error.message.contains("yuv444p"))
        #expect(try refusal("a.mp4", own: EncoderSettings(pixelFormat: "yuvj420p")).message.contains("accepted"))
        #expect(try refusal("a.mp4", own: EncoderSettings(pixelFormat: "nonsense")).message.contains("not a pixel format"))
        #expect(try refusal("a.gif", own: EncoderSettings(pixelFormat: "rgb24")).message.contains("pal8"))
        let skipped = try plan("a.webm", run: EncoderSettings(pixelFormat: "yuv444p10le"))
        #expect(skipped.pixelFormat == "yuv444p10le")
        let mov = try plan("a.mov", run: EncoderSettings(pixelFormat: "yuv420p"))
        #expect(mov.pixelFormat == "yuv422p10le" && mov.ignored[.pixFmt] != nil)
        #expect(try plan("a.mov", own: EncoderSettings(pixelFormat: "yuv444p10le")).profile == "4444")
    }

    @Test("a codec the container does not carry: refused as the output's own, skipped as the flag")
    func codecs() throws {
        let error = try refusal("a.webm", own: EncoderSettings(codec: CodecChoice(parsing: "h264")))
        #expect(error.message.contains("codec=h264") && error.message.contains("vp9, av1"))
        let skipped = try plan("a.webm", run: EncoderSettings(codec: CodecChoice(parsing: "hevc")))
        #expect(skipped.codec == .vp9 && skipped.ignored[.codec] != nil)
    }

    @Test("AV1 takes SVT-AV1, then libaom-av1 when SVT is missing or the frame is under 64 px")
    func av1Fallback() throws {
        let av1 = EncoderSettings(codec: CodecChoice(parsing: "av1"))
        #expect(try plan("a.webm", own: av1).encoder == "libsvtav1")
        #expect(try plan("a.webm", own: av1, catalog: EncoderCatalog(missing: ["libsvtav1"])).encoder == "libaom-av1")
        let tiny = Clip(width: 64, height: 36, frameRate: FrameRate(10), frameCount: 6)
        #expect(try plan("a.webm", own: av1, clip: tiny).encoder == "libaom-av1")
        let svt = try refusal("a.webm", own: EncoderSettings(codec: CodecChoice(parsing: "libsvtav1")), clip: tiny)
        #expect(svt.kind == .usage && svt.message.contains("64x64"))
    }

    @Test("a missing encoder names the codec and the encoders the container still has")
    func missingEncoders() throws {
        let av1 = try refusal("a.webm", own: EncoderSettings(codec: CodecChoice(parsing: "av1")),
                              catalog: EncoderCatalog(missing: ["libsvtav1", "libaom-av1"]))
        #expect(av1.kind == .unavailable)
        #expect(av1.message.contains("AV1") && av1.message.contains("libsvtav1 or libaom-av1") && av1.message.contains("vp9 (libvpx-vp9)"))
        let h264 = try refusal("a.mp4", catalog: EncoderCatalog(missing: ["libx264"]))
        #expect(h264.kind == .unavailable && h264.message.contains("hevc (libx265)"))
        let none = try refusal("a.mov", catalog: EncoderCatalog(missing: ["prores_ks"]))
        #expect(none.message.contains("no other encoder"))
    }

    @Test("one speed scale, translated to each encoder; its own numbers work too", arguments: [
        ("a.mp4", "ultrafast", "preset ultrafast"), ("a.webm", "ultrafast", "cpu-used 8 (realtime)"),
        ("a.webm", "medium", "cpu-used 2 (good)"), ("a.webm", "4", "cpu-used 4 (good)"),
        ("a.webm:av1", "medium", "preset 7"), ("a.webm:av1", "12", "preset 12"), ("a.webm:libaom-av1", "fast", "cpu-used 5"),
    ])
    func speeds(output: String, preset: String, summary: String) throws {
        let parts = output.split(separator: ":").map(String.init)
        let plan = try plan(parts[0], own: EncoderSettings(preset: preset, codec: parts.count > 1 ? CodecChoice(parsing: parts[1]) : nil))
        #expect(plan.speed == summary)
    }

    @Test("speeds an encoder cannot take are refused; codecs without one refuse their own and skip the flag")
    func badSpeeds() throws {
        #expect(try refusal("a.mp4", own: EncoderSettings(preset: "4")).message.contains("ultrafast"))
        #expect(try refusal("a.webm", own: EncoderSettings(preset: "9")).message.contains("cpu-used 0–8"))
        #expect(try refusal("a.mov", own: EncoderSettings(preset: "fast")).message.contains("no speed setting"))
        #expect(try plan("a.mov", run: EncoderSettings(preset: "fast")).ignored[.encoderPreset] != nil)
    }

    @Test("GIF and poster options belong to their outputs; a poster time must lie in the clip")
    func outputSpecificOptions() throws {
        #expect(try refusal("a.mp4", own: EncoderSettings(gifWidth: 320)).message.contains(".gif outputs only"))
        #expect(try refusal("a.mp4", own: EncoderSettings(posterTime: 1)).message.contains("poster"))
        #expect(try plan("a.mp4", run: EncoderSettings(gifFrameRate: FrameRate(10))).ignored[.gifFPS] != nil)
        let late = try refusal("a.png", own: EncoderSettings(posterTime: 3))
        #expect(late.message.contains("poster-at=3") && late.message.contains("2 s"))
    }

    @Test("the dry-run summary is key=value pairs; only FFmpeg's profile names hold spaces (the lines quote them)")
    func summary() throws {
        for path in ["a.mp4", "a.webm", "a.mov", "a.mkv", "a.gif", "a.png"] {
            let pairs = try plan(path).summary
            #expect(pairs.first?.key == "container")
            #expect(pairs.allSatisfy { !$0.key.contains(" ") && !$0.value.contains("=") && ($0.key == "profile" || !$0.value.contains(" ")) }, "\(pairs)")
            #expect(Set(pairs.map(\.key)).isSuperset(of: ["codec", "encoder", "pix_fmt", "size", "fps", "frames", "duration"]))
        }
    }
}
