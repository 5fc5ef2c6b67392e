// The 100-megapixel limit is ours, exactly: a 10000x10000 still is decoded (FFmpeg's own
// max_pixels counts the width rounded up for alignment, which alone would refuse it), one
// pixel more is refused naming the limit.

import Foundation
import SliceKit
@testable import SliceMedia
import Testing

@Suite(.serialized) struct StillPixelLimitTests {
    /// A 1-bit PNG, white left half: small on disk and decoded, so the test stays light.
    private func bilevel(width: Int, height: Int, in dir: String) throws -> String {
        let path = dir + "/\(width)x\(height).png"
        try DamagedStills.write(DamagedStills.bilevelPNG(width: width, height: height) { x, _ in x < width / 2 }, to: path)
        return path
    }

    @Test func exactlyOneHundredMegapixelsIsDecoded() throws {
        try withTemporaryDirectory { dir in
            let path = try bilevel(width: 10_000, height: 10_000, in: dir)
            let image = try StillDecoder.load(path: path, width: 64, height: 64, fit: .contain, background: RGBAColor(red: 0, green: 0, blue: 255))
            #expect(image.width == 64 && image.height == 64)
            // White on the left, black on the right, nothing of the blue background.
            #expect(image.pixels[4 * (32 * 64 + 4)] == 255 && image.pixels[4 * (32 * 64 + 60)] == 0)
            #expect(image.pixels[4 * (32 * 64 + 60) + 2] == 0)
        }
    }

    @Test func onePixelRowMoreIsRefusedNamingTheLimit() throws {
        try withTemporaryDirectory { dir in
            let path = try bilevel(width: 10_000, height: 10_001, in: dir)
            do throws(MediaError) {
                _ = try StillDecoder.load(path: path, width: 64, height: 64, fit: .contain, background: RGBAColor(red: 0, green: 0, blue: 0))
                Issue.record("a still over 100 megapixels was decoded")
            } catch {
                #expect(error.kind == .inputInvalid)
                #expect(error.message.contains("10000x10001 pixels") && error.message.contains("100 megapixels"), "\(error.message)")
            }
        }
    }
}
