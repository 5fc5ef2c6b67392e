// An output's bytes depend only on its own inputs and settings: a video written beside a poster,
// a GIF, a storyboard, a frame sequence or a 10-bit master is the video written alone, byte for
// byte, and so is each of the others. (Renders used to run in the one layout that covered every
// output and convert from it, so adding a PNG poster moved an MP4's pixels, ~51 dB PSNR.)

import Foundation
import Glibc
import SliceKit
import SliceMedia
import Testing

@Suite("an output's bytes do not depend on the other outputs of its run", .timeLimit(.minutes(10)))
struct OutputIndependenceTests {
    /// The demo cards (gradients, where a conversion's rounding shows) at 30 fps, so a poster uses
    /// one frame of 16 and a GIF (15 fps) every other one.
    private static let clip = tinyClip(["--fps": "30"])

    /// What `-o x.mp4` is written beside, one at a time: every kind of output `make` writes.
    static let beside = ["x.webm", "x.mov", "x.mkv", "x.gif", "x.png", "x.jpg", "x.webp", "frames/%03d.png",
                         "board.jpg:sheet=2x2", "board.png:sheet=2x1", "x.y4m", "deep.mp4:pix-fmt=yuv420p10le",
                         "full.mp4:pix-fmt=yuv444p", "h264.mkv:codec=h264"]
    /// The same with a transparent background, beside `-o x.webm` (VP9 with alpha).
    static let besideTransparent = ["x.mov", "x.mkv", "x.gif", "x.png", "frames/%03d.png", "board.png:sheet=2x1"]

    @Test("an MP4 is the same beside any other output, and so is the other", arguments: beside)
    func videoBeside(_ other: String) throws {
        try withScratchFolder { folder in
            try expectSame(["x.mp4", other], Self.clip, in: folder)
        }
    }

    @Test("with a transparent background, a WebM is the same beside any other output that keeps alpha",
          arguments: besideTransparent)
    func transparentVideoBeside(_ other: String) throws {
        try withScratchFolder { folder in
            try expectSame(["x.webm", other], Self.clip + ["--background", "transparent"], in: folder)
        }
    }

    @Test("every output of a run of all kinds is the one written alone, with --jobs 1 and 2")
    func everythingAtOnce() throws {
        try withScratchFolder { folder in
            for jobs in ["1", "2"] {
                try FileManager.default.createDirectory(atPath: folder + "/jobs\(jobs)", withIntermediateDirectories: true)
                try expectSame(["x.mp4"] + Self.beside, Self.clip + ["--jobs", jobs], in: folder + "/jobs\(jobs)")
            }
            for output in ["x.mp4"] + Self.beside {
                let path = String(output.prefix { $0 != ":" })
                #expect(try Self.files(of: path, in: folder + "/jobs1/together") == Self.files(of: path, in: folder + "/jobs2/together"), "\(output)")
            }
        }
    }

    @Test("with a layout's text on a card and a logo over the frames, too")
    func withLayers() throws {
        try withScratchFolder { folder in
            try LayoutCLITests.campaign(in: folder)
            try expectSame(["x.mp4", "x.png", "x.gif", "x.mov"], LayoutCLITests.flags + ["--encoder-preset", "ultrafast"], in: folder)
        }
    }

