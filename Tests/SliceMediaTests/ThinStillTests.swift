// Stills of extreme aspect — one pixel wide or one pixel tall, up to the 65535-pixel side —
// fitted either way into frames of several shapes. Issue 10 had 1x200 crash libswscale at 1080p
// and 1x65535 abort on a 26 GB allocation, because cover scaled the whole still before cropping.

import CFFmpeg
import Foundation
import SliceKit
@testable import SliceMedia
import Testing

@Suite("StillDecoder thin stills")
struct ThinStillTests {
    static let colour = RGBAColor(red: 200, green: 60, blue: 30)
    static let background = RGBAColor(red: 0, green: 0, blue: 255)

    static let shapes = [(1, 2), (1, 200), (1, 1000), (1, 16000), (2, 30000), (1, 65535), (3, 65535),
                         (2, 1), (200, 1), (16000, 1), (65535, 1), (65535, 3)]

    @Test("a thin still of one colour covers the frame in that colour, or sits in it contained", arguments: shapes)
    func thinStill(_ shape: (Int, Int)) throws {
        try withTemporaryDirectory { dir in
            let path = "\(dir)/thin.png"
            try StillWriter.write(RGBAImage(width: shape.0, height: shape.1, color: Self.colour), to: path, format: .png)
            for frame in [(320, 180), (180, 320), (64, 36), (2, 2)] {
                let covered = try StillDecoder.load(path: path, width: frame.0, height: frame.1, fit: .cover, background: Self.background)
                #expect(covered.width == frame.0 && covered.height == frame.1)
                let corners = [covered[0, 0], covered[frame.0 - 1, 0], covered[0, frame.1 - 1], covered[frame.0 / 2, frame.1 / 2]]
                #expect(corners.allSatisfy { isClose($0, Self.colour, within: 1) }, "\(shape) covering \(frame): \(corners)")

                let contained = try StillDecoder.load(path: path, width: frame.0, height: frame.1, fit: .contain, background: Self.background)
                let size = StillDecoder.fittedSize(source: shape, frame: frame, fit: .contain)
                // The still sits centred; around it, the background.
                let centre = ((frame.0 - size.width) / 2 + size.width / 2, (frame.1 - size.height) / 2 + size.height / 2)
                // Within 2: the steps a 65535-pixel side is shrunk in each round by up to 1.
                #expect(isClose(contained[centre.0, centre.1], Self.colour, within: 2), "\(shape) contained in \(frame)")
                if size.width < frame.0 - 2 { #expect(contained[0, frame.1 / 2] == Self.background, "\(shape) in \(frame)") }
                if size.height < frame.1 - 2 { #expect(contained[frame.0 / 2, 0] == Self.background, "\(shape) in \(frame)") }
            }
        }
    }

    @Test("a thin still's picture is what the frame shows of it: the middle of a two-coloured strip")
    func thinStillPicture() throws {
        try withTemporaryDirectory { dir in
            // 1x20000: the top half red, the bottom half green. Cover at 320x180 shows 0.56
            // still pixels around the middle: the frame's top half red, its bottom half green.
            var strip = RGBAImage(width: 1, height: 20000, color: RGBAColor(red: 230, green: 20, blue: 20))
            for y in 10000..<20000 { Fixture.set(&strip, 0, y, RGBAColor(red: 20, green: 200, blue: 20)) }
            let path = "\(dir)/strip.png"
            try StillWriter.write(strip, to: path, format: .png)
            let covered = try StillDecoder.load(path: path, width: 320, height: 180, fit: .cover, background: .black)
            #expect(covered[160, 5].red > 150 && covered[160, 5].green < 100, "\(covered[160, 5])")
            #expect(covered[160, 174].green > 150 && covered[160, 174].red < 100, "\(covered[160, 174])")
        }
    }

    @Test("thin stills in subsampled, 1-bit and turned layouts crop on whole samples", arguments: ["jpeg", "bilevel", "turned"])
    func otherLayouts(_ kind: String) throws {
        try withTemporaryDirectory { dir in
            let path = "\(dir)/thin.\(kind == "bilevel" ? "png" : "jpg")"
            let width = 4001, height = 9   // odd: the 4:2:0 chroma planes' last column is a half
            switch kind {
            case "bilevel":
                // White in the middle third only: cover at 64x36 shows the middle, all white.
                try DamagedStills.write(DamagedStills.bilevelPNG(width: width, height: height) { x, _ in x > width / 3 && x < 2 * width / 3 },
                                        to: path)
            default:
                var image = RGBAImage(width: width, height: height, color: Self.colour)
                for y in 0..<height { for x in 0..<(width / 3) { Fixture.set(&image, x, y, .black) } }
                try StillWriter.write(image, to: path, format: .jpeg)
                if kind == "turned" {
                    // An EXIF "turn 90° clockwise": seen 9 wide and 4001 tall.
                    let plain = try DamagedStills.read(path)
                    let payload = Array("Exif".utf8) + [0, 0] + StillDecoderOrientationTests.exifTIFF(6)
                    let segment: [UInt8] = [0xFF, 0xE1, 0, UInt8(payload.count + 2)] + payload
                    try DamagedStills.write(Array(plain.prefix(2)) + segment + plain.dropFirst(2), to: path)
                }
            }
            let frame = kind == "turned" ? (36, 64) : (64, 36)
            let covered = try StillDecoder.load(path: path, width: frame.0, height: frame.1, fit: .cover, background: .black)
            let expected = kind == "bilevel" ? RGBAColor(red: 255, green: 255, blue: 255) : Self.colour
            for (x, y) in [(0, 0), (frame.0 - 1, frame.1 - 1), (frame.0 / 2, frame.1 / 2)] {
                #expect(isClose(covered[x, y], expected, within: kind == "bilevel" ? 0 : 12), "\(kind) at (\(x), \(y)): \(covered[x, y])")
            }
        }
    }

    @Test("a side shrunk more than libswscale keeps colours through (about 42:1) is shrunk in steps, colours kept",
          arguments: [(65535, 1, 1, 1), (6400, 3600, 64, 36), (1, 200, 1, 2), (2, 30000, 1, 180), (3000, 2000, 30, 20)])
    func shrunkInSteps(_ sizes: (Int, Int, Int, Int)) throws {
        try withTemporaryDirectory { dir in
            let path = "\(dir)/flat.png"
            try StillWriter.write(RGBAImage(width: sizes.0, height: sizes.1, color: Self.colour), to: path, format: .png)
            let picture = try StillDecoder.decodeFirstFrame(path: path, isCancelled: { false })
            let shrunk = try StillDecoder.convertToRGBA(picture, width: sizes.2, height: sizes.3, path: path)
            let centre = shrunk[sizes.2 / 2, sizes.3 / 2]
            #expect(isClose(centre, Self.colour, within: 1), "\(sizes): \(centre)")
        }
    }
}

@Suite("StillDecoder determinism at odd widths")
struct OddWidthTests {
    /// An odd-width picture in `format` with a colour ramp, whatever lies past its rows'
    /// ends (the padding a decoder leaves unwritten) set to `garbage`.
    static func picture(_ format: AVPixelFormat, width: Int, height: Int, garbage: UInt8) throws -> Frame {
        let frame = try Frame(subject: "test")
        frame.pointer.pointee.format = format.rawValue
        frame.pointer.pointee.width = Int32(width)
        frame.pointer.pointee.height = Int32(height)
        frame.pointer.pointee.color_range = AVCOL_RANGE_JPEG
        try frame.allocateBuffer(subject: "test")
        let planes = frame.planes(count: 2)
        let bytesPerPixel = format == AV_PIX_FMT_RGB24 ? 3 : format == AV_PIX_FMT_RGBA ? 4 : 1
        for y in 0..<height {
            let row = planes.data[0]! + y * Int(planes.strides[0])
            for i in 0..<Int(planes.strides[0]) {
                row[i] = i < width * bytesPerPixel ? UInt8(truncatingIfNeeded: i * 7 + y * 13) : garbage
            }
        }
        if format == AV_PIX_FMT_PAL8, let palette = planes.data[1] {
            for i in 0..<1024 { palette[i] = i % 4 == 3 ? 255 : UInt8(truncatingIfNeeded: i * 5) }
        }
        return frame
    }

    @Test("an odd-width picture shrunk 2:1 or more scales to the same bytes whatever lies past its rows",
          arguments: [AV_PIX_FMT_RGB24, AV_PIX_FMT_RGBA, AV_PIX_FMT_PAL8])
    func padding(_ format: AVPixelFormat) throws {
        for (width, target) in [(333, 100), (9, 2), (41, 1), (1639, 41)] {
            let a = try StillDecoder.convertToRGBA(try Self.picture(format, width: width, height: 4, garbage: 0), width: target, height: 2, path: "test")
            let b = try StillDecoder.convertToRGBA(try Self.picture(format, width: width, height: 4, garbage: 0xFF), width: target, height: 2, path: "test")
            #expect(a.pixels == b.pixels, "\(pixelFormatName(format)) \(width) to \(target)")
        }
    }
}
