// StillWriter and StillDecoder together: every still format survives a write-and-decode round
// trip at the same size with its colours intact.

import Foundation
import SliceKit
import SliceMedia
import Testing

@Suite("StillWriter round trips")
struct StillWriterTests {
    /// The largest mean absolute error (0–255 per sample) each format may introduce.
    static func tolerance(_ format: StillFormat) -> Double {
        switch format {
        case .png, .bmp, .tiff: 0
        case .jpeg: 3
        case .webp: 6
        }
    }

    @Test("write then decode at the same size keeps the picture", arguments: StillFormat.allCases)
    func roundTrip(format: StillFormat) throws {
        let image = Fixture.blocks(width: 64, height: 32)
        try withTemporaryDirectory { dir in
            let path = "\(dir)/still.\(format.rawValue)"
            try StillWriter.write(image, to: path, format: format)
            let decoded = try StillDecoder.load(path: path, width: 64, height: 32, fit: .cover, background: .black)
            #expect(decoded.width == 64 && decoded.height == 32)
            let error = meanAbsoluteError(image, decoded)
            #expect(error <= Self.tolerance(format), "\(format): mean absolute error \(error)")
            // The centre of every block keeps its colour, even through lossy codecs.
            for row in 0..<2 {
                for column in 0..<4 {
                    let x = column * 16 + 8, y = row * 16 + 8
                    #expect(isClose(decoded[x, y], image[x, y], within: 12),
                            "\(format): block (\(column), \(row)) is \(decoded[x, y]), wrote \(image[x, y])")
                }
            }
            #expect(decoded.pixels.enumerated().allSatisfy { $0.offset % 4 != 3 || $0.element == 255 },
                    "\(format): decoded picture is not opaque")
        }
    }

    @Test("writing replaces an existing file")
    func replaces() throws {
        try withTemporaryDirectory { dir in
            let path = "\(dir)/still.png"
            try StillWriter.write(Fixture.noise(width: 96, height: 54), to: path, format: .png)
            let red = RGBAImage(width: 32, height: 18, color: RGBAColor(red: 255, green: 0, blue: 0))
            try StillWriter.write(red, to: path, format: .png)
            let decoded = try StillDecoder.load(path: path, width: 32, height: 18, fit: .cover, background: .black)
            #expect(decoded == red)
        }
    }

    @Test("translucent PNG pixels are blended over the background")
    func translucentOverBackground() throws {
        let half = RGBAImage(width: 32, height: 18, color: RGBAColor(red: 255, green: 255, blue: 255, alpha: 128))
        try withTemporaryDirectory { dir in
            let path = "\(dir)/half.png"
            try StillWriter.write(half, to: path, format: .png)
            let decoded = try StillDecoder.load(path: path, width: 32, height: 18, fit: .cover, background: .black)
            // 255 × 128/255 over black = 128.
            #expect(decoded[16, 9] == RGBAColor(red: 128, green: 128, blue: 128))
        }
    }

    @Test("a directory that does not exist is an output error naming the path")
    func unwritable() throws {
        try withTemporaryDirectory { dir in
            let path = "\(dir)/missing/still.png"
            let error = #expect(throws: MediaError.self) {
                try StillWriter.write(Fixture.blocks(width: 32, height: 18), to: path, format: .png)
            }
            #expect(error?.kind == .output)
            #expect(error?.subject == path)
        }
    }
}
