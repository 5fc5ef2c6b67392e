// Reading rendered text layers back for the text tests: samples, where the ink is, the
// columns that hold ink, and fonts the tests lay out with.

import Foundation
import SliceKit
@testable import SliceMedia

/// Font files the text tests name: from the default set's packages, and DejaVu (fontconfig's
/// own dependency) as "another font the machine has".
enum TestFonts {
    static let notoSans = "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf"
    static let notoSansBold = "/usr/share/fonts/truetype/noto/NotoSans-Bold.ttf"
    static let notoArabic = "/usr/share/fonts/truetype/noto/NotoSansArabic-Regular.ttf"
    static let notoHebrew = "/usr/share/fonts/truetype/noto/NotoSansHebrew-Regular.ttf"
    static let dejaVuFolder = "/usr/share/fonts/truetype/dejavu"
    static let dejaVu = dejaVuFolder + "/DejaVuSans.ttf"
}

/// A rectangle of pixels, x1 and y1 exclusive.
struct PixelBounds: Equatable, CustomStringConvertible {
    var x0: Int, y0: Int, x1: Int, y1: Int
    var width: Int { x1 - x0 }
    var height: Int { y1 - y0 }
    var description: String { "x \(x0)..<\(x1), y \(y0)..<\(y1)" }
}

extension RGBA16Image {
    /// Sample `c` (0 R, 1 G, 2 B, 3 A) at (x, y).
    func sample(_ c: Int, _ x: Int, _ y: Int) -> UInt16 { row(c, y)[x] }

    /// R, G, B, A at (x, y) in 8 bits (rounded), premultiplied as stored.
    func pixel8(_ x: Int, _ y: Int) -> [UInt8] { (0..<4).map { RGBA16Image.eightBit(sample($0, x, y)) } }

    /// The smallest rectangle holding every pixel whose alpha is above `threshold`; nil when none is.
    func inkBounds(above threshold: UInt16 = 0) -> PixelBounds? {
        var bounds: PixelBounds?
        for y in 0..<height {
            let alpha = row(3, y)
            for x in 0..<width where alpha[x] > threshold {
                if var b = bounds {
                    b.x0 = min(b.x0, x); b.x1 = max(b.x1, x + 1); b.y0 = min(b.y0, y); b.y1 = max(b.y1, y + 1)
                    bounds = b
                } else {
                    bounds = PixelBounds(x0: x, y0: y, x1: x + 1, y1: y + 1)
                }
            }
        }
        return bounds
    }

    /// Whether column `x` holds any alpha.
    func columnHasInk(_ x: Int) -> Bool { (0..<height).contains { row(3, $0)[x] > 0 } }

    /// Every sample of every plane, row by row: two renders are the same bytes when these are equal.
    var samples: [UInt16] {
        var all: [UInt16] = []
        all.reserveCapacity(planes.count * width * height)
        for c in 0..<planes.count {
            for y in 0..<height { all.append(contentsOf: UnsafeBufferPointer(start: row(c, y), count: width)) }
        }
        return all
    }

    /// Whether every colour sample is at most its pixel's alpha (premultiplied colour).
    var isPremultiplied: Bool {
        for y in 0..<height {
            for c in 0..<3 {
                for x in 0..<width where row(c, y)[x] > row(3, y)[x] { return false }
            }
        }
        return true
    }
}

/// A one-line white-on-transparent layer in the default fonts, at a fixed size.
func plainLayer(_ text: String, width: Int = 600, height: Int = 120, size: Double = 48,
                alignment: TextLayer.Alignment = .start) -> TextLayer {
    TextLayer(name: "test", text: text, width: width, height: height, size: .pixels(size), alignment: alignment)
}
