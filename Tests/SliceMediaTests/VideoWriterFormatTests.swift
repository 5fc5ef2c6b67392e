// Every container and codec written through a plan and read back with MediaReader: container,
// codec, profile, tag, pixel format, colour tags, frame count, duration, and the pixels of the
// first and last frames (exact for the lossless ones).

import Foundation
import SliceKit
import SliceMedia
import Testing

/// Writes short clips through `EncodingPlan` + `VideoWriter`, as the pipeline's sinks do.
enum FormatClip {
    static let rate = FrameRate(10)

    /// Six frames: the block grid with a white bar moving right; the last one is the inverse
    /// grid, so first and last differ everywhere.
    static func pictures(width: Int, height: Int, count: Int = 6) -> [RGBAImage] {
        (0..<count).map { index in
            var image = Fixture.movingBar(width: width, height: height, index: index)
            if index == count - 1 {
                for i in 0..<(width * height) {
                    for c in 0..<3 { image.pixels[4 * i + c] = 255 - image.pixels[4 * i + c] }
                }
            }
            return image
        }
    }

    /// `pictures` with alpha: a transparent band (alpha 0) that moves left with each frame.
    static func translucent(width: Int, height: Int, count: Int = 6) -> [RGBAImage] {
        pictures(width: width, height: height, count: count).enumerated().map { index, image in
            var image = image
            let x0 = width - 16 - 4 * index
            for y in 0..<height {
                for x in max(0, x0)..<min(width, x0 + 16) { image.pixels[4 * (y * width + x) + 3] = 0 }
            }
            return image
        }
    }

    /// Plans `path`, writes `pictures` in `layout` (each kept frame, as a sink would), and
    /// returns the plan and the planar frames written, by rendered index.
    @discardableResult
    static func write(_ path: String, pictures: [RGBAImage], layout: PixelLayout, own: EncoderSettings = EncoderSettings(),
                      transparent: Bool = false, rate: FrameRate = rate, catalog: EncoderCatalog = .installed,
                      palette: Palette? = nil) throws -> (plan: EncodingPlan, frames: [PlanarImage]) {
        let clip = Clip(width: pictures[0].width, height: pictures[0].height, frameRate: rate,
                        frameCount: pictures.count, isTransparent: transparent)
        let format = try #require(OutputFormat(path: path))
        let plan = try EncodingPlan.resolve(path: path, format: format, own: own, clip: clip, catalog: catalog)
        let writer = try VideoWriter(plan: plan, path: path, inputLayout: layout, palette: palette)
        var frames: [PlanarImage] = []
        for (index, picture) in pictures.enumerated() {
            let frame = picture.planar(layout)
            frames.append(frame)
            if plan.selection.contains(index) { try writer.write(frame, index: index) }
        }
        try writer.finish()
        return (plan, frames)
    }

    /// Checks what every video output promises: its size, frame count and duration.
    static func expectShape(_ info: MediaInfo, width: Int, height: Int, frames: Int, duration: Double,
                            sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(info.width == width && info.height == height, "size \(info.width)x\(info.height)", sourceLocation: sourceLocation)
        #expect(info.frameCount == frames, "frames \(info.frameCount)", sourceLocation: sourceLocation)
        #expect(abs(info.duration - duration) < 0.011, "duration \(info.duration)", sourceLocation: sourceLocation)
    }

    /// Checks the playback-safe colour tags.
    static func expectBT709(_ info: MediaInfo, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(info.colorPrimaries == "bt709" && info.colorTransfer == "bt709" && info.colorSpace == "bt709"
                && info.colorRange == "tv", "\(info)", sourceLocation: sourceLocation)
    }

    /// Checks that an ISO-BMFF file has its index first (`+faststart`).
    static func expectMoovFirst(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let atoms = topLevelAtoms(of: try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect((atoms.firstIndex(of: "moov") ?? .max) < (atoms.firstIndex(of: "mdat") ?? -1), "atoms \(atoms)",
                sourceLocation: sourceLocation)
    }

    /// Checks that the decoded first and last frames are within `tolerance` (mean) of what was written.
    static func expectEnds(_ written: [PlanarImage], _ decoded: [PlanarImage], within tolerance: Double,
                           sourceLocation: SourceLocation = #_sourceLocation) {
        guard let first = decoded.first, let last = decoded.last else {
            Issue.record("nothing decoded", sourceLocation: sourceLocation)
            return
        }
        let firstError = meanAbsoluteError(written[0], first), lastError = meanAbsoluteError(written[written.count - 1], last)
        #expect(firstError < tolerance, "first frame error \(firstError)", sourceLocation: sourceLocation)
        #expect(lastError < tolerance, "last frame error \(lastError)", sourceLocation: sourceLocation)
    }
}

@Suite("VideoWriter formats")
struct VideoWriterFormatTests {
    static let width = 64, height = 36

