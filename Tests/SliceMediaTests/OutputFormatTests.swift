// OutputFormat: which paths ask for which format, and what each format promises the pipeline.

import SliceKit
import SliceMedia
import Testing

@Suite("OutputFormat")
struct OutputFormatTests {
    @Test("paths choose formats", arguments: [
        ("promo.mp4", OutputFormat.mp4), ("out/PROMO.MP4", .mp4), ("clip.m4v", .mp4),
        ("frames/%05d.png", .pngSequence), ("f%d.png", .pngSequence), ("a/b/shot-%3d.PNG", .pngSequence),
    ])
    func known(path: String, format: OutputFormat) {
        #expect(OutputFormat(path: path) == format)
    }

    @Test("other paths are refused", arguments: ["poster.png", "promo.mov", "frames/%05d", "%d/%d.png", "%s.png",
                                                 "promo", "frames/%05x.png"])
    func unknown(path: String) {
        #expect(OutputFormat(path: path) == nil)
    }

    @Test("one pattern, in the file name, and no other %, not even a literal %%", arguments: [
        ("frames/%05d.png", true), ("run-%d/frame.png", false), ("run-%d/frame%04d.png", false),
        ("50%%/frame%d.png", false), ("50%/frame%d.png", false), ("frame%%d.png", false), ("f%d-%%.png", false),
    ])
    func wholePath(path: String, isPattern: Bool) {
        #expect(OutputFormat.hasFramePattern(path) == isPattern)
    }

    @Test("layouts, encoders and flags")
    func properties() {
        #expect(OutputFormat.mp4.preferredLayout == .yuv420p)
        #expect(OutputFormat.pngSequence.preferredLayout == .gbrp)
        #expect(OutputFormat.mp4.encoderName == "libx264" && OutputFormat.pngSequence.encoderName == "png")
        #expect(OutputFormat.mp4.takesCRF && !OutputFormat.pngSequence.takesCRF)
        #expect(OutputFormat.pngSequence.isSequence && !OutputFormat.mp4.isSequence)
    }
}
