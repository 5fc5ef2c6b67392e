// VideoWriter lends rendered frames to encoders that copy their input on send (x264, libvpx)
// instead of copying them into an AVFrame first. Checked the hard way: one buffer is reused and
// scribbled over with noise after every write, as the render window reuses its buffers, and
// every decoded frame must still be the picture that was in the buffer when it was written.

import CFFmpeg
import Foundation
import SliceKit
@testable import SliceMedia
import Synchronization
import Testing

@Suite("VideoWriter frame lending")
struct FrameLendingTests {
    static let width = 64, height = 36, count = 12

    /// Writes the moving-bar clip through one reused buffer, overwritten with noise after each
    /// write; returns whether the writer lent frames.
    static func write(_ format: OutputFormat, to path: String, lend: Bool?,
                      settings: EncoderSettings = EncoderSettings(crf: 30)) throws -> Bool {
        let writer = try VideoWriter(path: path, outputFormat: format, width: width, height: height,
                                     frameRate: FrameRate(30), inputLayout: .yuv420p, settings: settings)
        if let lend { writer.lendsFrames = writer.lendsFrames && lend }
        let buffer = PlanarImage(width: width, height: height, layout: .yuv420p)
        let scribble = Fixture.noise(width: width, height: height).planar(.yuv420p)
        for index in 0..<count {
            buffer.copy(from: Fixture.movingBar(width: width, height: height, index: index).planar(.yuv420p))
            try writer.write(buffer)
            buffer.copy(from: scribble)
        }
        try writer.finish()
        return writer.lendsFrames
    }

    @Test("x264, x265, libvpx and libaom are lent frames, and every frame decodes to what was in the buffer when it was written",
          arguments: [(OutputFormat.mp4, "libx264"), (.mp4, "libx265"), (.webm, "libvpx-vp9"), (.webm, "libaom-av1")])
    func lentFramesAreEncodedBeforeReuse(format: OutputFormat, encoder: String) throws {
        try withTemporaryDirectory { dir in
            let path = "\(dir)/lent.\(format.rawValue)"
            let settings = EncoderSettings(crf: 18, preset: encoder == "libaom-av1" ? "8" : nil, codec: CodecChoice(parsing: encoder))
            let lent = try Self.write(format, to: path, lend: nil, settings: settings)
            let codec = try MediaReader.info(path: path).codecName
            #expect(lent && codec == ["libx264": "h264", "libx265": "hevc", "libvpx-vp9": "vp9", "libaom-av1": "av1"][encoder])
            // Had the encoder kept the buffer, later frames would show the scribble (≈ 8 dB).
            let decoded = try MediaReader.frames(path: path, layout: .yuv420p)
            #expect(decoded.count == Self.count)
            for (index, frame) in decoded.enumerated() {
                let written = Fixture.movingBar(width: Self.width, height: Self.height, index: index).planar(.yuv420p)
                let luma = psnr(written, frame, plane: 0)
                #expect(luma > 30, "frame \(index): luma PSNR \(luma) dB")
            }
        }
    }

    @Test("a lent frame and a copied frame encode alike")
    func lentMatchesCopied() throws {
        // Not byte for byte: x264 encoders running side by side on Dispatch's worker threads
        // (as Swift Testing runs tests) have produced slightly different streams from identical
        // frames, even through raw libavcodec calls; the same calls on plain pthreads never
        // did. The cause is not known. slicevid's own runs are checked for byte identity in the
        // CLI tests, one process per run. Closely, though.
        try withTemporaryDirectory { dir in
            let lentPath = "\(dir)/lent.mp4", copiedPath = "\(dir)/copied.mp4"
            let lent = try Self.write(.mp4, to: lentPath, lend: nil, settings: EncoderSettings(crf: 18))
            let copied = try Self.write(.mp4, to: copiedPath, lend: false, settings: EncoderSettings(crf: 18))
            #expect(lent && !copied)
            let a = try MediaReader.frames(path: lentPath, layout: .yuv420p)
            let b = try MediaReader.frames(path: copiedPath, layout: .yuv420p)
            #expect(a.count == Self.count && b.count == Self.count)
            for (index, (x, y)) in zip(a, b).enumerated() {
                #expect(meanAbsoluteError(x, y) < 1, "frame \(index)")
            }
        }
    }

    @Test("nothing is lent where the frame must be converted or is kept by reference")
    func notLent() throws {
        try withTemporaryDirectory { dir in
            // A pixel format change goes through libswscale into the writer's own frame.
            let converted = try Self.write(.mp4, to: "\(dir)/444.mp4", lend: nil,
                                           settings: EncoderSettings(preset: "ultrafast", pixelFormat: "yuv444p"))
            // wrapped_avframe hands the frame itself to the muxer.
            let wrapped = try Self.write(.y4m, to: "\(dir)/clip.y4m", lend: nil, settings: EncoderSettings())
            // FFV1: a conversion to bgr0, and an encoder whose frame threads keep their input.
            let lossless = try Self.write(.mkv, to: "\(dir)/clip.mkv", lend: nil, settings: EncoderSettings())
            #expect(!converted && !wrapped && !lossless)
        }
    }

    @Test("a lent picture stays alive while any reference to its buffer does, and is reported back once")
    func lentPictureOutlivesTheLender() throws {
        let frame = try Frame(subject: "test"), kept = try Frame(subject: "test")
        let returns = Atomic<Int>(0)
        weak var lentImage: PlanarImage?
        do {
            let image = PlanarImage(width: 16, height: 8, layout: .yuv420p)
            image.fill(RGBAColor(red: 10, green: 200, blue: 30))
            lentImage = image
            try frame.lend(image, subject: "test") { returns.add(1, ordering: .relaxed) }
        }
        // An encoder that keeps the frame holds its own reference to the buffer.
        #expect(av_frame_ref(kept.pointer, frame.pointer) == 0)
        frame.unref()
        #expect(lentImage != nil, "the image was freed while an encoder still held its buffer")
        #expect(returns.load(ordering: .relaxed) == 0)
        #expect(kept.planes(count: 1).data[0] == lentImage?.planes[0].base)
        kept.unref()
        #expect(lentImage == nil)
        #expect(returns.load(ordering: .relaxed) == 1)
    }

    @Test("the encoders that copy on send are the ones lent to")
    func encoderList() {
        #expect(VideoCodec.copiesInputOnSend(encoder: "libx264"))
        #expect(VideoCodec.copiesInputOnSend(encoder: "libvpx-vp9"))
        for encoder in ["wrapped_avframe", "ffv1", "png", "gif", "prores_ks"] {
            #expect(!VideoCodec.copiesInputOnSend(encoder: encoder), "\(encoder)")
        }
    }
}
