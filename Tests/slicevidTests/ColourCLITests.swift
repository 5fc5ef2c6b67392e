// Colour end to end, as a user runs it: a Display P3 chart comes out of PNG-sequence and MP4
// outputs as Little CMS converts it; a 16-bit gradient keeps its levels in a 10-bit output;
// a damaged HEIC is refused with 65; a non-image's refusal lists what this build decodes.

import Foundation
import SliceKit
import SliceMedia
import StillFixtures
import Testing

@Suite("slicevid make: colour")
struct ColourCLITests {
    /// The patch centres of a 96x64 chart frame.
    static func centres(_ image: PlanarImage) -> [RGBAColor] {
        (0..<24).map { Pixels.color(image, ($0 % 6) * 16 + 8, ($0 / 6) * 16 + 8) }
    }

    @Test("a Display P3 chart in PNG-sequence and MP4 outputs is within ΔE2000 1.0 mean, 2.5 max of Little CMS's conversion")
    func p3Chart() throws {
        try withScratchFolder { folder in
            try FixtureFiles.write(ColourChart.image(), to: folder + "/p3.png", profile: TestProfiles.displayP3)
            try FileManager.default.createDirectory(atPath: folder + "/seq", withIntermediateDirectories: false)
            let result = try CLI.make(tinyClip(["--size": "96x64", "--slices": "8"])
                                      + ["--from", "p3.png", "--to", "p3.png", "-o", "seq/%03d.png", "-o", "clip.mp4"], in: folder)
            try #require(result.status == 0, "\(result)")
            let reference = ColourChart.reference(from: TestProfiles.displayP3)
            let png = try MediaReader.frames(path: folder + "/seq/000.png", layout: .gbrp)
            let mp4 = try MediaReader.frames(path: folder + "/clip.mp4", layout: .gbrp)
            try #require(png.count == 1 && mp4.count == tinyClipFrames)
            for (name, frame) in [("PNG", png[0]), ("MP4", mp4[0])] {
                let difference = ColourDifference.summary(Self.centres(frame), reference)
                #expect(difference.mean <= 1.0 && difference.max <= 2.5, "\(name): \(difference)")
            }
            // Read as sRGB, the chart would be far off: the measure can tell.
            #expect(ColourDifference.summary(ColourChart.centres(of: ColourChart.image()), reference).mean > 1.0)
        }
    }

    /// Distinct luma values on row `y` of the first frame of a 10-bit video, read at 16 bits.
    static func lumaLevels(_ path: String, row y: Int) throws -> Int {
        let frames = try MediaReader.frames(path: path, layout: .yuv420p16)
        let frame = try #require(frames.first)
        return Set((0..<frame.width).map { frame.sample(plane: 0, x: $0, y: y) }).count
    }

    @Test("a 16-bit gradient into yuv420p10le crf=0 keeps at least 85 % of the luma levels ffmpeg keeps from it")
    func tenBitLevels() throws {
        try withScratchFolder { folder in
            // 1024 columns from black to white: 1024 distinct 16-bit greys, 876 possible 10-bit lumas.
            try FixtureFiles.png16(width: 1024, height: 16, to: folder + "/ramp.png") { x, _, _ in UInt16(x * 65535 / 1023) }
            let result = try CLI.make(tinyClip(["--size": "1024x16", "--slices": "8"])
                                      + ["--from", "ramp.png", "--to", "ramp.png", "-o", "ramp.mp4:pix-fmt=yuv420p10le:crf=0"], in: folder)
            try #require(result.status == 0, "\(result)")
            let ours = try Self.lumaLevels(folder + "/ramp.mp4", row: 8)
            // ffmpeg, the peer, from the same still (BT.709 limited range, as slicevid writes).
            let peer = try CLI.run(["-v", "error", "-i", "ramp.png", "-vf",
                                    "scale=out_color_matrix=bt709:out_range=tv,format=yuv420p10le",
                                    "-c:v", "libx264", "-crf", "0", "-frames:v", "1", "peer.mp4"], in: folder, executable: "/usr/bin/ffmpeg")
            try #require(peer.status == 0, "\(peer)")
            let theirs = try Self.lumaLevels(folder + "/peer.mp4", row: 8)
            // Through 8 bits at most 220 levels survive; the peer keeps most of the 876.
            #expect(theirs > 700 && Double(ours) >= 0.85 * Double(theirs), "slicevid \(ours) levels, ffmpeg \(theirs)")
        }
    }

