// Sequence patterns taken apart: which names a pattern writes, and when two patterns (or a
// pattern and a file) could write the same name.

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

    @Test func overlappingPatternsShareANameAndOthersDoNot() throws {
        func overlap(_ a: String, _ b: String) throws -> Bool { try #require(FramePattern(a)).overlaps(try #require(FramePattern(b))) }
        #expect(try overlap("/o/a%d.png", "/o/a%03d.png"))      // a100.png
        #expect(try overlap("/o/a%d.png", "/o/a1%d.png"))       // a10.png
        #expect(try overlap("/o/%d.png", "/o/%d-x.png") == false)
        #expect(try overlap("/o/a%d.png", "/o/b%d.png") == false)
        #expect(try overlap("/o/a%d.png", "/p/a%d.png") == false)
    }
}