    @Test("a batch job's outputs are each the one make writes alone, and its page's poster changes none of them")
    func batchJob() throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        // Gradients, where a conversion's rounding shows.
        for (index, name) in ["a.png", "b.png"].enumerated() {
            var image = RGBAImage(width: 64, height: 36, color: RGBAColor(red: 0, green: 0, blue: 0))
            for y in 0..<36 {
                for x in 0..<64 {
                    let at = 4 * (y * 64 + x)
                    image.pixels.replaceSubrange(at..<(at + 3), with: [UInt8(x * 4), UInt8(y * 7), UInt8(index * 120 + x + y)])
                }
            }
            try StillWriter.write(image, to: folder.path + "/" + name, format: .png)
        }
        // The GIF first: the page's poster is drawn in its layout, the MP4 and WebM in theirs.
        let outputs = ["x.gif", "x.mp4", "x.webm", "x.png"]
        let settings: [String: Any] = ["size": "64x36", "fps": 30, "hold": 0.2, "duration": 0.3, "slices": 8, "encoder-preset": "ultrafast"]
        let manifest = try folder.campaign(jobs: [["id": "j", "images": ["a.png", "b.png"], "outputs": outputs.dropLast().map { "out/" + $0 }],
                                                  ["id": "k", "images": ["a.png", "b.png"], "outputs": ["out/k.png"]]], defaults: settings)
        let run = try BatchCLI.run(["batch", manifest, "--report", "index.html"], in: folder.path)
        try #require(run.status == 0, "\(run.stderr)")
        let flags = ["a.png", "b.png", "--size", "64x36", "--fps", "30", "--hold", "0.2", "--duration", "0.3", "--slices", "8",
                     "--encoder-preset", "ultrafast", "-q"]
        for output in outputs {
            let alone = try CLI.make(flags + ["-o", "alone/" + output], in: folder.path)
            try #require(alone.status == 0, "\(alone)")
            let written = output == "x.png" ? "out/k.png" : "out/" + output
            #expect(try Data(contentsOf: URL(fileURLWithPath: folder.path + "/alone/" + output)) == Data(contentsOf: URL(fileURLWithPath: folder.path + "/" + written)),
                    "\(output)")
        }
        // The poster, drawn again when it is missing and the job is up to date, is the same.
        let poster = folder.path + "/index.files/j.jpg"
        let first = try Data(contentsOf: URL(fileURLWithPath: poster))
        #expect(unlink(poster) == 0)
        let again = try BatchCLI.run(["batch", manifest, "--report", "index.html"], in: folder.path)
        #expect(again.status == 0 && again.stderr.contains("2 skipped"), "\(again.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: poster)) == first)
    }

    /// Renders `outputs` together in `folder`/together and each alone in `folder`/alone/N, and
    /// expects every output's files to be the same bytes either way.
    private func expectSame(_ outputs: [String], _ flags: [String], in folder: String) throws {
        let together = try CLI.make(flags + ["-q"] + outputs.flatMap { ["-o", "together/" + $0] }, in: folder)
        try #require(together.status == 0, "\(together)")
        for (index, output) in outputs.enumerated() {
            let alone = try CLI.make(flags + ["-q", "-o", "alone/\(index)/" + output], in: folder)
            try #require(alone.status == 0, "\(alone)")
            let path = String(output.prefix { $0 != ":" })
            let files = try Self.files(of: path, in: folder + "/alone/\(index)")
            let beside = try Self.files(of: path, in: folder + "/together")
            #expect(!files.isEmpty && files == beside, "\(output) beside \(outputs.filter { $0 != output }), \(flags)")
            if path.hasSuffix(".mp4"), files != beside {
                Issue.record("\(output): \(try Self.differingSamples(folder + "/alone/\(index)/" + path, folder + "/together/" + path)) luma samples differ")
            }
        }
    }

    /// The files an output wrote, by name, with their bytes: one, or a sequence's frames.
    private static func files(of path: String, in folder: String) throws -> [String: Data] {
        guard path.contains("%") else { return [path: try Data(contentsOf: URL(fileURLWithPath: folder + "/" + path))] }
        let sequence = folder + "/" + (path as NSString).deletingLastPathComponent
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: sequence) {
            files[name] = try Data(contentsOf: URL(fileURLWithPath: sequence + "/" + name))
        }
        return files
    }

    /// How many luma samples of two videos' decoded frames differ (the frames they both have).
    private static func differingSamples(_ a: String, _ b: String) throws -> Int {
        let first = try MediaReader.frames(path: a, layout: .yuv420p), second = try MediaReader.frames(path: b, layout: .yuv420p)
        var differing = abs(first.count - second.count) * (first.first.map { $0.width * $0.height } ?? 0)
        for (x, y) in zip(first, second) {
            let p = x.planes[0], q = y.planes[0]
            for row in 0..<p.height {
                for column in 0..<p.width where p.row(row)[column] != q.row(row)[column] { differing += 1 }
            }
        }
        return differing
    }
}
