// Shared fixtures for the media tests: temporary directories, synthetic pictures, and the
// error measures the tests compare decoded pixels with.

import Foundation
import SliceKit
import SliceMedia
import StillFixtures

/// Runs `body` with a fresh, empty directory that is removed afterwards, however `body` ends.
/// FFmpeg's logging is silenced first so test output holds only test results, and the built
/// slicevid is made the decode helper (SVG, HEIC, AVIF and JPEG XL decode in one).
func withTemporaryDirectory<R>(_ body: (String) throws -> R) throws -> R {
    FFmpegLog.configure(verbose: false)
    useBuiltDecodeHelper()
    let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("SliceMediaTests-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try body(path)
}

/// Makes the slicevid built with the tests the decode helper of this test process.
func useBuiltDecodeHelper() {
    if DecodeHelper.executable == nil { DecodeHelper.executable = BuiltSlicevid.path }
}

/// Synthetic pictures with known colours.
enum Fixture {
    /// Eight colours far apart from each other, so lossy codecs cannot confuse them.
    static let palette: [RGBAColor] = [
        RGBAColor(red: 230, green: 30, blue: 40), RGBAColor(red: 30, green: 200, blue: 60),
        RGBAColor(red: 40, green: 60, blue: 220), RGBAColor(red: 240, green: 220, blue: 40),
        RGBAColor(red: 30, green: 210, blue: 220), RGBAColor(red: 200, green: 40, blue: 210),
        RGBAColor(red: 245, green: 245, blue: 245), RGBAColor(red: 20, green: 20, blue: 20),
    ]

    /// A grid of `columns` × `rows` solid blocks coloured from `palette`, row by row.
    static func blocks(width: Int, height: Int, columns: Int = 4, rows: Int = 2) -> RGBAImage {
        var image = RGBAImage(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let block = (y * rows / height) * columns + x * columns / width
                set(&image, x, y, palette[block % palette.count])
            }
        }
        return image
    }

    /// Vertical bands, left to right, each `width` pixels wide.
    static func bands(height: Int, _ bands: [(color: RGBAColor, width: Int)]) -> RGBAImage {
        var image = RGBAImage(width: bands.reduce(0) { $0 + $1.width }, height: height)
        var x0 = 0
        for band in bands {
            for y in 0..<height {
                for x in x0..<(x0 + band.width) { set(&image, x, y, band.color) }
            }
            x0 += band.width
        }
        return image
    }

    /// Seeded noise: every pixel independent, so compressed files are mostly picture data.
    static func noise(width: Int, height: Int, seed: UInt64 = 7) -> RGBAImage {
        var generator = SplitMix64(seed: seed)
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for i in 0..<(width * height) {
            let bits = generator.next()
            pixels[4 * i] = UInt8(truncatingIfNeeded: bits)
            pixels[4 * i + 1] = UInt8(truncatingIfNeeded: bits >> 8)
            pixels[4 * i + 2] = UInt8(truncatingIfNeeded: bits >> 16)
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    /// Frame `index` of a short clip: the block grid with a white bar moving right.
    static func movingBar(width: Int, height: Int, index: Int) -> RGBAImage {
        var image = blocks(width: width, height: height)
        let x0 = (index * 4) % (width - 8)
        for y in 0..<height {
            for x in x0..<(x0 + 8) { set(&image, x, y, RGBAColor(red: 255, green: 255, blue: 255)) }
        }
        return image
    }

    static func set(_ image: inout RGBAImage, _ x: Int, _ y: Int, _ color: RGBAColor) {
        let i = 4 * (y * image.width + x)
        image.pixels[i] = color.red
        image.pixels[i + 1] = color.green
        image.pixels[i + 2] = color.blue
        image.pixels[i + 3] = color.alpha
    }
}

/// Mean absolute difference of the R, G and B samples of two same-sized pictures.
func meanAbsoluteError(_ a: RGBAImage, _ b: RGBAImage) -> Double {
    precondition(a.width == b.width && a.height == b.height)
    var total = 0
    for i in 0..<(a.width * a.height) {
        for c in 0..<3 { total += abs(Int(a.pixels[4 * i + c]) - Int(b.pixels[4 * i + c])) }
    }
    return Double(total) / Double(a.width * a.height * 3)
}

/// Mean absolute difference over every sample of every plane of two same-shaped images.
func meanAbsoluteError(_ a: PlanarImage, _ b: PlanarImage) -> Double {
    precondition(a.width == b.width && a.height == b.height && a.layout == b.layout)
    var total = 0, count = 0
    for (pa, pb) in zip(a.planes, b.planes) {
        for y in 0..<pa.height {
            for x in 0..<pa.width { total += abs(Int(pa.row(y)[x]) - Int(pb.row(y)[x])) }
        }
        count += pa.width * pa.height
    }
    return Double(total) / Double(count)
}

/// Peak signal-to-noise ratio in dB of one plane of two same-shaped images (∞ when equal).
func psnr(_ a: PlanarImage, _ b: PlanarImage, plane p: Int) -> Double {
    let pa = a.planes[p], pb = b.planes[p]
    var squares = 0.0
    for y in 0..<pa.height {
        for x in 0..<pa.width {
            let d = Double(pa.row(y)[x]) - Double(pb.row(y)[x])
            squares += d * d
        }
    }
    let mse = squares / Double(pa.width * pa.height)
    return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
}

/// Whether two colours differ by at most `tolerance` in each of R, G, B.
func isClose(_ a: RGBAColor, _ b: RGBAColor, within tolerance: Int) -> Bool {
    abs(Int(a.red) - Int(b.red)) <= tolerance && abs(Int(a.green) - Int(b.green)) <= tolerance
        && abs(Int(a.blue) - Int(b.blue)) <= tolerance
}

/// The top-level box types of an ISO-BMFF (MP4) file, in file order.
func topLevelAtoms(of data: Data) -> [String] {
    let bytes = [UInt8](data)
    var atoms: [String] = []
    var offset = 0
    while offset + 8 <= bytes.count {
        var size = bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
        let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
        if size == 1, offset + 16 <= bytes.count {
            size = bytes[(offset + 8)..<(offset + 16)].reduce(0) { $0 << 8 | Int($1) }
        } else if size == 0 {
            size = bytes.count - offset
        }
        atoms.append(type)
        guard size >= 8 else { break }
        offset += size
    }
    return atoms
}
