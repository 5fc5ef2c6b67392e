// OutputFormat: which paths ask for which format, and what each format promises the pipeline.

import SliceKit
import SliceMedia
import Testing

@Suite("OutputFormat")
struct OutputFormatTests {
    @Test("paths choose formats", arguments: [
        ("promo.mp4", OutputFormat.mp4), ("out/PROMO.MP4", .mp4), ("clip.m4v", .mp4),
        ("frames/%05d.png", .pngSequence), ("f%d.png", .pngSequence), ("a/b/shot-%3d.PNG", .pngSequence),
        ("promo.webm", .webm), ("edit.MOV", .mov), ("master.mkv", .mkv), ("preview.gif", .gif),
        ("poster.png", .poster), ("12:30.png", .poster), ("clip.y4m", .y4m),
        // A % in a folder is the folder's name: a poster is one file, never a pattern.
        ("50%/poster.png", .poster), ("run-%d/frame.png", .poster), ("m%%/out/a.png", .poster),
    ])
    func known(path: String, format: OutputFormat) {
        #expect(OutputFormat(path: path) == format)
    }

    @Test("other paths are refused", arguments: ["-", "null", "promo.avi", "frames/%05d", "%d/%d.png", "%s.png",
                                                 "promo", "frames/%05x.png", "50%.png", "50%/%03d.png", "m%/out/%d.png"])
    func unknown(path: String) {
        #expect(OutputFormat(path: path) == nil)
    }

    @Test("one pattern, in the file name, and no other %, not even a literal %%", arguments: [
        ("frames/%05d.png", true), ("run-%d/frame.png", false), ("run-%d/frame%04d.png", false),
        ("50%%/frame%d.png", false), ("50%/frame%d.png", false), ("frame%%d.png", false), ("f%d-%%.png", false),
        ("frame%019d.png", true), ("frame%20d.png", false), ("frame%1000d.png", false),
    ])
    func wholePath(path: String, isPattern: Bool) {
        #expect(OutputFormat.hasFramePattern(path) == isPattern)
    }

    @Test("layouts, encoders and flags")
    func properties() {
        #expect(OutputFormat.mp4.preferredLayout == .yuv420p)
        #expect(OutputFormat.pngSequence.preferredLayout == .gbrp)
        // ProRes is 10-bit: rendered in 16 bits.
        #expect(OutputFormat.mov.preferredLayout == .yuv444p16)
        #expect(OutputFormat.gif.preferredLayout == .gbrp)
        #expect(OutputFormat.mp4.encoderName == "libx264" && OutputFormat.pngSequence.encoderName == "png")
        #expect(OutputFormat.webm.encoderName == "libvpx-vp9" && OutputFormat.mov.encoderName == "prores_ks")
        #expect(OutputFormat.mp4.takesCRF && OutputFormat.webm.takesCRF && !OutputFormat.pngSequence.takesCRF)
        #expect(!OutputFormat.mov.takesCRF && !OutputFormat.mkv.takesCRF && !OutputFormat.gif.takesCRF)
        #expect(OutputFormat.pngSequence.isSequence && !OutputFormat.mp4.isSequence && !OutputFormat.poster.isSequence)
    }

    @Test("each container's default codec, and the ones --codec may choose")
    func codecs() {
        #expect(OutputFormat.mp4.codecs == [.h264, .hevc])
        #expect(OutputFormat.webm.codecs == [.vp9, .av1])
        #expect(OutputFormat.mov.defaultCodec == .prores)
        #expect(OutputFormat.mkv.defaultCodec == .ffv1 && OutputFormat.mkv.codecs.contains(.h264))
        #expect(OutputFormat.gif.codecs == [.gif] && OutputFormat.poster.codecs == [.png])
    }
}

@Suite("PixelLayout for encoders")
struct PixelLayoutRenderingTests {
    @Test("the layout each pixel format is fed from", arguments: [
        ("yuv420p", PixelLayout.yuv420p), ("yuv420p10le", .yuv420p16), ("yuva420p", .yuva420p), ("yuv422p10le", .yuv444p16),
        ("yuv444p", .yuv444p), ("yuva444p10le", .gbrap16), ("rgb24", .gbrp), ("rgba", .gbrap), ("bgr0", .gbrp), ("pal8", .gbrp),
        ("rgb48be", .gbrp16), ("gbrp16le", .gbrp16), ("yuv444p16le", .yuv444p16), ("yuv420p12le", .yuv420p16),
    ])
    func rendering(name: String, layout: PixelLayout) {
        #expect(PixelLayout.rendering(pixelFormat: name) == layout)
    }

    @Test("one layout covers several outputs without loss")
    func covering() {
        #expect(PixelLayout.covering([]) == .yuv420p)
        #expect(PixelLayout.covering([.yuv420p, .yuv420p]) == .yuv420p)
        #expect(PixelLayout.covering([.yuv420p, .yuv444p]) == .yuv444p)
        #expect(PixelLayout.covering([.yuv420p, .gbrp]) == .gbrp)
        #expect(PixelLayout.covering([.yuva420p, .yuv420p]) == .yuva420p)
        #expect(PixelLayout.covering([.yuva420p, .yuv444p]) == .gbrap)
        #expect(PixelLayout.covering([.yuva420p, .gbrp]) == .gbrap)
        // Any output deeper than 8 bits makes the whole render 16-bit; otherwise it stays 8-bit.
        #expect(PixelLayout.covering([.yuv420p, .yuv420p16]) == .yuv420p16)
        #expect(PixelLayout.covering([.gbrp, .yuv444p16]) == .gbrp16)
        #expect(PixelLayout.covering([.yuva420p, .yuv444p16]) == .gbrap16)
        #expect(PixelLayout.covering([.yuv420p, .gbrap, .yuv444p]) == .gbrap)
    }
}
