// Cover crops before it scales: the window of the still it scales covers exactly what the frame
// shows (plus the filter's margin), wherever the focus point puts it and however the still is
// turned, and the picture is the one scaling the whole still would give.

import CFFmpeg
import Foundation
import SliceKit
@testable import SliceMedia
import Testing

@Suite("StillFit: crop before scale")
struct StillFitTests {
    @Test("the window covers what the frame shows and no more than the filter needs",
          arguments: [(1, 200), (200, 1), (1, 65535), (65535, 1), (2, 30000), (4000, 3000), (3000, 4000),
                      (1920, 1080), (1080, 1920), (333, 100), (7, 5), (5472, 3648)])
    func windowCoversTheVisiblePart(_ source: (Int, Int)) {
        for frame in [(1920, 1080), (320, 180), (180, 320), (64, 36), (2, 2)] {
            for focus in [(0.5, 0.5), (0.0, 0.0), (1.0, 1.0), (0.2, 0.9)] {
                let fit = StillFit(source: source, frame: frame, fit: .cover, focus: focus)
                let window = fit.window(source: source)
                let label = "\(source) in \(frame) at \(focus)"
                // Inside the still, at least as large as the frame, the frame inside it.
                #expect(window.source.x >= 0 && window.source.y >= 0, "\(label)")
                #expect(window.source.x + window.source.width <= source.0 && window.source.y + window.source.height <= source.1, "\(label)")
                #expect(window.offsetX + frame.0 <= window.scaledWidth && window.offsetY + frame.1 <= window.scaledHeight, "\(label)")
                // What the frame shows, in still pixels, lies inside the window.
                let scale = (Double(fit.scaled.width) / Double(source.0), Double(fit.scaled.height) / Double(source.1))
                #expect(Double(window.source.x) <= Double(fit.visible.x) / scale.0 + 1e-9, "\(label)")
                #expect(Double(window.source.x + window.source.width) >= Double(fit.visible.x + frame.0) / scale.0 - 1e-9, "\(label)")
                #expect(Double(window.source.y) <= Double(fit.visible.y) / scale.1 + 1e-9, "\(label)")
                #expect(Double(window.source.y + window.source.height) >= Double(fit.visible.y + frame.1) / scale.1 - 1e-9, "\(label)")
                // Bounded by the frame, never by how far cover enlarges the still: the frame plus,
                // a side, 64 scaled pixels of landing room, at most 64 of filter margin, and the
                // rounding out to whole still pixels and chroma samples (two still pixels' worth,
                // which is all there is when a still is enlarged more than 64 times).
                func allowance(_ scale: Double) -> Int { 128 + Int((2 * max(scale, 1)).rounded(.up)) + 4 }
                #expect(window.scaledWidth <= frame.0 + 2 * allowance(scale.0) && window.scaledHeight <= frame.1 + 2 * allowance(scale.1),
                        "\(label): scales to \(window.scaledWidth)x\(window.scaledHeight)")
            }
        }
    }

    @Test("the focus point is kept in view: at the frame's centre unless an edge would show")
    func focusPoint() {
        // 400x100 into 100x100: scaled 400x100, 300 columns to crop.
        let at = { (x: Double) in StillFit(source: (400, 100), frame: (100, 100), fit: .cover, focus: (x, 0.5)).visible.x }
        #expect(at(0.5) == 150)
        #expect(at(0) == 0 && at(0.1) == 0)
        #expect(at(1) == 300 && at(0.95) == 300)
        #expect(at(0.25) == 50)
        // Contain shows everything whatever the focus.
        let contained = StillFit(source: (400, 100), frame: (100, 100), fit: .contain, focus: (0, 0))
        #expect(contained.visible == PixelRect(x: 0, y: 0, width: 100, height: 25))
    }

    @Test("a stored rectangle and its upright one map onto each other for all eight turns", arguments: 1...8)
    func rectanglesTurn(_ exif: Int) throws {
        let turn = try #require(Orientation(exif: exif))
        let stored = (width: 40, height: 30)
        let rect = PixelRect(x: 3, y: 7, width: 11, height: 5)
        let upright = turn.uprightRect(of: rect, stored: stored)
        #expect(turn.storedRect(of: upright, stored: stored) == rect)
        // The rectangle's pixels land where Orientation.apply puts them.
        var picture = RGBAImage(width: stored.width, height: stored.height)
        for y in rect.y..<(rect.y + rect.height) {
            for x in rect.x..<(rect.x + rect.width) { Fixture.set(&picture, x, y, RGBAColor(red: 255, green: 255, blue: 255)) }
        }
        let turned = turn.apply(to: picture)
        var white: [(x: Int, y: Int)] = []
        for y in 0..<turned.height {
            for x in 0..<turned.width where turned[x, y].red == 255 { white.append((x, y)) }
        }
        #expect(white.count == rect.width * rect.height)
        #expect(white.allSatisfy { upright.x <= $0.x && $0.x < upright.x + upright.width && upright.y <= $0.y && $0.y < upright.y + upright.height })
    }

    @Test("cover with focus at the left shows the left of the still")
    func focusInLoad() throws {
        let red = RGBAColor(red: 220, green: 20, blue: 20), green = RGBAColor(red: 20, green: 200, blue: 20)
        let blue = RGBAColor(red: 20, green: 20, blue: 220)
        try withTemporaryDirectory { dir in
            let path = "\(dir)/bands.png"
            try StillWriter.write(Fixture.bands(height: 32, [(red, 32), (green, 32), (blue, 32)]), to: path, format: .png)
            let left = try StillDecoder.load(path: path, width: 32, height: 32, fit: .cover, background: .black, focus: Focus(x: 0, y: 0.5)!)
            let right = try StillDecoder.load(path: path, width: 32, height: 32, fit: .cover, background: .black, focus: Focus(x: 1, y: 0.5)!)
            #expect(isClose(left[8, 16], red, within: 2) && isClose(right[24, 16], blue, within: 2))
        }
    }

    /// The old way: scale the whole still to the cover size, then cut the frame out.
    static func wholeThenCropped(_ path: String, frame: (Int, Int)) throws -> RGBAImage {
        let picture = try StillDecoder.decodeFirstFrame(path: path, isCancelled: { false })
        let fit = StillFit(source: (picture.width, picture.height), frame: frame, fit: .cover)
        let whole = try StillDecoder.convertToRGBA(picture, width: fit.scaled.width, height: fit.scaled.height, path: path)
        return whole.cropped(x: fit.visible.x, y: fit.visible.y, width: frame.0, height: frame.1)
    }

    /// Within 1, not always equal: libswscale dithers its 8-bit output with a pattern tied to
    /// the output's rows and columns, which a crop moves (most of these are equal byte for byte).
    @Test("cropping first gives the picture of scaling the whole still, to within 1",
          arguments: [((128, 64), (32, 32)), ((400, 300), (108, 108)), ((300, 400), (192, 108)), ((640, 480), (192, 108)),
                      ((333, 100), (96, 54)), ((257, 129), (64, 64)), ((90, 160), (160, 90))])
    func sameAsScalingTheWhole(_ sizes: ((Int, Int), (Int, Int))) throws {
        let (source, frame) = sizes
        try withTemporaryDirectory { dir in
            // Smooth colour with detail, so a phase or pairing error would show.
            var image = RGBAImage(width: source.0, height: source.1)
            for y in 0..<source.1 {
                for x in 0..<source.0 {
                    Fixture.set(&image, x, y, RGBAColor(red: UInt8((x * 7 + y * 3) % 256), green: UInt8((x * x + y) % 256),
                                                        blue: UInt8((x ^ y) % 256)))
                }
            }
            let path = "\(dir)/still.png"
            try StillWriter.write(image, to: path, format: .png)
            let cropped = try StillDecoder.load(path: path, width: frame.0, height: frame.1, fit: .cover, background: .black)
            let reference = try Self.wholeThenCropped(path, frame: frame)
            let worst = zip(cropped.pixels, reference.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
            #expect(worst <= 1, "\(source) in \(frame): largest difference \(worst)")
        }
    }
}
