// The blur of a text shadow: three box blurs, across and down, whose widths approximate a
// Gaussian of the asked standard deviation. Integer sums and rounding only, so a shadow comes
// out the same to the bit on every machine.

/// A Gaussian blur approximated by three box blurs (Kovesi's widths).
struct ShadowBlur: Equatable {
    /// The radius of each box: a box of radius r averages 2r + 1 pixels.
    let radii: [Int]

    /// The boxes for a Gaussian of standard deviation `sigma` pixels (0 … 512, checked by the
    /// caller); all radii 0 (no blur) below about 0.8.
    init(sigma: Double) {
        let passes = 3.0
        let variance12 = 12 * sigma * sigma
        var lower = Int((variance12 / passes + 1).squareRoot())
        if lower % 2 == 0 { lower -= 1 }
        lower = max(1, lower)
        let l = Double(lower)
        let wide = ((variance12 - passes * l * l - 4 * passes * l - 3 * passes) / (-4 * l - 4)).rounded()
        radii = (0..<3).map { Double($0) < wide ? (lower - 1) / 2 : (lower + 1) / 2 }
    }

    /// How far the blur spreads coverage beyond where it was, in pixels.
    var reach: Int { radii.reduce(0, +) }

    /// `plane` (`width` × `height`, row-major) blurred; what lies outside counts as uncovered.
    func apply(to plane: [UInt16], width: Int, height: Int) -> [UInt16] {
        guard reach > 0 else { return plane }
        var current = plane
        var line = [UInt32](repeating: 0, count: max(width, height))
        for radius in radii where radius > 0 {
            current.withUnsafeMutableBufferPointer { samples in
                line.withUnsafeMutableBufferPointer { scratch in
                    for y in 0..<height { Self.box(samples.baseAddress! + y * width, step: 1, count: width, radius: radius, scratch) }
                    for x in 0..<width { Self.box(samples.baseAddress! + x, step: width, count: height, radius: radius, scratch) }
                }
            }
        }
        return current
    }

    /// One box blur along `count` samples `step` apart, in place (the originals are kept in
    /// `scratch` first): each becomes the rounded mean of the 2 × `radius` + 1 around it.
    private static func box(_ samples: UnsafeMutablePointer<UInt16>, step: Int, count: Int, radius: Int,
                            _ scratch: UnsafeMutableBufferPointer<UInt32>) {
        for i in 0..<count { scratch[i] = UInt32(samples[i * step]) }
        let span = UInt32(2 * radius + 1)
        var sum: UInt32 = 0
        for i in 0..<min(radius, count) { sum &+= scratch[i] }
        for i in 0..<count {
            if i + radius < count { sum &+= scratch[i + radius] }
            if i - radius - 1 >= 0 { sum &-= scratch[i - radius - 1] }
            samples[i * step] = UInt16((sum &+ span / 2) / span)
        }
    }
}
