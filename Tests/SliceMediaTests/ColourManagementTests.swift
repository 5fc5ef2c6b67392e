// Colour-true stills: an embedded ICC profile (Display P3, Adobe RGB, grey) is converted to sRGB
// as Little CMS converts it; an sRGB profile changes no byte; profiles slicevid cannot use are
// refused with one line; a PNG's gAMA is honoured.

import CLcms2
import Foundation
import SliceKit
import StillFixtures
import Testing
@testable import SliceMedia

@Suite("Colour management")
struct ColourManagementTests {
    /// The chart decoded from `path` at its own size, patch centres.
    static func decodedChart(_ path: String) throws -> [RGBAColor] {
        let chart = ColourChart.image()
        let loaded = try StillDecoder.load(path: path, width: chart.width, height: chart.height, fit: .cover, background: .black)
        return ColourChart.centres(of: loaded)
    }

    /// The chart as a `format` file ("png", "jpg", "webp" or "tiff"), tagged with `profile`.
    static func writeChart(_ format: String, to path: String, profile: [UInt8]) throws {
        switch format {
        case "webp": try FixtureFiles.webp(ColourChart.image(), to: path, profile: profile)
        case "tiff": try FixtureFiles.tiff(ColourChart.image(), to: path, profile: profile)
        default: try FixtureFiles.write(ColourChart.image(), to: path, jpeg: format == "jpg", profile: profile)
        }
    }

    @Test("P3 and Adobe RGB charts in PNG, JPEG, WebP and TIFF match Little CMS's own conversion (ΔE2000 ≤ 1.0 mean, ≤ 2.5 max)",
          arguments: [("Display P3", TestProfiles.displayP3), ("Adobe RGB", TestProfiles.adobeRGB)], ["png", "jpg", "webp", "tiff"])
    func taggedCharts(profile: (name: String, bytes: [UInt8]), format: String) throws {
        let (name, profile) = (profile.name, profile.bytes)
        try withTemporaryDirectory { dir in
            let tagged = "\(dir)/chart.\(format)", untagged = "\(dir)/untagged.\(format == "jpg" ? "jpg" : "png")"
            try Self.writeChart(format, to: tagged, profile: profile)
            try FixtureFiles.write(ColourChart.image(), to: untagged, jpeg: format == "jpg")
            let reference = ColourChart.reference(from: profile)
            let managed = ColourDifference.summary(try Self.decodedChart(tagged), reference)
            #expect(managed.mean <= 1.0 && managed.max <= 2.5, "\(name) \(format): \(managed)")
            // The same numbers read as sRGB are visibly off: the check can tell.
            let ignored = ColourDifference.summary(try Self.decodedChart(untagged), reference)
            #expect(ignored.mean > 1.0, "\(name) untagged: \(ignored)")
        }
    }

    @Test("an embedded sRGB profile changes no byte: the still takes the plain 8-bit way")
    func sRGBProfileIsIdentity() throws {
        try withTemporaryDirectory { dir in
            let picture = Fixture.noise(width: 48, height: 30)
            try FixtureFiles.write(picture, to: "\(dir)/plain.png")
            try FixtureFiles.write(picture, to: "\(dir)/srgb.png", profile: TestProfiles.sRGB)
            for layout in [PixelLayout.yuv420p, .gbrp] {
                for size in [(48, 30), (32, 18)] {
                    let plain = try StillDecoder.loadPlanar(path: "\(dir)/plain.png", width: size.0, height: size.1, fit: .cover,
                                                            background: .black, layout: layout)
                    let tagged = try StillDecoder.loadPlanar(path: "\(dir)/srgb.png", width: size.0, height: size.1, fit: .cover,
                                                             background: .black, layout: layout)
                    #expect(tagged.hasSamePixels(as: plain), "\(layout) \(size)")
                }
            }
            #expect(try ColourConversion.of(.profile(TestProfiles.sRGB))?.isIdentity == true)
        }
    }

