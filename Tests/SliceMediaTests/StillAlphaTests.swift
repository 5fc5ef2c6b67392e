// Clean alpha edges: a translucent still is scaled premultiplied, so the colour hidden under
// fully transparent pixels never tints its edges; it is composited over an opaque background,
// or un-premultiplied for outputs that keep alpha.

import CFFmpeg
import Foundation
import SliceKit
import StillFixtures
import Testing
@testable import SliceMedia

@Suite("Alpha edges")
struct StillAlphaTests {
    /// A disc of `colour` (white unless told) on transparent red: red under alpha 0, the colour
    /// that used to bleed.
    static func disc(size: Int = 512, colour: RGBAColor = RGBAColor(red: 255, green: 255, blue: 255)) -> RGBAImage {
        var image = RGBAImage(width: size, height: size, color: RGBAColor(red: 255, green: 0, blue: 0, alpha: 0))
        let centre = Double(size) / 2, radius = Double(size) * 0.4
        for y in 0..<size {
            for x in 0..<size {
                let dx = Double(x) + 0.5 - centre, dy = Double(y) + 0.5 - centre
                if dx * dx + dy * dy < radius * radius { Fixture.set(&image, x, y, colour) }
            }
        }
        return image
    }

    /// The disc scaled to `size` in premultiplied float with the same filter, composited over
    /// `background` in doubles: what every pixel should be.
    static func reference(_ disc: RGBAImage, size: Int, over background: RGBAColor) throws -> [RGBAColor] {
        let count = disc.width * disc.height
        // Premultiplied planes G, B, R, A, one buffer each.
        let planes = (0..<4).map { _ in UnsafeMutableBufferPointer<Float>.allocate(capacity: count + 64) }
        let scaled = (0..<4).map { _ in UnsafeMutableBufferPointer<Float>.allocate(capacity: size * size + 64) }
        defer { (planes + scaled).forEach { $0.deallocate() } }
        (planes + scaled).forEach { $0.initialize(repeating: 0) }
        for i in 0..<count {
            let a = Float(disc.pixels[4 * i + 3]) / 255
            for c in 0..<3 { planes[c][i] = Float(disc.pixels[4 * i + [1, 2, 0][c]]) / 255 * a }
            planes[3][i] = a
        }
        let scaler = try Scaler(from: (disc.width, disc.height, AV_PIX_FMT_GBRAPF32LE, .rgb), to: (size, size, AV_PIX_FMT_GBRAPF32LE, .rgb),
                                flags: SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT)
        func bytes(_ plane: UnsafeMutableBufferPointer<Float>) -> UnsafeMutablePointer<UInt8> {
            UnsafeMutableRawPointer(plane.baseAddress!).assumingMemoryBound(to: UInt8.self)
        }
        try scaler.scale(PlanePointers(data: planes.map(bytes), strides: [Int32](repeating: Int32(4 * disc.width), count: 4)),
                         into: PlanePointers(data: scaled.map(bytes), strides: [Int32](repeating: Int32(4 * size), count: 4)))
        let under = [background.green, background.blue, background.red].map { Double($0) / 255 }
        return (0..<(size * size)).map { i in
            let a = min(1, max(0, Double(scaled[3][i])))
            let v = (0..<3).map { c in UInt8(max(0, min(255, ((min(Double(scaled[c][i]), a) + under[c] * (1 - a)) * 255).rounded()))) }
            return RGBAColor(red: v[2], green: v[0], blue: v[1])
        }
    }

    /// The disc's colour: its red is well below 255, so capping colour at alpha after scaling
    /// cannot hide red bleeding in from the transparent pixels (a white disc would).
    static let teal = RGBAColor(red: 40, green: 220, blue: 120)

