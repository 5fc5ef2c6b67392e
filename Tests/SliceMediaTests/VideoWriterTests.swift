// VideoWriter: H.264 MP4 files and PNG sequences, checked by decoding what was written with
// MediaReader (codec, profile, colour tags, frame count and rate, pixels, atom order).

import Foundation
import SliceKit
import SliceMedia
import Testing

@Suite("VideoWriter MP4")
struct VideoWriterMP4Tests {
    static let width = 64, height = 36, count = 10
    static let settings = EncoderSettings(crf: 18, preset: "ultrafast")

    /// Writes the moving-bar clip in `layout` to `path` and returns the frames handed over.
    @discardableResult
    static func writeClip(to path: String, layout: PixelLayout, frameRate: FrameRate = FrameRate(30),
                          settings: EncoderSettings = settings) throws -> [PlanarImage] {
        let writer = try VideoWriter(path: path, outputFormat: .mp4, width: width, height: height,
                                     frameRate: frameRate, inputLayout: layout, settings: settings)
        var frames: [PlanarImage] = []
        for index in 0..<count {
            let frame = Fixture.movingBar(width: width, height: height, index: index).planar(layout)
            try writer.write(frame)
            frames.append(frame)
        }
        #expect(writer.framesWritten == count)
        try writer.finish()
        return frames
    }

    @Test("stream facts: h264 at most High, yuv420p, BT.709 tv range, every frame, the frame rate")
    func streamFacts() throws {
        try withTemporaryDirectory { dir in
            let path = "\(dir)/clip.mp4"
            try Self.writeClip(to: path, layout: .yuv420p)
            let info = try MediaReader.info(path: path)
            #expect(info.containerName.contains("mp4"))
            #expect(info.codecName == "h264")
            // x264's `profile` is a ceiling: ultrafast uses no High (or even Main) tools, so it
            // signals Constrained Baseline. What matters to players is never above High.
            #expect(["Constrained Baseline", "Baseline", "Main", "High"].contains(info.profileName ?? "none"),
                    "profile \(String(describing: info.profileName))")
            #expect(info.width == Self.width && info.height == Self.height)
            #expect(info.pixelFormat == "yuv420p")
            #expect(info.colorPrimaries == "bt709")
            #expect(info.colorTransfer == "bt709")
            #expect(info.colorSpace == "bt709")
            #expect(info.colorRange == "tv")
            #expect(info.frameCount == Self.count)
            #expect(abs(info.frameRate - 30) < 0.001, "frame rate \(info.frameRate)")
        }
    }

    @Test("the default preset signals High profile")
    func highProfile() throws {
        try withTemporaryDirectory { dir in
            let path = "\(dir)/medium.mp4"
            try Self.writeClip(to: path, layout: .yuv420p, settings: EncoderSettings(crf: 18))
            let info = try MediaReader.info(path: path)
            #expect(info.profileName == "High")
            #expect(info.frameCount == Self.count)
        }
    }

    @Test("an NTSC rate is kept exactly")
    func ntscRate() throws {
        try withTemporaryDirectory { dir in
            let path = "\(dir)/ntsc.mp4"
            try Self.writeClip(to: path, layout: .yuv420p, frameRate: FrameRate(30000, 1001))
            let info = try MediaReader.info(path: path)
            #expect(abs(info.frameRate - 30000.0 / 1001) < 0.001, "frame rate \(info.frameRate)")
            #expect(info.frameCount == Self.count)
        }
    }

    @Test("decoded frames resemble the yuv420p frames written")
    func pixelsYUV() throws {
        try withTemporaryDirectory { dir in
            let path = "\(dir)/clip.mp4"
            let written = try Self.writeClip(to: path, layout: .yuv420p)
            let decoded = try MediaReader.frames(path: path, layout: .yuv420p)
            #expect(decoded.count == written.count)
            for (index, (a, b)) in zip(written, decoded).enumerated() {
                let luma = psnr(a, b, plane: 0)
                #expect(luma > 35, "frame \(index): luma PSNR \(luma) dB")
                #expect(meanAbsoluteError(a, b) < 2, "frame \(index)")
            }
        }
    }

    @Test("gbrp input is converted inside the writer and still resembles what was written")
    func pixelsRGB() throws {
        try withTemporaryDirectory { dir in
            let path = "\(dir)/rgb.mp4"
            let written = try Self.writeClip(to: path, layout: .gbrp)
            let info = try MediaReader.info(path: path)
            #expect(info.pixelFormat == "yuv420p" && info.colorSpace == "bt709" && info.colorRange == "tv")
            #expect(info.frameCount == Self.count)
            let decoded = try MediaReader.frames(path: path, layout: .gbrp)
            #expect(decoded.count == written.count)
            for (index, (a, b)) in zip(written, decoded).enumerated() {
                // Chroma is halved on the way, so block edges blur; the average must stay close.
                #expect(meanAbsoluteError(a, b) < 6, "frame \(index): \(meanAbsoluteError(a, b))")
            }
            // Away from edges the colours are right: the centre of the second block of the top row.
            let pixel = decoded[0].planes.map { Int($0.row(9)[24]) }
            let expected = Fixture.palette[1]
            #expect(abs(pixel[2] - Int(expected.red)) <= 4 && abs(pixel[0] - Int(expected.green)) <= 4
                    && abs(pixel[1] - Int(expected.blue)) <= 4, "decoded G B R \(pixel), wrote \(expected)")
        }
    }

    @Test("+faststart puts moov before mdat")
    func faststart() throws {
        try withTemporaryDirectory { dir in
            let path = "\(dir)/clip.mp4"
            try Self.writeClip(to: path, layout: .yuv420p)
            let atoms = topLevelAtoms(of: try Data(contentsOf: URL(fileURLWithPath: path)))
            let moov = try #require(atoms.firstIndex(of: "moov"), "atoms: \(atoms)")
            let mdat = try #require(atoms.firstIndex(of: "mdat"), "atoms: \(atoms)")
            #expect(atoms.first == "ftyp")
            #expect(moov < mdat, "atoms: \(atoms)")
        }
    }
}

