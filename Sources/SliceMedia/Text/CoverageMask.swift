// How much of each pixel a text layer's glyphs, outline, shadow or plate cover: what Cairo
// draws (8 bits, grey antialiasing), before any colour is applied. Colours are applied in
// 16 bits afterwards, so one drawing serves 8-bit and 16-bit renders alike.

import CText

/// An 8-bit coverage mask (0 uncovered … 255 covered) in Cairo's A8 layout: rows `stride`
/// bytes apart.
struct CoverageMask: Sendable {
    let width: Int
    let height: Int
    let stride: Int
    var bytes: [UInt8]

    /// An uncovered mask.
    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        stride = Int(slicevid_text_mask_stride(Int32(width)))
        bytes = [UInt8](repeating: 0, count: stride * height)
    }

    /// The coverage at (x, y).
    subscript(x: Int, y: Int) -> UInt8 { bytes[y * stride + x] }

    /// The coverage in 16 bits (× 257, so 255 is 65535), row-major without padding.
    func wide() -> [UInt16] {
        var result = [UInt16](repeating: 0, count: width * height)
        bytes.withUnsafeBufferPointer { source in
            result.withUnsafeMutableBufferPointer { target in
                for y in 0..<height {
                    let from = source.baseAddress! + y * stride, to = target.baseAddress! + y * width
                    for x in 0..<width { to[x] = UInt16(from[x]) &* 257 }
                }
            }
        }
        return result
    }

    /// Covers `rectangle` (corners rounded to `radius`), antialiased at fractional edges.
    mutating func fillRectangle(_ rectangle: Rectangle, radius: Double, layer: String) throws(TextError) {
        let (width, height, stride) = (width, height, stride)
        let failure = bytes.withUnsafeMutableBufferPointer { bytes in
            slicevid_text_draw_rectangle(bytes.baseAddress, Int32(width), Int32(height), Int32(stride),
                                         rectangle.x, rectangle.y, rectangle.width, rectangle.height, radius)
        }
        if let failure { throw TextError(.unavailable, layer: layer, message: "Cairo could not draw the plate: \(String(cString: failure))") }
    }
}
