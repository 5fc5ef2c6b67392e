// Logos in a box: a still fitted inside (contain), centred, transparent around it, premultiplied,
// and colour-managed as every still is.

import Foundation
import SliceKit
import StillFixtures
import Testing
@testable import SliceMedia

@Suite("pictures in a box (logos)")
struct StillBoxTests {
    static let red = RGBAColor(red: 227, green: 6, blue: 19)

    /// A `width` × `height` picture of `color`, its outer `border` pixels transparent.
    static func logo(width: Int, height: Int, color: RGBAColor, border: Int = 0) -> RGBAImage {
        var image = RGBAImage(width: width, height: height, color: color)
        for y in 0..<height {
            for x in 0..<width where x < border || y < border || x >= width - border || y >= height - border {
                Fixture.set(&image, x, y, RGBAColor(red: 0, green: 0, blue: 0, alpha: 0))
            }
        }
        return image
    }

    @Test("a wide translucent PNG in a square box: full width, centred, transparent above and below, premultiplied")
    func wideLogo() throws {
        try withTemporaryDirectory { folder in
            try FixtureFiles.write(Self.logo(width: 200, height: 100, color: Self.red, border: 10), to: folder + "/logo.png", alpha: true)
            let box = try StillDecoder.loadInBox(path: folder + "/logo.png", width: 100, height: 100)
            #expect(box.width == 100 && box.height == 100 && box.hasAlpha)
            // 200x100 in 100x100: 100x50, rows 25..<75; its own 10-pixel border becomes 5.
            for y in 0..<100 {
                for x in 0..<100 where y < 25 || y >= 75 {
                    #expect((0..<4).allSatisfy { box.sample($0, x, y) == 0 }, "margin \(x), \(y)")
                }
            }
            // Half covered or more exactly where the logo's opaque part lands; the scaling filter's
            // soft edge reaches no further than two pixels beyond it.
            #expect(box.inkBounds(above: 32768) == PixelBounds(x0: 5, y0: 30, x1: 95, y1: 70), "\(String(describing: box.inkBounds(above: 32768)))")
            let ink = try #require(box.inkBounds())
            #expect(ink.x0 >= 3 && ink.y0 >= 28 && ink.x1 <= 97 && ink.y1 <= 72, "\(ink)")
            #expect(box.pixel8(50, 50) == [227, 6, 19, 255])
            #expect(box.isPremultiplied)
            // Edges are premultiplied: the colour shrinks with the alpha, never a dark or light fringe.
            for x in 0..<100 where box.sample(3, x, 29) > 0 {
                let alpha = Double(box.sample(3, x, 29)), red = Double(box.sample(0, x, 29))
                #expect(abs(red / alpha - 227.0 / 255) < 0.02, "edge \(x): red \(red) at alpha \(alpha)")
            }
        }
    }

    @Test("an opaque JPEG in a wider box: transparent left and right, opaque where the picture is")
    func jpegLogo() throws {
        try withTemporaryDirectory { folder in
            try FixtureFiles.write(Self.logo(width: 100, height: 100, color: Self.red), to: folder + "/logo.jpg", jpeg: true)
            let box = try StillDecoder.loadInBox(path: folder + "/logo.jpg", width: 300, height: 100)
            #expect(box.inkBounds() == PixelBounds(x0: 100, y0: 0, x1: 200, y1: 100), "\(String(describing: box.inkBounds()))")
            #expect(box.sample(3, 150, 50) == 65535 && box.sample(3, 99, 50) == 0 && box.sample(3, 200, 50) == 0)
            // Exactly the box's shape: no alpha plane missing when the picture fills the box.
            let exact = try StillDecoder.loadInBox(path: folder + "/logo.jpg", width: 50, height: 50)
            #expect(exact.hasAlpha && exact.inkBounds() == PixelBounds(x0: 0, y0: 0, x1: 50, y1: 50))
            #expect(exact.sample(3, 0, 0) == 65535)
        }
    }

    @Test("a Display P3 logo is converted to sRGB as a still would be")
    func colourManaged() throws {
        try withTemporaryDirectory { folder in
            let p3 = RGBAColor(red: 200, green: 60, blue: 30)
            try FixtureFiles.write(Self.logo(width: 64, height: 64, color: p3), to: folder + "/p3.png", profile: TestProfiles.displayP3)
            let box = try StillDecoder.loadInBox(path: folder + "/p3.png", width: 32, height: 32)
            let expected = ColourChart.reference(of: [p3], from: TestProfiles.displayP3)[0]
            let got = box.pixel8(16, 16)
            #expect(abs(Int(got[0]) - Int(expected.red)) <= 1 && abs(Int(got[1]) - Int(expected.green)) <= 1
                    && abs(Int(got[2]) - Int(expected.blue)) <= 1 && got[3] == 255, "\(got) vs \(expected)")
            #expect(got[0] != 200 || got[1] != 60, "unconverted")
        }
    }

    @Test("a missing logo is the still's own error; a box outside the limits is refused")
    func refusals() throws {
        let missing = try #require(throws: MediaError.self) { try StillDecoder.loadInBox(path: "/nonexistent/logo.png", width: 10, height: 10) }
        #expect(missing.kind == .inputMissing && missing.subject == "/nonexistent/logo.png")
        try withTemporaryDirectory { folder in
            try FixtureFiles.write(Self.logo(width: 8, height: 8, color: Self.red), to: folder + "/logo.png")
            let box = try #require(throws: MediaError.self) { try StillDecoder.loadInBox(path: folder + "/logo.png", width: 0, height: 10) }
            #expect(box.kind == .inputInvalid && box.message.contains("0x10 px box"))
        }
    }
}