    /// A lossy 4:2:0 output: where it goes, how it is chosen, and what must be read back.
    struct LossyCase: Sendable, CustomTestStringConvertible {
        let label: String
        let file: String
        var codec: String?
        var missing: Set<String> = []
        var side = 36
        let encoder: String
        let codecName: String
        let container: String
        var tag = ""
        var testDescription: String { label }
    }

    static let lossy: [LossyCase] = [
        LossyCase(label: "WebM VP9", file: "clip.webm", encoder: "libvpx-vp9", codecName: "vp9", container: "webm"),
        LossyCase(label: "WebM AV1 with SVT-AV1 (64x64 and up)", file: "clip.webm", codec: "av1", side: 64,
                  encoder: "libsvtav1", codecName: "av1", container: "webm"),
        LossyCase(label: "WebM AV1 with libaom-av1 when SVT-AV1 is missing", file: "clip.webm", codec: "av1", missing: ["libsvtav1"],
                  encoder: "libaom-av1", codecName: "av1", container: "webm"),
        LossyCase(label: "MP4 HEVC, tagged hvc1", file: "clip.mp4", codec: "hevc", encoder: "libx265", codecName: "hevc",
                  container: "mp4", tag: "hvc1"),
    ]

    @Test("lossy codecs: the encoder chosen, BT.709 tags, every frame, the right pixels", arguments: lossy)
    func lossyCodecs(_ lossy: LossyCase) throws {
        try withTemporaryDirectory { dir in
            let path = "\(dir)/\(lossy.file)"
            let own = EncoderSettings(preset: "ultrafast", codec: lossy.codec.flatMap(CodecChoice.init(parsing:)))
            let (plan, written) = try FormatClip.write(path, pictures: FormatClip.pictures(width: Self.width, height: lossy.side),
                                                       layout: .yuv420p, own: own, catalog: EncoderCatalog(missing: lossy.missing))
            #expect(plan.encoder == lossy.encoder)
            let info = try MediaReader.info(path: path)
            #expect(info.containerName.contains(lossy.container) && info.codecName == lossy.codecName, "\(info)")
            #expect(info.pixelFormat == "yuv420p" && !info.hasAlpha && info.codecTag == lossy.tag, "\(info)")
            FormatClip.expectBT709(info)
            FormatClip.expectShape(info, width: Self.width, height: lossy.side, frames: 6, duration: 0.6)
            if lossy.container == "mp4" { try FormatClip.expectMoovFirst(path) }
            FormatClip.expectEnds(written, try MediaReader.frames(path: path, layout: .yuv420p), within: 4)
        }
    }

    @Test("WebM VP9 with alpha decodes with an alpha plane that matches what was written")
    func vp9Alpha() throws {
        try withTemporaryDirectory { dir in
            let path = "\(dir)/overlay.webm"
            let (plan, written) = try FormatClip.write(path, pictures: FormatClip.translucent(width: Self.width, height: Self.height),
                                                       layout: .yuva420p, own: EncoderSettings(preset: "ultrafast"), transparent: true)
            #expect(plan.pixelFormat == "yuva420p")
            let info = try MediaReader.info(path: path)
            #expect(info.codecName == "vp9" && info.pixelFormat == "yuva420p" && info.hasAlpha)
            FormatClip.expectShape(info, width: Self.width, height: Self.height, frames: 6, duration: 0.6)
            let decoded = try MediaReader.frames(path: path, layout: .yuva420p)
            FormatClip.expectEnds(written, decoded, within: 4)
            for (index, (a, b)) in zip(written, decoded).enumerated() {
                let alpha = psnr(a, b, plane: 3)
                #expect(alpha > 30, "frame \(index): alpha PSNR \(alpha) dB")
            }
            // Inside the transparent band of the last frame, and well outside it.
            let last = try #require(decoded.last).planes[3]
            #expect(last.row(18)[Self.width - 30] < 16 && last.row(18)[4] > 239)
        }
    }

