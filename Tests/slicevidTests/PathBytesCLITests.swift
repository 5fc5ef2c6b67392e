// Names that are not UTF-8 are kept byte for byte from the command line to the file system —
// stills, --audio, --preset, --layout, outputs (files and sequences), manifests, reports and
// merged reports — and shown as \xFF in messages.

import Foundation
import SliceKit
import SliceMedia
import StillFixtures
import Testing

@Suite(.timeLimit(.minutes(10))) struct PathBytesCLITests {
    private static let red = RGBAColor(red: 220, green: 30, blue: 30)
    private static let blue = RGBAColor(red: 30, green: 30, blue: 220)
    private static let tiny: [ArgumentBytes] = ["--size", "64x36", "--fps", "10", "--hold", "0.2", "--duration", "0.3", "--slices", "8"]

    /// Writes `image` as a PNG named by `name`'s bytes in `folder`.
    private static func still(_ image: RGBAImage, _ name: ArgumentBytes, in folder: String) throws {
        let made = folder + "/made-\(UUID().uuidString).png"
        try StillWriter.write(image, to: made, format: .png)
        try write(try Data(contentsOf: URL(fileURLWithPath: made)), to: ArgumentBytes(folder).slash(name))
        try FileManager.default.removeItem(atPath: made)
    }

    /// The file named by `name`'s bytes, copied to a plain name so the check side reads it.
    private static func copy(_ name: ArgumentBytes, in folder: String) throws -> String {
        let data = try #require(contents(ArgumentBytes(folder).slash(name)))
        let plain = folder + "/check-\(UUID().uuidString).mkv"
        try data.write(to: URL(fileURLWithPath: plain))
        return plain
    }

    @Test func stillsSongAndOutputKeepTheirBytes() throws {
        try withScratchFolder { folder in
            let from = ArgumentBytes.name("in", 0xFF, ".png"), to = ArgumentBytes.name("b", 0xE9, ".png")
            let song = ArgumentBytes.name("s", 0xFE, ".wav"), output = ArgumentBytes.name("out", 0xFF, ".mkv")
            try Self.still(RGBAImage(width: 64, height: 36, color: Self.red), from, in: folder)
            try Self.still(RGBAImage(width: 64, height: 36, color: Self.blue), to, in: folder)
            try FixtureFiles.wav(folder + "/song.wav", channels: 2, seconds: 1) { i, _ in 0.2 * sin(Double(i) / 20) }
            try write(try Data(contentsOf: URL(fileURLWithPath: folder + "/song.wav")), to: ArgumentBytes(folder).slash(song))

            let made = try CLI.run(bytes: ["make", "--from", from, "--to", to, "--audio", song, "-o", output] + Self.tiny, in: folder)
            #expect(made.status == 0, "\(made)")
            #expect(made.stderr.contains("wrote out\\xFF.mkv"), "\(made)")
            #expect(entryBytes(in: ArgumentBytes(folder)).contains(output.bytes))
            #expect(!exists(ArgumentBytes(folder).slash(ArgumentBytes(Array("out\u{FFFD}.mkv".utf8)))))
            let clip = try Self.copy(output, in: folder)
            let frames = try MediaReader.frames(path: clip, layout: .gbrp)
            let first = try #require(frames.first), last = try #require(frames.last)
            #expect(Pixels.isClose(Pixels.color(first, 10, 10), Self.red, within: 12) && Pixels.isClose(Pixels.color(last, 10, 10), Self.blue, within: 12))
            #expect(try MediaReader.info(path: clip).audio != nil)

            let probe = try CLI.run(bytes: ["probe", from], in: folder)
            #expect(probe.status == 0 && probe.stdout.hasPrefix("in\\xFF.png: container=png codec=png"), "\(probe)")
            let missing = try CLI.run(bytes: ["make", "--from", .name("gone", 0xFF, ".png"), "--to", to, "-o", "never.mp4"], in: folder)
            #expect(missing.status == 66 && missing.stderr == "slicevid: error: gone\\xFF.png: no such file\n", "\(missing)")
        }
    }

    @Test func aPresetALayoutAndASequenceKeepTheirBytes() throws {
        try withScratchFolder { folder in
            let kit = ArgumentBytes.name("kit", 0xF0, "")
            try makeFolder(ArgumentBytes(folder).slash(kit))
            try Self.still(RGBAImage(width: 64, height: 36, color: Self.red), "a.png", in: folder)
            try Self.still(RGBAImage(width: 64, height: 36, color: Self.blue), "b.png", in: folder)
            try Self.still(RGBAImage(width: 8, height: 8, color: RGBAColor(red: 0, green: 255, blue: 0)), kit.slash("logo.png"), in: folder)
            // 64x36 at 10 fps, 0.2 + 0.3 s: 6 frames.
            let preset = ArgumentBytes.name("p", 0xF0, ".json"), layout = ArgumentBytes.name("l", 0xFF, ".json")
            try write(Data(#"{"size": "64x36", "fps": 10, "hold": 0.2, "duration": 0.3, "slices": 8}"#.utf8), to: ArgumentBytes(folder).slash(kit).slash(preset))
            try write(Data(#"{"layers": [{"on": "over", "image": "logo.png", "box": [0, 0, 0.25, 0.25]}]}"#.utf8), to: ArgumentBytes(folder).slash(kit).slash(layout))
            let frames = ArgumentBytes.name("seq", 0xFF, "")

            let made = try CLI.run(bytes: ["make", "a.png", "b.png", "--preset", kit.slash(preset), "--layout", kit.slash(layout),
                                           "-o", frames.slash("%03d.png")], in: folder)
            #expect(made.status == 0, "\(made)")
            #expect(entryBytes(in: ArgumentBytes(folder).slash(frames)) == (0..<6).map { Array(String(format: "%03d.png", $0).utf8) })
            let last = try #require(contents(ArgumentBytes(folder).slash(frames).slash("005.png")))
            try last.write(to: URL(fileURLWithPath: folder + "/last.png"))
            let picture = try #require(try MediaReader.frames(path: folder + "/last.png", layout: .gbrp).first)
            #expect(Pixels.isClose(Pixels.color(picture, 8, 4), RGBAColor(red: 0, green: 255, blue: 0), within: 12), "the logo of the layout")
            #expect(Pixels.isClose(Pixels.color(picture, 40, 30), Self.blue, within: 12))

            let missing = try CLI.run(bytes: ["make", "a.png", "b.png", "--preset", kit.slash(.name("none", 0xFF, ".json")), "-o", "x.mp4"], in: folder)
            #expect(missing.status == 64 && missing.stderrIsOneLine && missing.stderr.contains("kit\\xF0/none\\xFF.json"), "\(missing)")
        }
    }

    @Test func aManifestItsReportAndAMergeKeepTheirBytes() throws {
        try withScratchFolder { folder in
            let campaign = ArgumentBytes.name("d", 0xFF, "")
            try makeFolder(ArgumentBytes(folder).slash(campaign))
            try Self.still(RGBAImage(width: 64, height: 36, color: Self.red), campaign.slash("a.png"), in: folder)
            try Self.still(RGBAImage(width: 64, height: 36, color: Self.blue), campaign.slash("b.png"), in: folder)
            let manifest = campaign.slash(.name("m", 0xFF, ".json")), report = campaign.slash(.name("r", 0xFE, ".json"))
            try write(Data(#"""
                {"defaults": {"size": "64x36", "fps": 10, "hold": 0.2, "duration": 0.3, "slices": 8},
                 "jobs": [{"id": "one", "images": ["a.png", "b.png"], "outputs": ["out/one.mkv"]}]}
                """#.utf8), to: ArgumentBytes(folder).slash(manifest))

            let run = try CLI.run(bytes: ["batch", manifest, "--report", report], in: folder)
            #expect(run.status == 0, "\(run)")
            #expect(run.stderr.contains("report written to d\\xFF/r\\xFE.json"), "\(run)")
            let written = try #require(contents(ArgumentBytes(folder).slash(report)))
            let object = try #require(try JSONSerialization.jsonObject(with: written) as? [String: Any])
            #expect((object["jobs"] as? [[String: Any]])?.first?["status"] as? String == "rendered")
            let clip = try Self.copy(campaign.slash("out/one.mkv"), in: folder)
            #expect(try MediaReader.info(path: clip).frameCount == 6)

            // Read back: the output's record is found beside it, so the job is up to date.
            let again = try CLI.run(bytes: ["batch", manifest, "--report", report], in: folder)
            #expect(again.status == 0 && again.stderr.contains("one: up to date"), "\(again)")

            let merged = ArgumentBytes.name("merged", 0xFF, ".json")
            let merge = try CLI.run(bytes: ["report", "merge", report, "-o", merged], in: folder)
            #expect(merge.status == 0, "\(merge)")
            #expect(contents(ArgumentBytes(folder).slash(merged)).map { !$0.isEmpty } == true)

            // The job leaves the manifest: its output, in a folder whose name is not UTF-8, is
            // an orphan that every run reports and --prune deletes with its sidecar.
            try write(Data(#"""
                {"defaults": {"size": "64x36", "fps": 10, "hold": 0.2, "duration": 0.3, "slices": 8},
                 "jobs": [{"id": "two", "images": ["b.png", "a.png"], "outputs": ["out/two.mkv"]}]}
                """#.utf8), to: ArgumentBytes(folder).slash(manifest))
            let out = ArgumentBytes(folder).slash(campaign).slash("out")
            let reported = try CLI.run(bytes: ["batch", manifest], in: folder)
            #expect(reported.status == 0 && reported.stderr.contains("\\xFF/out/one.mkv was written for job 'one', no longer in the manifest; --prune deletes it"), "\(reported)")
            #expect(exists(out.slash("one.mkv")))
            // One of two outputs is more than the brake's quarter: the bytes are what is tested here.
            let pruned = try CLI.run(bytes: ["batch", manifest, "--prune", "--prune-max", "100%"], in: folder)
            #expect(pruned.status == 0 && pruned.stderr.contains("pruned ") && pruned.stderr.contains("\\xFF/out/one.mkv and its sidecar"), "\(pruned)")
            #expect(entryBytes(in: out).sorted { $0.lexicographicallyPrecedes($1) } == [".two.mkv.slicevid.json", "two.mkv"].map { Array($0.utf8) },
                    "one.mkv and its sidecar are gone: \(entryBytes(in: out).map { String(decoding: $0, as: UTF8.self) })")
        }
    }
}
