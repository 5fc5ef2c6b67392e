// What a still's file says about how to show it, beyond its pixels: a PNG's eXIf and a TIFF's
// Orientation turn it upright (FFmpeg 5.1's decoders pass neither on), and an SVG is drawn by
// librsvg at the size it is shown rather than at its own small size and enlarged.

import CFFmpeg
import Foundation
import SliceKit
import StillFixtures
import Testing
@testable import SliceMedia

@Suite("Still tags")
struct StillTagsTests {
    static let red = RGBAColor(red: 255, green: 0, blue: 0), green = RGBAColor(red: 0, green: 255, blue: 0)

    /// 64x32 green with a red 16x16 marker at the top left, as stored.
    static var marked: RGBAImage {
        var image = RGBAImage(width: 64, height: 32, color: green)
        for y in 0..<16 { for x in 0..<16 { Fixture.set(&image, x, y, red) } }
        return image
    }

    /// Orientation 6 (turn 90° clockwise) shows the stored 64x32 as 32x64, marker top right.
    static func expectTurned(_ path: String) throws {
        let upright = try StillDecoder.load(path: path, width: 32, height: 64, fit: .cover, background: .black)
        #expect(isClose(upright[28, 4], red, within: 3), "\(path): \(upright[28, 4]) at the top right")
        #expect(isClose(upright[4, 4], green, within: 3) && isClose(upright[28, 60], green, within: 3))
    }

    @Test("a PNG's eXIf orientation 6 turns it upright")
    func pngExif() throws {
        try withTemporaryDirectory { dir in
            let path = "\(dir)/turned.png"
            try FixtureFiles.write(Self.marked, to: path)
            try FixtureFiles.splice(png: path, chunk: "eXIf", data: FixtureFiles.exif(orientation: 6))
            try Self.expectTurned(path)
        }
    }

    @Test("a TIFF's Orientation tag 6 turns it upright")
    func tiffOrientation() throws {
        try withTemporaryDirectory { dir in
            let path = "\(dir)/turned.tiff"
            try FixtureFiles.tiff(Self.marked, to: path, profile: TestProfiles.sRGB, orientation: 6)
            try Self.expectTurned(path)
        }
    }

    @Test("an SVG of 16x9 shown at 320x180 is drawn at 320x180: its red/blue edge stays within 2 pixels",
          .enabled(if: StillHeader.Format.svg.isDecodable))
    func svgAtShownSize() throws {
        try withTemporaryDirectory { dir in
            let path = "\(dir)/half.svg"
            try Data("""
                <svg xmlns="http://www.w3.org/2000/svg" width="16" height="9" viewBox="0 0 16 9">
                <rect x="0" y="0" width="8" height="9" fill="#ff0000"/><rect x="8" y="0" width="8" height="9" fill="#0000ff"/></svg>
                """.utf8).write(to: URL(fileURLWithPath: path))
            let shown = try StillDecoder.load(path: path, width: 320, height: 180, fit: .cover, background: .black)
            let blue = RGBAColor(red: 0, green: 0, blue: 255)
            let blended = (0..<320).filter { !isClose(shown[$0, 90], Self.red, within: 4) && !isClose(shown[$0, 90], blue, within: 4) }
            // Drawn at 16x9 and enlarged 20 times, the edge would blur over about 20 columns.
            #expect(blended.count <= 2, "columns between red and blue: \(blended)")
            #expect(isClose(shown[10, 90], Self.red, within: 4) && isClose(shown[310, 90], blue, within: 4))
        }
    }

    @Test("a YUV picture FFmpeg decodes is converted with the matrix its tag names, BT.601 only when untagged or unknown")
    func matrixFromTag() {
        #expect(Frame.matrix(of: AVCOL_SPC_BT2020_NCL) == SWS_CS_BT2020)
        #expect(Frame.matrix(of: AVCOL_SPC_BT709) == SWS_CS_ITU709)
        #expect(Frame.matrix(of: AVCOL_SPC_SMPTE240M) == SWS_CS_SMPTE240M)
        #expect(Frame.matrix(of: AVCOL_SPC_BT470BG) == SWS_CS_ITU601)
        #expect(Frame.matrix(of: AVCOL_SPC_UNSPECIFIED) == SWS_CS_DEFAULT && Frame.matrix(of: AVCOL_SPC_ICTCP) == SWS_CS_DEFAULT)
    }

    @Test("tags saying PQ or HLG are refused as HDR; BT.709, BT.2020 and untagged SDR are not", arguments: [
        (16, "PQ"), (18, "HLG"), (1, nil), (14, nil), (2, nil),
    ])
    func hdrTags(transfer: Int, refused: String?) {
        do throws(ColourRefusal) {
            _ = try StillColour.tagged(primaries: 9, transfer: transfer)
            #expect(refused == nil, "transfer \(transfer) was let through")
        } catch {
            #expect(refused.map { error.message.contains("HDR still (\($0) transfer)") } ?? false, "\(error.message)")
        }
    }

    @Test("a 16-bit PNG reduced for an 8-bit render rounds each sample once: 126 × 257 is 126, not libswscale's 127")
    func sixteenBitRounding() throws {
        try withTemporaryDirectory { dir in
            let path = "\(dir)/deep.png"
            // Columns of v × 257 for every 8-bit v, plus half-way values that round up.
            try FixtureFiles.png16(width: 256, height: 2, to: path) { x, y, _ in UInt16(x * 257 + (y == 1 && x < 255 ? 129 : 0)) }
            let shown = try StillDecoder.load(path: path, width: 256, height: 2, fit: .cover, background: .black)
            let exact = (0..<256).filter { Int(shown[$0, 0].red) == $0 && Int(shown[$0, 0].blue) == $0 }
            let rounded = (0..<255).filter { Int(shown[$0, 1].green) == $0 + 1 }
            #expect(exact.count == 256, "wrong at \(Set(0..<256).subtracting(exact).sorted().prefix(8))")
            #expect(rounded.count == 255, "half-way values not rounded up at \(Set(0..<255).subtracting(rounded).sorted().prefix(8))")
        }
    }
}
