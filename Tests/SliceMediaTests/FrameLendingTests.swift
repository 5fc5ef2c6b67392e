// VideoWriter lends rendered frames to encoders that copy their input on send (x264, libvpx)
// instead of copying them into an AVFrame first. Checked the hard way: one buffer is reused and
// scribbled over after every write, as the render window does, and the file must be
// byte-identical to the one written through the copying path.

import Foundation
import SliceKit
@testable import SliceMedia
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

    @Test("x264 and libvpx are lent frames, and the files are byte-identical to copied frames",
          arguments: [OutputFormat.mp4, .webm])
    func lentEqualsCopied(format: OutputFormat) throws {
        try withTemporaryDirectory { dir in
            let lentPath = "\(dir)/lent.\(format.rawValue)", copiedPath = "\(dir)/copied.\(format.rawValue)"
            let lentFrames = try Self.write(format, to: lentPath, lend: nil)
            let copiedFrames = try Self.write(format, to: copiedPath, lend: false)
            #expect(lentFrames && !copiedFrames)
            let lent = try Data(contentsOf: URL(fileURLWithPath: lentPath))
            let copied = try Data(contentsOf: URL(fileURLWithPath: copiedPath))
            #expect(lent.count > 0 && lent == copied, "lent \(lent.count) bytes, copied \(copied.count)")
            let frames = try MediaReader.info(path: lentPath).frameCount
            #expect(frames == Self.count)
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

    @Test("the encoders that copy on send are the ones lent to")
    func encoderList() {
        #expect(VideoCodec.copiesInputOnSend(encoder: "libx264"))
        #expect(VideoCodec.copiesInputOnSend(encoder: "libvpx-vp9"))
        for encoder in ["wrapped_avframe", "ffv1", "png", "gif", "prores_ks"] {
            #expect(!VideoCodec.copiesInputOnSend(encoder: encoder), "\(encoder)")
        }
    }
}
