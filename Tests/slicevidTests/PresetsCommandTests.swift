// `slicevid presets` and `--preset`: the list, the JSON `presets show` prints (which must be a
// valid preset file to copy and edit), and preset files that are wrong.

import Foundation
import SliceMedia
import Testing

@Suite("slicevid presets")
struct PresetsCommandTests {
    @Test("presets lists the built-in spring preset")
    func list() throws {
        try withScratchFolder { folder in
            let result = try CLI.run(["presets"], in: folder)
            #expect(result.status == 0, "\(result)")
            #expect(result.stderr.isEmpty)
            #expect(result.stdout.split(separator: "\n").contains { $0.hasPrefix("spring ") }, "\(result.stdout)")
        }
    }

    @Test("presets show spring prints the seed transition as JSON")
    func show() throws {
        try withScratchFolder { folder in
            let result = try CLI.run(["presets", "show", "spring"], in: folder)
            #expect(result.status == 0, "\(result)")
            let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            let fields = try #require(object)
            #expect(fields["size"] as? String == "1920x1080")
            #expect(fields["easing"] as? String == "spring")
            #expect((fields["slices"] as? NSNumber)?.intValue == 75)
            for key in ["fps", "hold", "duration", "end-hold", "direction", "travel", "seed", "background", "fit"] {
                #expect(fields[key] != nil, "\(key) is missing")
            }
        }
    }

    @Test("the JSON presets show prints is accepted back by --preset FILE")
    func showRoundTrip() throws {
        try withScratchFolder { folder in
            let shown = try CLI.run(["presets", "show", "spring"], in: folder)
            try #require(shown.status == 0)
            try writeFile(folder + "/mine.json", Data(shown.stdout.utf8))
            // Flags override the preset's 1080p so the render stays tiny.
            let result = try CLI.make(["--preset", "mine.json"] + tinyClip + ["-o", "out.mp4"], in: folder)
            // "duration": 1 and "end-hold": 0 are numbers, not booleans (Linux's NSNumber is Bool for 0 and 1).
            #expect(result.status == 0, "\(result)")
            #expect(try MediaReader.info(path: folder + "/out.mp4").frameCount == tinyClipFrames)
        }
    }

    @Test("a preset file's values are used, flags override them, and it names the default output")
    func presetFile() throws {
        try withScratchFolder { folder in
            let json = """
                {"description": "tiny", "size": "64x36", "fps": "10", "hold": 0.2, "duration": 0.3, "slices": 16,
                 "travel": [2, 3], "seed": 7, "background": "#102030", "easing": "ease-out"}
                """
            try writeFile(folder + "/tiny.json", Data(json.utf8))
            let result = try CLI.make(["--preset", "./tiny.json", "--encoder-preset", "ultrafast"], in: folder)
            #expect(result.status == 0, "\(result)")
            let info = try MediaReader.info(path: folder + "/tiny.mp4")
            #expect(info.width == 64 && info.height == 36)
            #expect(info.frameCount == tinyClipFrames)

            let faster = try CLI.make(["--preset", "./tiny.json", "--encoder-preset", "ultrafast", "--fps", "20", "-o", "fast.mp4"], in: folder)
            #expect(faster.status == 0, "\(faster)")
            #expect(try MediaReader.info(path: folder + "/fast.mp4").frameCount == 11)
        }
    }

    @Test("a bad preset file is a usage error naming the file and the key",
          arguments: [
            ("unknown key", #"{"size": "64x36", "wobble": 3}"#, ["bad.json", "wobble", "accepted"]),
            ("wrong type", #"{"slices": [16]}"#, ["bad.json", "slices", "wrong type"]),
            ("bad value", #"{"fit": "stretch"}"#, ["bad.json", "fit", "stretch", "contain"]),
            ("malformed JSON", #"{"size": "64x36","#, ["bad.json", "line 1, column 18"]),
          ])
    func badPresetFile(_ label: String, _ json: String, _ mentions: [String]) throws {
        try withScratchFolder { folder in
            try writeFile(folder + "/bad.json", Data(json.utf8))
            let before = FolderSnapshot(folder)
            let result = try CLI.make(["--preset", "bad.json"] + tinyClip, in: folder)
            #expect(result.status == 64, "\(label): \(result)")
            #expect(result.stderrIsOneLine, "\(label): \(result)")
            for word in mentions { #expect(result.stderr.contains(word), "\(label): the message should name \(word): \(result)") }
            #expect(FolderSnapshot(folder) == before)
        }
    }

    @Test("presets show of an unknown name is a usage error")
    func showUnknown() throws {
        try withScratchFolder { folder in
            let result = try CLI.run(["presets", "show", "autumn"], in: folder)
            #expect(result.status == 64)
            #expect(result.stderrIsOneLine && result.stderr.contains("autumn") && result.stderr.contains("spring"), "\(result)")
            #expect(result.stdout.isEmpty)
        }
    }
}
