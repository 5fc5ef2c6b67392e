// Sequence patterns taken apart: which names a pattern writes, and when two patterns (or a
// pattern and a file) could write the same name.

import CFFmpeg
import SliceMedia
import Testing
@testable import SlicePipeline

@Suite struct FramePatternTests {
    @Test func namesAreWhatPrintfWrites() throws {
        let pattern = try #require(FramePattern("/out/f%03d.png"))
        #expect(pattern.path(7) == "/out/f007.png" && pattern.name(1234) == "f1234.png")
        #expect(pattern.index(of: "f007.png") == 7 && pattern.index(of: "f1234.png") == 1234)
        // printf never writes these: too short, extra zeros, other characters.
        for name in ["f07.png", "f0007.png", "f00x.png", "g007.png", "f007.png.bak"] { #expect(pattern.index(of: name) == nil, "\(name)") }
        #expect(FramePattern("/out/poster.png") == nil)
    }

    /// What libavformat's image2 muxer names frame `index` of `pattern` (the name it writes).
    private func ffmpegName(_ pattern: String, _ index: Int32) -> String? {
        var buffer = [CChar](repeating: 0, count: 1024)
        guard av_get_frame_filename2(&buffer, Int32(buffer.count), pattern, index, 0) == 0 else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    @Test("every pattern slicevid accepts names its frames as FFmpeg's image2 muxer does, and no wider one is accepted")
    func namesAgreeWithFFmpeg() throws {
        // image2 forms the name with av_get_frame_filename2; slicevid finds, commits and
        // licenses frames by FramePattern's names, so the two must never differ (`%1000d` made
        // image2 write every frame to one name of 19 zeros, and slicevid committed nothing).
        for width in ["", "1", "5", "05", "018", "19", "019", "0019"] {
            let path = "/out/frame%\(width)d.png"
            #expect(OutputFormat.hasFramePattern(path), "\(path)")
            let pattern = try #require(FramePattern(path))
            for index: Int32 in [0, 7, 1234, 2_592_000] {
                #expect(ffmpegName(path, index) == pattern.path(Int(index)), "\(path) frame \(index)")
            }
        }
        for width in ["20", "020", "1000", "0999999999999999999999"] {
            #expect(!OutputFormat.hasFramePattern("/out/frame%\(width)d.png"), "\(width)")
        }
    }

    @Test func overlappingPatternsShareANameAndOthersDoNot() throws {
        func overlap(_ a: String, _ b: String) throws -> Bool { try #require(FramePattern(a)).overlaps(try #require(FramePattern(b))) }
        #expect(try overlap("/o/a%d.png", "/o/a%03d.png"))      // a100.png
        #expect(try overlap("/o/a%d.png", "/o/a1%d.png"))       // a10.png
        #expect(try overlap("/o/%d.png", "/o/%d-x.png") == false)
        #expect(try overlap("/o/a%d.png", "/o/b%d.png") == false)
        #expect(try overlap("/o/a%d.png", "/p/a%d.png") == false)
    }
}
