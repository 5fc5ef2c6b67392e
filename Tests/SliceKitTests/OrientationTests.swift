// The eight EXIF orientations turn a picture the way the EXIF specification describes, and a
// display matrix maps onto them.

import SliceKit
import Testing

@Suite("Orientation")
struct OrientationTests {
    /// A 3 × 2 picture whose pixels are numbered 0…5 in reading order (red channel):
    ///     0 1 2
    ///     3 4 5
    static let numbered: RGBAImage = {
        var image = RGBAImage(width: 3, height: 2)
        for i in 0..<6 { image.pixels[4 * i] = UInt8(i) }
        return image
    }()

    static func rows(_ image: RGBAImage) -> [[Int]] {
        (0..<image.height).map { y in (0..<image.width).map { x in Int(image[x, y].red) } }
    }

    // What a viewer shows for each tag, read off the EXIF 2.3 table ("0th row is the visual
    // top/bottom/left/right, 0th column is …").
    @Test("each EXIF value turns the picture upright", arguments: [
        (1, [[0, 1, 2], [3, 4, 5]]),
        (2, [[2, 1, 0], [5, 4, 3]]),
        (3, [[5, 4, 3], [2, 1, 0]]),
        (4, [[3, 4, 5], [0, 1, 2]]),
        (5, [[0, 3], [1, 4], [2, 5]]),
        (6, [[3, 0], [4, 1], [5, 2]]),
        (7, [[5, 2], [4, 1], [3, 0]]),
        (8, [[2, 5], [1, 4], [0, 3]]),
    ])
    func exif(value: Int, expected: [[Int]]) throws {
        let orientation = try #require(Orientation(exif: value))
        let turned = orientation.apply(to: Self.numbered)
        #expect(Self.rows(turned) == expected, "\(orientation)")
        #expect(orientation.exifValue == value)
        #expect(orientation.turnedSize(width: 3, height: 2) == (turned.width, turned.height))
    }

    @Test("values outside 1…8 are no orientation")
    func outOfRange() {
        #expect(Orientation(exif: 0) == nil)
        #expect(Orientation(exif: 9) == nil)
    }

    // The matrices libavutil's av_display_rotation_set / av_display_matrix_flip produce for the
    // tags (16.16 fixed point), as FFmpeg's JPEG decoder attaches them.
    @Test("display matrices map to the orientations", arguments: [
        (Int32(65536), Int32(0), Int32(0), Int32(65536), 1),
        (-65536, 0, 0, 65536, 2),
        (-65536, 0, 0, -65536, 3),
        (65536, 0, 0, -65536, 4),
        (0, 65536, 65536, 0, 5),
        (0, 65536, -65536, 0, 6),
        (0, -65536, -65536, 0, 7),
        (0, -65536, 65536, 0, 8),
    ])
    func matrix(a: Int32, b: Int32, c: Int32, d: Int32, exif: Int) {
        #expect(Orientation(matrix: a, b, c, d) == Orientation(exif: exif))
    }

    @Test("a free rotation or a degenerate matrix is not an orientation")
    func notAnOrientation() {
        // 45°: every entry non-zero.
        #expect(Orientation(matrix: 46341, -46341, 46341, 46341) == nil)
        #expect(Orientation(matrix: 0, 0, 0, 0) == nil)
        #expect(Orientation(matrix: 65536, 65536, 0, 0) == nil)
    }
}
