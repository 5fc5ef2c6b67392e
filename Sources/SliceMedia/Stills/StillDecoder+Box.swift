// A picture placed in a layer's box (a logo): any still slicevid reads, colour-managed as stills
// are, scaled to fit inside the box (contain) and centred, with transparent margins, alpha
// premultiplied: what is composed over a card or frame.

import SliceKit

extension StillDecoder {
    /// The still at `path` fitted inside a `width` × `height` box.
    ///
    /// The still takes the 16-bit way (`StillDecoder+Deep.swift`): its colours converted to
    /// sRGB from its profile or tags, its colour premultiplied before scaling so transparent
    /// pixels lend their neighbours nothing, and the aspect ratio kept; the uncovered part of
    /// the box is transparent.
    /// - Returns: exactly `width` × `height`, 16-bit R, G, B and A, colour premultiplied by alpha.
    /// - Throws: `MediaError`: `.inputMissing` or `.inputInvalid` naming the file, as `load` does;
    ///   `.inputInvalid` for a box outside 1 … `TextLayer.maxSide` pixels a side.
    package static func loadInBox(path: String, width: Int, height: Int,
                                  isCancelled: @escaping @Sendable () -> Bool = { false }) throws(MediaError) -> RGBA16Image {
        guard (1...TextLayer.maxSide).contains(width), (1...TextLayer.maxSide).contains(height) else {
            throw MediaError(.inputInvalid, subject: path, message: "cannot be placed in a \(width)x\(height) px box; each side must be 1 to \(TextLayer.maxSide) px")
        }
        let still = try decode(path: path, raster: Raster(frame: (width, height), fit: .contain), isCancelled: isCancelled)
        let transparent = RGBAColor(red: 0, green: 0, blue: 0, alpha: 0)
        let placed = switch try fitted(still, path: path, frame: (width, height), fit: .contain, background: transparent,
                                       focus: .centre, deep: true) {
        case .deep(let image): image
        case .rgba(let image): RGBA16Image(expanding: image, alpha: true)
        }
        // Over a transparent background the picture comes back with straight alpha, or without an
        // alpha plane when it is opaque and fills the box exactly.
        let picture: RGBA16Image
        if placed.hasAlpha {
            picture = placed
        } else {
            picture = RGBA16Image(width: width, height: height, hasAlpha: true)
            for c in 0..<3 {
                for y in 0..<height { picture.row(c, y).update(from: placed.row(c, y), count: width) }
            }
            for y in 0..<height { picture.row(3, y).update(repeating: 65535, count: width) }
        }
        picture.premultiply()
        return picture
    }
}