    @Test("a grey profile on a grey JPEG is applied; a conversion is made once per profile")
    func greyProfile() throws {
        // Gamma 2.2 grey read as sRGB: dark greys darken, as lcms's table says.
        let conversion = try #require(try ColourConversion.of(.profile(TestProfiles.grey22)))
        #expect(conversion.isGrey && !conversion.isIdentity)
        var image = RGBAImage(width: 1, height: 1, color: RGBAColor(red: 32, green: 32, blue: 32))
        conversion.apply(to: &image)
        #expect(image[0, 0].red < 30 && image[0, 0].red == image[0, 0].green)
        #expect(try ColourConversion.of(.profile(TestProfiles.grey22)) === conversion)
    }

    @Test("profiles slicevid cannot use are refused naming what is wrong", arguments: [
        ("cmyk", "CMYK colour profile"), ("truncated", "Little CMS cannot use"), ("grey", "grey ICC colour profile"),
    ])
    func refusedProfiles(kind: String, message: String) throws {
        try withTemporaryDirectory { dir in
            let profile: [UInt8]
            switch kind {
            case "cmyk": profile = TestProfiles.cmyk
            case "truncated": profile = Array(TestProfiles.displayP3.prefix(300))
            default: profile = TestProfiles.grey22
            }
            let path = "\(dir)/\(kind).png"
            try FixtureFiles.write(Fixture.noise(width: 16, height: 16), to: path, profile: profile)
            do throws(MediaError) {
                _ = try StillDecoder.load(path: path, width: 16, height: 16, fit: .cover, background: .black)
                Issue.record("\(kind) was not refused")
            } catch {
                #expect(error.kind == .inputInvalid && error.description.contains(message) && error.description.contains(path), "\(error)")
            }
        }
    }

    @Test("a PNG's gAMA is honoured without a profile: a linear mid grey reads brighter; 1/2.2 is sRGB")
    func pngGamma() throws {
        try withTemporaryDirectory { dir in
            let grey = RGBAImage(width: 8, height: 8, color: RGBAColor(red: 128, green: 128, blue: 128))
            let linear = "\(dir)/linear.png", usual = "\(dir)/usual.png"
            try FixtureFiles.write(grey, to: linear)
            try FixtureFiles.splice(png: linear, chunk: "gAMA", data: FixtureFiles.be32(100_000))
            try FixtureFiles.write(grey, to: usual)
            try FixtureFiles.splice(png: usual, chunk: "gAMA", data: FixtureFiles.be32(45_455))
            let bright = try StillDecoder.load(path: linear, width: 8, height: 8, fit: .cover, background: .black)[4, 4]
            // Linear 0.502 is sRGB 188.
            #expect(abs(Int(bright.red) - 188) <= 1 && bright.red == bright.blue, "\(bright)")
            #expect(try StillDecoder.load(path: usual, width: 8, height: 8, fit: .cover, background: .black) == grey)
        }
    }

    @Test("a PNG's cICP is honoured: Display P3 codes (12/13) convert like a P3 profile; PQ (16) is refused as HDR")
    func pngCICP() throws {
        try withTemporaryDirectory { dir in
            let p3 = "\(dir)/p3.png", pq = "\(dir)/pq.png"
            try FixtureFiles.write(ColourChart.image(), to: p3)
            try FixtureFiles.splice(png: p3, chunk: "cICP", data: [12, 13, 0, 1])
            let difference = ColourDifference.summary(try Self.decodedChart(p3), ColourChart.reference(from: TestProfiles.displayP3))
            #expect(difference.mean <= 1.0 && difference.max <= 2.5, "\(difference)")
            try FixtureFiles.write(ColourChart.image(), to: pq)
            try FixtureFiles.splice(png: pq, chunk: "cICP", data: [9, 16, 0, 1])
            do throws(MediaError) {
                _ = try StillDecoder.load(path: pq, width: 16, height: 16, fit: .cover, background: .black)
                Issue.record("a PQ PNG was shown")
            } catch {
                #expect(error.kind == .inputInvalid && error.description.contains("HDR still (PQ transfer)") && error.description.contains(pq))
            }
        }
    }
}
