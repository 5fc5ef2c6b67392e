// The planar pixel layouts the compositor renders into. Every layout is planar 8-bit, so one
// strip-copy routine serves them all; only plane sizes and fill values differ.

/// A planar 8-bit pixel layout. Names follow FFmpeg's pixel formats.
package enum PixelLayout: String, Sendable, CaseIterable {
    /// Y, U, V; chroma halved in both directions. What players expect.
    case yuv420p
    /// Y, U, V, A; chroma halved, full-size alpha.
    case yuva420p
    /// Y, U, V at full resolution.
    case yuv444p
    /// G, B, R planes (FFmpeg's order), for RGB outputs such as PNG.
    case gbrp
    /// G, B, R, A planes.
    case gbrap

    /// Number of planes.
    package var planeCount: Int {
        switch self {
        case .yuv420p, .yuv444p, .gbrp: 3
        case .yuva420p, .gbrap: 4
        }
    }

    /// Whether the layout carries an alpha plane.
    package var hasAlpha: Bool { planeCount == 4 }

    /// log2 of the horizontal and vertical subsampling of `plane`.
    package func subsampling(ofPlane plane: Int) -> (x: Int, y: Int) {
        switch self {
        case .yuv420p, .yuva420p: (plane == 1 || plane == 2) ? (1, 1) : (0, 0)
        case .yuv444p, .gbrp, .gbrap: (0, 0)
        }
    }

    /// The size of `plane` for a picture of `width` × `height` (rounded up, as FFmpeg does).
    package func planeSize(_ plane: Int, width: Int, height: Int) -> (width: Int, height: Int) {
        let s = subsampling(ofPlane: plane)
        return ((width + (1 << s.x) - 1) >> s.x, (height + (1 << s.y) - 1) >> s.y)
    }

    /// The byte each plane holds for a solid `color`.
    package func fillValues(for color: RGBAColor) -> [UInt8] {
        switch self {
        case .yuv420p, .yuv444p, .yuva420p:
            let ycc = color.bt709LimitedYCbCr
            return Array([ycc.y, ycc.cb, ycc.cr, color.alpha].prefix(planeCount))
        case .gbrp, .gbrap:
            return Array([color.green, color.blue, color.red, color.alpha].prefix(planeCount))
        }
    }
}