    @Test("a teal disc scaled 4:1 over #0000ff is within 3 levels of the premultiplied reference at every pixel", arguments: [PixelLayout.gbrp, .gbrp16])
    func discOverBlue(layout: PixelLayout) throws {
        try withTemporaryDirectory { dir in
            let disc = Self.disc(colour: Self.teal), blue = RGBAColor(red: 0, green: 0, blue: 255)
            let path = "\(dir)/disc.png"
            try FixtureFiles.write(disc, to: path, alpha: true)
            let shown = try StillDecoder.loadPlanar(path: path, width: 128, height: 128, fit: .cover, background: blue, layout: layout)
            let reference = try Self.reference(disc, size: 128, over: blue)
            var worst = 0, edges = 0
            for y in 0..<128 {
                for x in 0..<128 {
                    let expected = reference[y * 128 + x]
                    let got = [2, 0, 1].map { shown.sample(plane: $0, x: x, y: y) / (layout.isDeep ? 257 : 1) }
                    if expected != blue && expected != Self.teal { edges += 1 }
                    worst = max(worst, abs(got[0] - Int(expected.red)), abs(got[1] - Int(expected.green)), abs(got[2] - Int(expected.blue)))
                }
            }
            #expect(edges > 100, "the disc has an edge")
            #expect(worst <= 3, "largest difference \(worst) levels in \(layout)")
        }
    }

    @Test("kept alpha: edge pixels of a white disc are white; no pixel carries the red hidden under alpha 0")
    func transparentOutputs() throws {
        try withTemporaryDirectory { dir in
            let path = "\(dir)/disc.png"
            try FixtureFiles.write(Self.disc(), to: path, alpha: true)
            let shown = try StillDecoder.load(path: path, width: 128, height: 128, fit: .cover,
                                              background: RGBAColor(red: 0, green: 0, blue: 0, alpha: 0))
            var weighted = [0.0, 0.0, 0.0], weight = 0.0
            for y in 0..<128 {
                for x in 0..<128 {
                    let p = shown[x, y]
                    // Transparent pixels keep the disc's white (a sliver of alpha under 8 bits) or black.
                    if p.alpha == 0 { #expect(p.red == p.green && p.green == p.blue, "\(p) at \(x),\(y)") }
                    guard p.alpha > 0 && p.alpha < 255 else { continue }
                    let a = Double(p.alpha)
                    weighted[0] += a * Double(p.red); weighted[1] += a * Double(p.green); weighted[2] += a * Double(p.blue)
                    weight += a
                }
            }
            #expect(weight > 0)
            // Straight scaling averaged 186 here: transparent red pulled the edges down.
            for channel in weighted { #expect(channel / weight >= 250, "alpha-weighted edge colour \(weighted.map { $0 / weight })") }
        }
    }

    @Test("an RGBA PNG whose alpha is all opaque takes the plain 8-bit way: the bytes of its RGB twin")
    func opaqueAlphaIsPlain() throws {
        try withTemporaryDirectory { dir in
            let picture = Fixture.noise(width: 40, height: 24)
            try FixtureFiles.write(picture, to: "\(dir)/rgb.png")
            try FixtureFiles.write(picture, to: "\(dir)/rgba.png", alpha: true)
            let a = try StillDecoder.load(path: "\(dir)/rgb.png", width: 30, height: 18, fit: .cover, background: .black)
            let b = try StillDecoder.load(path: "\(dir)/rgba.png", width: 30, height: 18, fit: .cover, background: .black)
            #expect(a == b)
        }
    }

    @Test("an RGB crop converted in bands of 7 rows gives the samples of one whole pass (P3 profile, translucent)")
    func bandsAreExact() throws {
        try withTemporaryDirectory { dir in
            let path = "\(dir)/disc.png"
            try FixtureFiles.write(Self.disc(size: 50, colour: Self.teal), to: path, alpha: true, profile: TestProfiles.displayP3)
            let still = try StillDecoder.decode(path: path, isCancelled: { false })
            let conversion = try StillDecoder.conversion(for: still, path: path)
            #expect(conversion != nil)
            let whole = try StillDecoder.deepScaled(still.picture, conversion: conversion, translucent: true, premultiplied: false,
                                                    width: 20, height: 20, path: path, bandRows: .max)
            let banded = try StillDecoder.deepScaled(still.picture, conversion: conversion, translucent: true, premultiplied: false,
                                                     width: 20, height: 20, path: path, bandRows: 7)
            let same = (0..<4).allSatisfy { c in (0..<20).allSatisfy { y in (0..<20).allSatisfy { x in whole.row(c, y)[x] == banded.row(c, y)[x] } } }
            #expect(same)
        }
    }
}