    @Test("MP4 H.264 in 10-bit and 4:4:4 on request, with the profiles they need", arguments: [
        ("yuv420p10le", "High 10"), ("yuv444p", "High 4:4:4 Predictive"),
    ])
    func h264Formats(pixelFormat: String, profile: String) throws {
        try withTemporaryDirectory { dir in
            let path = "\(dir)/clip.mp4"
            let layout: PixelLayout = pixelFormat == "yuv444p" ? .yuv444p : .yuv420p
            let (_, written) = try FormatClip.write(path, pictures: FormatClip.pictures(width: Self.width, height: Self.height),
                                                    layout: layout, own: EncoderSettings(preset: "ultrafast", pixelFormat: pixelFormat))
            let info = try MediaReader.info(path: path)
            #expect(info.codecName == "h264" && info.profileName == profile && info.pixelFormat == pixelFormat)
            FormatClip.expectBT709(info)
            FormatClip.expectShape(info, width: Self.width, height: Self.height, frames: 6, duration: 0.6)
            FormatClip.expectEnds(written, try MediaReader.frames(path: path, layout: layout), within: 2)
        }
    }

    @Test("MOV ProRes 422 HQ: apch, 10-bit 4:2:2, BT.709, moov before mdat")
    func proresHQ() throws {
        try withTemporaryDirectory { dir in
            let path = "\(dir)/edit.mov"
            let (_, written) = try FormatClip.write(path, pictures: FormatClip.pictures(width: Self.width, height: Self.height), layout: .yuv444p)
            let info = try MediaReader.info(path: path)
            #expect(info.codecName == "prores" && info.profileName == "HQ" && info.codecTag == "apch" && info.pixelFormat == "yuv422p10le")
            FormatClip.expectBT709(info)
            FormatClip.expectShape(info, width: Self.width, height: Self.height, frames: 6, duration: 0.6)
            try FormatClip.expectMoovFirst(path)
            // 4:2:2 halves the chroma across the blocks' sharp edges; the average stays close.
            FormatClip.expectEnds(written, try MediaReader.frames(path: path, layout: .yuv444p), within: 4)
        }
    }