@Suite("VideoWriter PNG sequence")
struct VideoWriterSequenceTests {
    static let width = 32, height = 18, count = 6

    @Test("frames land in 00000.png… and decode to exactly the gbrp input")
    func lossless() throws {
        try withTemporaryDirectory { dir in
            let pattern = "\(dir)/%05d.png"
            let format = try #require(OutputFormat(path: pattern))
            #expect(format == .pngSequence)
            let writer = try VideoWriter(path: pattern, outputFormat: format, width: Self.width, height: Self.height,
                                         frameRate: FrameRate(25), inputLayout: format.preferredLayout,
                                         settings: EncoderSettings())
            var written: [PlanarImage] = []
            for index in 0..<Self.count {
                let image = Fixture.noise(width: Self.width, height: Self.height, seed: UInt64(index)).planar(.gbrp)
                try writer.write(image)
                written.append(image)
            }
            try writer.finish()

            let names = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
            #expect(names == (0..<Self.count).map { String(format: "%05d.png", $0) })

            let info = try MediaReader.info(path: pattern)
            #expect(info.codecName == "png")
            #expect(info.width == Self.width && info.height == Self.height)
            #expect(info.pixelFormat == "rgb24")
            #expect(info.frameCount == Self.count)

            let decoded = try MediaReader.frames(path: pattern, layout: .gbrp)
            #expect(decoded.count == Self.count)
            for (index, (a, b)) in zip(written, decoded).enumerated() {
                #expect(a.hasSamePixels(as: b), "frame \(index) differs: mean error \(meanAbsoluteError(a, b))")
            }
        }
    }

    @Test("gbrap input keeps its alpha, exactly, in RGBA PNGs")
    func alpha() throws {
        try withTemporaryDirectory { dir in
            let pattern = "\(dir)/%05d.png"
            let writer = try VideoWriter(path: pattern, outputFormat: .pngSequence, width: Self.width, height: Self.height,
                                         frameRate: FrameRate(30), inputLayout: .gbrap, settings: EncoderSettings())
            var image = Fixture.noise(width: Self.width, height: Self.height)
            for i in 0..<(image.width * image.height) { image.pixels[4 * i + 3] = UInt8((i * 11) % 256) }
            let written = image.planar(.gbrap)
            try writer.write(written)
            try writer.finish()
            #expect(try MediaReader.info(path: pattern).pixelFormat == "rgba")
            let decoded = try MediaReader.frames(path: pattern, layout: .gbrap)
            #expect(decoded.count == 1)
            #expect(decoded.first?.hasSamePixels(as: written) == true)
        }
    }