    @Test("a teal disc on transparent red, shrunk into transparent PNG and MKV outputs: edges stay teal, no red bleeds in",
          arguments: ["a.png", "a.mkv"])
    func transparentEdges(output: String) throws {
        try withScratchFolder { folder in
            var disc = RGBAImage(width: 256, height: 256, color: RGBAColor(red: 255, green: 0, blue: 0, alpha: 0))
            for y in 0..<256 {
                for x in 0..<256 where (x - 128) * (x - 128) + (y - 128) * (y - 128) < 100 * 100 {
                    let i = 4 * (y * 256 + x)
                    // Red well below 255: capping colour at alpha cannot hide bleeding red (as with white).
                    (disc.pixels[i], disc.pixels[i + 1], disc.pixels[i + 2], disc.pixels[i + 3]) = (40, 220, 120, 255)
                }
            }
            try FixtureFiles.write(disc, to: folder + "/disc.png", alpha: true)
            let result = try CLI.make(tinyClip(["--size": "64x64", "--slices": "4"])
                                      + ["--from", "disc.png", "--to", "disc.png", "--background", "transparent", "-o", output], in: folder)
            try #require(result.status == 0, "\(result)")
            let frame = try #require(try MediaReader.frames(path: folder + "/" + output, layout: .gbrap).first)
            // Alpha-weighted colour of the edge pixels (0 < alpha < 255), G, B, R planes.
            var sums = [0.0, 0.0, 0.0], weight = 0.0
            for y in 0..<64 {
                for x in 0..<64 {
                    let a = Double(frame.sample(plane: 3, x: x, y: y))
                    guard a > 0 && a < 255 else { continue }
                    for c in 0..<3 { sums[c] += a * Double(frame.sample(plane: c, x: x, y: y)) }
                    weight += a
                }
            }
            try #require(weight > 0, "the disc has an edge")
            // Scaled straight, the transparent red pulls the edges' red up and the rest down.
            let teal = [220.0, 120.0, 40.0]
            #expect(zip(sums, teal).allSatisfy { abs($0 / weight - $1) <= 4 }, "alpha-weighted edge G, B, R: \(sums.map { $0 / weight })")
        }
    }

