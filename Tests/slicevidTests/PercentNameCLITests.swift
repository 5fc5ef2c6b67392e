// Files whose names hold a `%` are those files, to `probe` and to `make` (stills, --audio,
// a manifest's images): only a probed name that names nothing is a sequence's pattern.

import Foundation
import SliceKit
import SliceMedia
import StillFixtures
import Testing

@Suite(.timeLimit(.minutes(10))) struct PercentNameCLITests {
    private static let red = RGBAColor(red: 220, green: 30, blue: 30)
    private static let blue = RGBAColor(red: 30, green: 30, blue: 220)

    @Test func probeReadsAnExistingFileWithAPercentAsThatFile() throws {
        try withScratchFolder { folder in
            try Still.write(RGBAImage(width: 48, height: 26, color: Self.red), "p%.png", in: folder)
            #expect(try CLI.make(tinyClip + ["-o", "a%%b.mp4"], in: folder).status == 0)
            #expect(FileManager.default.createFile(atPath: folder + "/e%.bin", contents: Data()))

            let still = try CLI.run(["probe", "p%.png"], in: folder)
            #expect(still.status == 0 && still.stdout.hasPrefix("p%.png: container=png codec=png") && still.stdout.contains("size=48x26"), "\(still)")
            let clip = try CLI.run(["probe", "a%%b.mp4"], in: folder)
            #expect(clip.status == 0 && clip.stdout.contains("frames=\(tinyClipFrames)"), "\(clip)")
            let empty = try CLI.run(["probe", "e%.bin"], in: folder)
            #expect(empty.status == 65 && empty.stderrIsOneLine && empty.stderr == "slicevid: error: e%.bin: is not readable media\n", "\(empty)")
            let missing = try CLI.run(["probe", "x%.png"], in: folder)
            #expect(missing.status == 66 && missing.stderrIsOneLine && missing.stderr.hasPrefix("slicevid: error: x%.png: no such file"), "\(missing)")
        }
    }

    @Test func makeReadsStillsAndASongWhoseNamesHoldAPercent() throws {
        try withScratchFolder { folder in
            try Still.write(RGBAImage(width: 64, height: 36, color: Self.red), "from%d.png", in: folder)
            try Still.write(RGBAImage(width: 64, height: 36, color: Self.blue), "to%%.png", in: folder)
            try FixtureFiles.wav(folder + "/so%ng.wav", channels: 2, seconds: 1) { i, _ in 0.2 * sin(Double(i) / 20) }
            let made = try CLI.make(tinyClip + ["--from", "from%d.png", "--to", "to%%.png", "--audio", "so%ng.wav", "-o", "o%.mkv"], in: folder)
            #expect(made.status == 0, "\(made)")
            try Self.expectRedToBlue(folder + "/o%.mkv", audio: true)
        }
    }

    @Test func aPosterGoesIntoAFolderWhoseNameHoldsAPercent() throws {
        try withScratchFolder { folder in
            try Still.write(RGBAImage(width: 64, height: 36, color: Self.red), "a.png", in: folder)
            // A manifest in such a folder resolves its outputs there: the same rule.
            let made = try CLI.make(tinyClip + ["--from", "a.png", "--to", "a.png", "-o", "50%/poster.png"], in: folder)
            #expect(made.status == 0, "\(made)")
            let poster = try #require(try MediaReader.frames(path: folder + "/50%/poster.png", layout: .gbrp).first)
            #expect(Pixels.isClose(Pixels.color(poster, 10, 10), Self.red, within: 12))
            // A sequence's path holds no % but its number: image2 expands the whole path.
            let sequence = try CLI.make(tinyClip + ["--from", "a.png", "--to", "a.png", "-o", "50%/%03d.png"], in: folder)
            #expect(sequence.status == 64 && sequence.stderrIsOneLine && sequence.stderr.contains("is not a frame pattern"), "\(sequence)")
        }
    }

    @Test func aManifestsImagesWhoseNamesHoldAPercentAreThoseFiles() throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        try StillWriter.write(RGBAImage(width: 64, height: 36, color: Self.red), to: folder.path + "/r%05d.png", format: .png)
        try StillWriter.write(RGBAImage(width: 64, height: 36, color: Self.blue), to: folder.path + "/b%.png", format: .png)
        let manifest = try folder.campaign(jobs: [["id": "percent", "images": ["r%05d.png", "b%.png"], "outputs": ["out/p%.mkv"]]])
        let run = try BatchCLI.run(["batch", manifest], in: folder.path)
        #expect(run.status == 0, "\(run.stderr)")
        try Self.expectRedToBlue(folder.path + "/out/p%.mkv", audio: false)
    }

    /// The clip at `path` starts on the red still and ends on the blue one.
    private static func expectRedToBlue(_ path: String, audio: Bool) throws {
        let frames = try MediaReader.frames(path: path, layout: .gbrp)
        let first = try #require(frames.first), last = try #require(frames.last)
        #expect(Pixels.isClose(Pixels.color(first, 10, 10), red, within: 12), "\(Pixels.color(first, 10, 10))")
        #expect(Pixels.isClose(Pixels.color(last, 10, 10), blue, within: 12), "\(Pixels.color(last, 10, 10))")
        #expect((try MediaReader.info(path: path).audio != nil) == audio)
    }
}