    @Test("each file is an ordinary PNG a still decoder reads")
    func filesAreStills() throws {
        try withTemporaryDirectory { dir in
            let pattern = "\(dir)/frame-%03d.png"
            let writer = try VideoWriter(path: pattern, outputFormat: .pngSequence, width: Self.width, height: Self.height,
                                         frameRate: FrameRate(30), inputLayout: .gbrp, settings: EncoderSettings())
            let image = Fixture.blocks(width: Self.width, height: Self.height)
            try writer.write(image.planar(.gbrp))
            try writer.finish()
            let still = try StillDecoder.load(path: "\(dir)/frame-000.png", width: Self.width, height: Self.height,
                                              fit: .cover, background: .black)
            #expect(still == image)
        }
    }
}

@Suite("VideoWriter errors")
struct VideoWriterErrorTests {
    func openError(_ path: String, _ format: OutputFormat, settings: EncoderSettings = EncoderSettings(preset: "ultrafast"),
                   width: Int = 64, height: Int = 36) -> MediaError? {
        #expect(throws: MediaError.self) {
            _ = try VideoWriter(path: path, outputFormat: format, width: width, height: height, frameRate: FrameRate(30),
                                inputLayout: format.preferredLayout, settings: settings)
        }
    }

    @Test("an MP4 in a directory that does not exist is an output error naming the path")
    func missingDirectoryMP4() throws {
        try withTemporaryDirectory { dir in
            let path = "\(dir)/missing/clip.mp4"
            let error = openError(path, .mp4)
            #expect(error?.kind == .output)
            #expect(error?.subject == path)
            #expect(!FileManager.default.fileExists(atPath: path))
        }
    }

    @Test("an MP4 under a regular file (never writable, even for root) is an output error")
    func underRegularFile() throws {
        try withTemporaryDirectory { dir in
            let file = "\(dir)/plain"
            _ = FileManager.default.createFile(atPath: file, contents: Data("x".utf8))
            let error = openError("\(file)/clip.mp4", .mp4)
            #expect(error?.kind == .output)
            #expect(error?.description.contains("\(file)/clip.mp4") == true)
        }
    }

    @Test("a PNG sequence in a directory that does not exist fails when opened, not mid-render")
    func missingDirectorySequence() throws {
        try withTemporaryDirectory { dir in
            let pattern = "\(dir)/missing/%05d.png"
            let error = openError(pattern, .pngSequence)
            #expect(error?.kind == .output)
            #expect(error?.description.contains("\(dir)/missing") == true)
        }
    }

    @Test("an unknown x264 preset is refused before the encoder opens, with the accepted names")
    func unknownPreset() throws {
        try withTemporaryDirectory { dir in
            let path = "\(dir)/clip.mp4"
            let error = openError(path, .mp4, settings: EncoderSettings(crf: 18, preset: "warp-speed"))
            #expect(error?.kind == .output)
            #expect(error?.subject.contains(path) == true)
            #expect(error?.message.contains("warp-speed") == true && error?.message.contains("ultrafast") == true)
            #expect(!FileManager.default.fileExists(atPath: path))
        }
    }

    @Test("only an explicit crf 0 gives lossless H.264 (High 4:4:4 Predictive); other crfs stay within High")
    func losslessOnlyWhenAsked() throws {
        try withTemporaryDirectory { dir in
            let path = "\(dir)/lossless.mp4"
            let written = try VideoWriterMP4Tests.writeClip(to: path, layout: .yuv420p,
                                                             settings: EncoderSettings(crf: 0, preset: "ultrafast"))
            let info = try MediaReader.info(path: path)
            #expect(info.profileName == "High 4:4:4 Predictive")
            let decoded = try MediaReader.frames(path: path, layout: .yuv420p)
            #expect(decoded.count == written.count)
            #expect(zip(decoded, written).allSatisfy { $0.hasSamePixels(as: $1) }, "crf 0 must be lossless")
        }
    }

    @Test("odd frame sizes for yuv420p are refused, not silently cropped")
    func oddSize() throws {
        try withTemporaryDirectory { dir in
            let error = openError("\(dir)/odd.mp4", .mp4, width: 63, height: 35)
            #expect(error != nil)
        }
    }
}