    @Test("colour-managed stills (P3 PNG, P3 HEIC) into FFV1 and 10-bit ProRes give the same bytes with --jobs 1 and 4, run after run")
    func deterministic() throws {
        try withScratchFolder { folder in
            try FixtureFiles.write(ColourChart.image(), to: folder + "/p3.png", profile: TestProfiles.displayP3)
            try HEIFWriter.heic(ColourChart.image(), to: folder + "/p3.heic", profile: TestProfiles.displayP3)
            var outputs: [[Data]] = []
            for jobs in ["1", "4", "1"] {
                let names = ["a\(outputs.count).mkv", "b\(outputs.count).mov"]
                let result = try CLI.make(tinyClip(["--size": "96x64", "--slices": "8"])
                                          + ["p3.png", "p3.heic", "p3.png", "--jobs", jobs, "-o", names[0], "-o", names[1]], in: folder)
                try #require(result.status == 0, "\(result)")
                outputs.append(try names.map { try #require(FileManager.default.contents(atPath: folder + "/" + $0)) })
            }
            #expect(outputs[0] == outputs[1] && outputs[1] == outputs[2])
        }
    }

    @Test("a storyboard from a 16-bit render (beside a 10-bit output) matches the 8-bit render's within 3 levels")
    func storyboardFromDeepRender() throws {
        try withScratchFolder { folder in
            let eight = try CLI.make(tinyClip + ["-o", "eight.png:sheet=3x2"], in: folder)
            let deep = try CLI.make(tinyClip + ["-o", "deep.png:sheet=3x2", "-o", "deep.mp4:pix-fmt=yuv420p10le"], in: folder)
            try #require(eight.status == 0 && deep.status == 0, "\(eight) \(deep)")
            let a = try #require(try MediaReader.frames(path: folder + "/eight.png", layout: .gbrp).first)
            let b = try #require(try MediaReader.frames(path: folder + "/deep.png", layout: .gbrp).first)
            // Both runs render 4:2:0 Y'CbCr (at 8 bits; at 16 for the 10-bit MP4); back in RGB a chroma level
            // counts up to 1.86 times, so a level of rounding in the 8-bit render shows as up to 3.
            #expect(a.width == b.width && a.height == b.height && Pixels.maximumError(a, b) <= 3, "\(Pixels.maximumError(a, b)) levels")
        }
    }

    @Test("libheif is never loaded in slicevid's own process (its start-up is not paid for nothing): a HEIC is decoded by a helper")
    func libheifOnlyWhenNeeded() throws {
        try withScratchFolder { folder in
            try FixtureFiles.write(ColourChart.image(), to: folder + "/a.png")
            try HEIFWriter.heic(ColourChart.image(), to: folder + "/b.heic")
            // The dynamic loader names every library it opens when LD_DEBUG=files (a helper's
            // lines go to its own standard error, which slicevid reads and drops).
            func loadsLibheif(_ to: String) throws -> Bool {
                let result = try CLI.run(["make"] + tinyClip(["--size": "96x64", "--slices": "8"])
                                         + ["--from", "a.png", "--to", to, "-o", "null"], in: folder, environment: ["LD_DEBUG": "files"])
                try #require(result.status == 0, "\(result.status)")
                return result.stderr.contains("file=libheif.so")
            }
            #expect(try !loadsLibheif("a.png"))
            #expect(try !loadsLibheif("b.heic"))
        }
    }

    @Test("a truncated HEIC is refused with 65, naming the file and libheif's reason")
    func damagedHEIC() throws {
        try withScratchFolder { folder in
            try HEIFWriter.heic(Fixture8.blocks, to: folder + "/good.heic")
            let bytes = try Data(contentsOf: URL(fileURLWithPath: folder + "/good.heic"))
            try bytes.prefix(bytes.count * 2 / 3).write(to: URL(fileURLWithPath: folder + "/cut.heic"))
            let result = try CLI.make(tinyClip + ["--from", "good.heic", "--to", "cut.heic", "-o", "out.mp4"], in: folder)
            #expect(result.status == 65 && result.stderrIsOneLine, "\(result)")
            #expect(result.stderr.contains("cut.heic") && result.stderr.contains("libheif"), "\(result)")
            #expect(leftovers(in: folder).isEmpty && !FileManager.default.fileExists(atPath: folder + "/out.mp4"))
        }
    }

    @Test("a JPEG whose ICC profile's cicp tag says PQ or HLG is refused with 65 and one line, as nclx and cICP HDR are",
          arguments: [(16, "PQ"), (18, "HLG")])
    func hdrProfile(transfer: (code: UInt8, name: String)) throws {
        try withScratchFolder { folder in
            let profile = TestProfiles.withVideoSignal(TestProfiles.displayP3, primaries: 9, transfer: transfer.code)
            try FixtureFiles.write(ColourChart.image(), to: folder + "/hdr.jpg", jpeg: true, profile: profile)
            try FixtureFiles.write(ColourChart.image(), to: folder + "/b.png")
            let result = try CLI.make(tinyClip + ["--from", "b.png", "--to", "hdr.jpg", "-o", "out.mp4"], in: folder)
            #expect(result.status == 65 && result.stderrIsOneLine, "\(result)")
            #expect(result.stderr.hasPrefix("slicevid: error: hdr.jpg: is an HDR still (\(transfer.name) transfer)"), "\(result)")
            #expect(leftovers(in: folder).isEmpty && !FileManager.default.fileExists(atPath: folder + "/out.mp4"))
        }
    }

    @Test("a JPEG missing one of its ICC profile's APP2 chunks is refused with 65 and one line, not drawn without its colours")
    func incompleteJPEGProfile() throws {
        try withScratchFolder { folder in
            let path = folder + "/chunks.jpg"
            try FixtureFiles.write(ColourChart.image(), to: path, jpeg: true, profile: TestProfiles.padded(TestProfiles.displayP3, by: 100_000))
            var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            // Chunk 2 of 2 renumbered 1 of 2: chunk 1 twice, chunk 2 missing.
            let name = Array("ICC_PROFILE".utf8)
            let chunks = (0..<(bytes.count - name.count)).filter { bytes[$0..<($0 + name.count)].elementsEqual(name) }
            try #require(chunks.count == 2 && bytes[chunks[1] + 12] == 2 && bytes[chunks[1] + 13] == 2)
            bytes[chunks[1] + 12] = 1
            try writeFile(path, Data(bytes))
            try FixtureFiles.write(ColourChart.image(), to: folder + "/b.png")
            let result = try CLI.make(tinyClip + ["--from", "b.png", "--to", "chunks.jpg", "-o", "out.mp4"], in: folder)
            #expect(result.status == 65 && result.stderrIsOneLine, "\(result)")
            #expect(result.stderr.hasPrefix("slicevid: error: chunks.jpg: is truncated or corrupt (its ICC colour profile is damaged"), "\(result)")
            #expect(leftovers(in: folder).isEmpty && !FileManager.default.fileExists(atPath: folder + "/out.mp4"))
        }
    }

    @Test("a file that is no image is refused listing exactly the formats this build decodes")
    func acceptedList() throws {
        try withScratchFolder { folder in
            try writeFile(folder + "/notes.png", Data("just text".utf8))
            try FixtureFiles.write(ColourChart.image(), to: folder + "/b.png")
            let result = try CLI.make(tinyClip + ["--from", "notes.png", "--to", "b.png", "-o", "out.mp4"], in: folder)
            #expect(result.status == 65, "\(result)")
            #expect(result.stderr.contains("(accepted: \(StillDecoder.acceptedFormats.joined(separator: ", ")))"), "\(result)")
            #expect(StillDecoder.acceptedFormats.contains("HEIC") && StillDecoder.acceptedFormats.contains("SVG"))
        }
    }
}

/// Small pictures the colour CLI tests draw.
enum Fixture8 {
    /// 32x16 of four coloured blocks.
    static var blocks: RGBAImage {
        var image = RGBAImage(width: 32, height: 16)
        for y in 0..<16 {
            for x in 0..<32 {
                let i = 4 * (y * 32 + x)
                (image.pixels[i], image.pixels[i + 1], image.pixels[i + 2]) = (UInt8(x * 8), UInt8(y * 16), x < 16 ? 200 : 40)
            }
        }
        return image
    }
}
