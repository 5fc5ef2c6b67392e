// HEIC stills through libheif, written by the tests with libheif and x265: their ICC profile,
// their orientation (irot/imir) and their alpha are honoured; a 10-bit BT.2020 still's nclx tags
// (matrix, range, primaries) are read and converted; HDR is refused.

import CHeif
import Foundation
import SliceKit
import StillFixtures
import Testing
@testable import SliceMedia

@Suite("HEIC stills")
struct HEIFStillTests {
    static let red = RGBAColor(red: 255, green: 0, blue: 0), green = RGBAColor(red: 0, green: 255, blue: 0)
    static let blue = RGBAColor(red: 0, green: 0, blue: 255), white = RGBAColor(red: 255, green: 255, blue: 255)

    @Test("HEIC is an accepted format, named in the list of what this build decodes")
    func accepted() {
        #expect(StillDecoder.acceptedFormats.contains("HEIC") && StillDecoder.acceptedFormats.contains("AVIF"))
        #expect(StillDecoder.acceptedFormats.contains("SVG") == (StillHeader.Format.svg.isDecodable))
    }

    @Test("a HEIC with a Display P3 profile is converted like a PNG with one (ΔE2000 ≤ 1.0 mean, ≤ 2.5 max)")
    func profile() throws {
        try withTemporaryDirectory { dir in
            let path = "\(dir)/p3.heic"
            try HEIFWriter.heic(ColourChart.image(), to: path, profile: TestProfiles.displayP3)
            let decoded = try ColourManagementTests.decodedChart(path)
            let difference = ColourDifference.summary(decoded, ColourChart.reference(from: TestProfiles.displayP3))
            #expect(difference.mean <= 1.0 && difference.max <= 2.5, "\(difference)")
        }
    }

    @Test("an AVIF goes through libheif too: its Display P3 profile and its irot are honoured (FFmpeg 5.1 drops both)")
    func avif() throws {
        try withTemporaryDirectory { dir in
            let path = "\(dir)/p3.avif"
            try HEIFWriter.heic(ColourChart.image(), to: path, profile: TestProfiles.displayP3, compression: heif_compression_AV1)
            let difference = ColourDifference.summary(try ColourManagementTests.decodedChart(path),
                                                      ColourChart.reference(from: TestProfiles.displayP3))
            #expect(difference.mean <= 1.0 && difference.max <= 2.5, "\(difference)")
            var stored = RGBAImage(width: 64, height: 32, color: Self.green)
            for y in 0..<16 { for x in 0..<16 { Fixture.set(&stored, x, y, Self.red) } }
            try HEIFWriter.heic(stored, to: "\(dir)/turned.avif", orientation: heif_orientation_rotate_90_cw, compression: heif_compression_AV1)
            let upright = try StillDecoder.load(path: "\(dir)/turned.avif", width: 32, height: 64, fit: .cover, background: .black)
            #expect(isClose(upright[28, 4], Self.red, within: 6) && isClose(upright[4, 60], Self.green, within: 6), "\(upright[28, 4])")
        }
    }

    @Test("orientation 6 (irot): a 64x32 picture is shown 32x64, its top-left marker at the top right")
    func orientation() throws {
        try withTemporaryDirectory { dir in
            var stored = RGBAImage(width: 64, height: 32, color: Self.green)
            for y in 0..<16 { for x in 0..<16 { Fixture.set(&stored, x, y, Self.red) } }
            let path = "\(dir)/turned.heic"
            try HEIFWriter.heic(stored, to: path, orientation: heif_orientation_rotate_90_cw)
            let upright = try StillDecoder.load(path: path, width: 32, height: 64, fit: .cover, background: .black)
            #expect(isClose(upright[28, 4], Self.red, within: 3), "\(upright[28, 4])")
            #expect(isClose(upright[4, 4], Self.green, within: 3) && isClose(upright[28, 60], Self.green, within: 3))
        }
    }

    @Test("alpha: a red disc on transparent blue, over black, shows no blue anywhere")
    func alpha() throws {
        try withTemporaryDirectory { dir in
            var disc = RGBAImage(width: 64, height: 64, color: RGBAColor(red: 0, green: 0, blue: 255, alpha: 0))
            for y in 0..<64 { for x in 0..<64 where (x - 32) * (x - 32) + (y - 32) * (y - 32) < 400 { Fixture.set(&disc, x, y, Self.red) } }
            let path = "\(dir)/disc.heic"
            try HEIFWriter.heic(disc, to: path, alpha: true)
            for size in [64, 24] {
                let shown = try StillDecoder.load(path: path, width: size, height: size, fit: .cover, background: .black)
                #expect(isClose(shown[size / 2, size / 2], Self.red, within: 3), "\(shown[size / 2, size / 2])")
                #expect(shown[0, 0] == RGBAColor.black)
                #expect(shown.pixels.enumerated().allSatisfy { $0.offset % 4 != 2 || $0.element <= 3 }, "blue bled in at \(size)")
            }
        }
    }

    /// Stripes of BT.2020 red, green, blue, white and an orange, as 10-bit code values.
    static let stripes: [RGBAColor] = [red, green, blue, white, RGBAColor(red: 180, green: 90, blue: 60)]

    @Test("a 10-bit BT.2020 still (nclx 9/1/9, limited range): primaries within 2 levels, an orange as Little CMS converts it")
    func bt2020() throws {
        try withTemporaryDirectory { dir in
            let picture = Fixture.bands(height: 16, Self.stripes.map { ($0, 16) })
            let path = "\(dir)/bt2020.heic"
            try HEIFWriter.heic(picture, to: path, tags: .init(primaries: 9, transfer: 1, matrix: 9, fullRange: false), deep: true,
                                lossless: false)
            let shown = try StillDecoder.load(path: path, width: picture.width, height: 16, fit: .cover, background: .black)
            let bt2020 = TestProfiles.rgb((0.708, 0.292), (0.170, 0.797), (0.131, 0.046), curve: TestProfiles.srgbCurve())
            let orange = ColourChart.reference(of: [Self.stripes[4]], from: bt2020)[0]
            for (i, expected) in (Self.stripes.prefix(4) + [orange]).enumerated() {
                #expect(isClose(shown[16 * i + 8, 8], expected, within: 2), "stripe \(i): \(shown[16 * i + 8, 8]), expected \(expected)")
            }
        }
    }

    @Test("HDR stills (PQ, HLG) are refused with one line, not shown wrong", arguments: [(16, "PQ"), (18, "HLG")])
    func hdr(transfer: UInt16, name: String) throws {
        try withTemporaryDirectory { dir in
            let path = "\(dir)/hdr.heic"
            try HEIFWriter.heic(Fixture.blocks(width: 32, height: 16), to: path,
                                tags: .init(primaries: 9, transfer: transfer, matrix: 9, fullRange: false), deep: true, lossless: false)
            do throws(MediaError) {
                _ = try StillDecoder.load(path: path, width: 32, height: 16, fit: .cover, background: .black)
                Issue.record("an HDR still was shown")
            } catch {
                #expect(error.kind == .inputInvalid && error.message.contains("HDR still (\(name) transfer)"), "\(error)")
            }
        }
    }
}