    @Test("MOV ProRes 4444 keeps alpha")
    func prores4444() throws {
        try withTemporaryDirectory { dir in
            let path = "\(dir)/overlay.mov"
            let (plan, written) = try FormatClip.write(path, pictures: FormatClip.translucent(width: Self.width, height: Self.height),
                                                       layout: .gbrap, transparent: true)
            #expect(plan.profile == "4444")
            let info = try MediaReader.info(path: path)
            #expect(info.codecName == "prores" && info.profileName == "4444" && info.codecTag == "ap4h" && info.hasAlpha)
            FormatClip.expectBT709(info)
            FormatClip.expectShape(info, width: Self.width, height: Self.height, frames: 6, duration: 0.6)
            let decoded = try MediaReader.frames(path: path, layout: .gbrap)
            FormatClip.expectEnds(written, decoded, within: 3)
            for (a, b) in zip(written, decoded) { #expect(psnr(a, b, plane: 3) > 40) }
        }
    }

    @Test("MKV FFV1 is lossless: every decoded frame is the frame written", arguments: [false, true])
    func ffv1(alpha: Bool) throws {
        try withTemporaryDirectory { dir in
            let path = "\(dir)/master.mkv"
            let pictures = (0..<4).map { Fixture.noise(width: Self.width, height: Self.height, seed: UInt64($0)) }
            let input = alpha ? pictures.map { image in
                var image = image
                for i in 0..<(image.width * image.height) { image.pixels[4 * i + 3] = UInt8(i % 256) }
                return image
            } : pictures
            let layout: PixelLayout = alpha ? .gbrap : .gbrp
            let (plan, written) = try FormatClip.write(path, pictures: input, layout: layout, transparent: alpha)
            #expect(plan.pixelFormat == (alpha ? "bgra" : "bgr0"))
            let info = try MediaReader.info(path: path)
            #expect(info.containerName.contains("matroska") && info.codecName == "ffv1" && info.pixelFormat == plan.pixelFormat)
            #expect(info.colorSpace == "gbr" && info.colorRange == "pc" && info.hasAlpha == alpha)
            FormatClip.expectShape(info, width: Self.width, height: Self.height, frames: 4, duration: 0.4)
            let decoded = try MediaReader.frames(path: path, layout: layout)
            #expect(decoded.count == written.count)
            for (index, (a, b)) in zip(written, decoded).enumerated() {
                #expect(a.hasSamePixels(as: b), "frame \(index): mean error \(meanAbsoluteError(a, b))")
            }
        }
    }

    @Test("GIF at the render's size and rate with the clip's palette decodes to exactly the frames written")
    func gifExact() throws {
        try withTemporaryDirectory { dir in
            let path = "\(dir)/preview.gif"
            let pictures = FormatClip.pictures(width: Self.width, height: Self.height)
            let palette = Palette(for: [pictures[0], pictures[5]], fixed: [], transparent: false)
            let (plan, written) = try FormatClip.write(path, pictures: pictures, layout: .gbrp, palette: palette)
            #expect(plan.width == Self.width && plan.frameCount == 6)
            let info = try MediaReader.info(path: path)
            #expect(info.containerName == "gif" && info.codecName == "gif" && !info.hasAlpha)
            FormatClip.expectShape(info, width: Self.width, height: Self.height, frames: 6, duration: 0.6)
            let decoded = try MediaReader.frames(path: path, layout: .gbrp)
            #expect(decoded.count == 6)
            for (index, (a, b)) in zip(written, decoded).enumerated() {
                #expect(a.hasSamePixels(as: b), "frame \(index): mean error \(meanAbsoluteError(a, b))")
            }
        }
    }

    @Test("GIF subsampled to --gif-fps and scaled to --gif-width keeps its timing and colours")
    func gifSubsampled() throws {
        try withTemporaryDirectory { dir in
            let path = "\(dir)/preview.gif"
            let pictures = FormatClip.pictures(width: Self.width, height: Self.height, count: 13)
            let (plan, written) = try FormatClip.write(path, pictures: pictures, layout: .gbrp,
                                                       own: EncoderSettings(gifFrameRate: FrameRate(15), gifWidth: 32),
                                                       rate: FrameRate(30))
            #expect(plan.selection.indices == [0, 2, 4, 6, 8, 10, 12])
            let info = try MediaReader.info(path: path)
            FormatClip.expectShape(info, width: 32, height: 18, frames: 7, duration: 0.47)
            let decoded = try MediaReader.frames(path: path, layout: .gbrp)
            // Block centres keep their colour through scaling and the palette (the uniform one
            // here, so dithered): the second block of the top row, first frame.
            let first = try #require(decoded.first)
            let sample = RGBAColor(red: first.planes[2].row(4)[12], green: first.planes[0].row(4)[12], blue: first.planes[1].row(4)[12])
            #expect(isClose(sample, Fixture.palette[1], within: 40), "\(sample)")
            #expect(written.count == 13)
        }
    }

    @Test("GIF keeps on/off transparency, and pixels that become opaque again show")
    func gifTransparency() throws {
        try withTemporaryDirectory { dir in
            let path = "\(dir)/overlay.gif"
            let pictures = FormatClip.translucent(width: Self.width, height: Self.height)
            let palette = Palette(for: pictures, fixed: [], transparent: true)
            let (_, written) = try FormatClip.write(path, pictures: pictures, layout: .gbrap, transparent: true, palette: palette)
            let info = try MediaReader.info(path: path)
            #expect(info.hasAlpha)
            let decoded = try MediaReader.frames(path: path, layout: .gbrap)
            #expect(decoded.count == 6)
            for (index, (a, b)) in zip(written, decoded).enumerated() {
                #expect(a.planes[3].row(10)[0] == 255)
                for x in 0..<Self.width {
                    let wrote = a.planes[3].row(10)[x], got = b.planes[3].row(10)[x]
                    #expect((wrote < 128) == (got < 128), "frame \(index) x \(x): alpha \(got), wrote \(wrote)")
                }
            }
        }
    }

    @Test("a PNG poster is the last frame exactly, or the frame at --poster-at")
    func poster() throws {
        try withTemporaryDirectory { dir in
            let pictures = FormatClip.pictures(width: Self.width, height: Self.height)
            let (_, written) = try FormatClip.write("\(dir)/poster.png", pictures: pictures, layout: .gbrp)
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["poster.png"])
            let info = try MediaReader.info(path: "\(dir)/poster.png")
            #expect(info.codecName == "png" && info.pixelFormat == "rgb24" && info.frameCount == 1)
            #expect(try MediaReader.frames(path: "\(dir)/poster.png", layout: .gbrp).first?.hasSamePixels(as: written[5]) == true)
            try FormatClip.write("\(dir)/early.png", pictures: pictures, layout: .gbrp, own: EncoderSettings(posterTime: 0.2))
            #expect(try MediaReader.frames(path: "\(dir)/early.png", layout: .gbrp).first?.hasSamePixels(as: written[2]) == true)
        }
    }
}
