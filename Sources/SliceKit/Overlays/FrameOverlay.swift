// `over` layers: a logo or a legal line drawn onto every finished frame, after the strips and
// unsliced. A layer is prepared once per frame size and layout — its premultiplied samples in
// the layout's own units and how much of the frame shows through each — so a frame costs one
// multiply-add per sample the layer covers, and nothing outside its box.

/// A premultiplied RGBA16 layer made ready to be drawn over frames of one size and layout.
///
/// Drawing is source over in premultiplied form. Y'CbCr is affine in R'G'B', so a layer's
/// premultiplied Y'CbCr (alpha × its BT.709 limited-range Y'CbCr, computed with the same
/// fixed-point coefficients as `RGBAImage.planar` and `RGBA16Image.planar`) composes as
/// out = layer + (1 − alpha) × frame, exactly as composing in RGB and converting would. A
/// 4:2:0 chroma sample takes the means of alpha and premultiplied chroma over the 2 × 2
/// pixels it covers (the last column or row standing in for a missing one, as the converters
/// do). Frames with an alpha plane hold straight colour: there every sample is
/// (layer + (1 − alpha) × frame alpha × frame) / (the result's alpha), so a translucent edge
/// over a transparent frame keeps its colour instead of darkening.
///
/// All arithmetic is in integers; see `draw(onto:opacity:)` for the rounding. Immutable once
/// made, so any number of render threads may draw it at once.
package struct FrameOverlay: Sendable {
    package let layout: PixelLayout
    package let frameWidth: Int
    package let frameHeight: Int
    /// What the layer does to each plane, in the layout's plane order.
    let planes: [OverlayPlane]

    /// Prepares `layer` with its top-left corner at frame pixel (`x`, `y`); the parts outside
    /// the frame are clipped, and samples the layer leaves fully transparent are skipped.
    /// - Parameters:
    ///   - layer: 16-bit sRGB, colour premultiplied by alpha (capped at alpha here); without an
    ///     alpha plane the layer is opaque. Read here only, never kept.
    ///   - x: the frame column of the layer's left edge (any value).
    ///   - y: the frame row of the layer's top edge (any value).
    ///   - frameWidth: the frames' width, ≥ 1.
    ///   - frameHeight: the frames' height, ≥ 1.
    ///   - layout: the frames' layout.
    package init(layer: RGBA16Image, x: Int, y: Int, frameWidth: Int, frameHeight: Int, layout: PixelLayout) {
        precondition(frameWidth > 0 && frameHeight > 0, "frame size must be positive")
        self.layout = layout
        self.frameWidth = frameWidth
        self.frameHeight = frameHeight
        guard let box = layer.visiblePart(atX: x, y: y, onWidth: frameWidth, height: frameHeight) else {
            planes = (0..<layout.planeCount).map { _ in OverlayPlane.empty }
            return
        }
        let source = LayerSamples(layer: layer, x: x, y: y, box: box, frameWidth: frameWidth, frameHeight: frameHeight)
        planes = (0..<layout.planeCount).map { OverlayPlane(source, plane: $0, layout: layout) }
    }

    /// Whether drawing changes nothing (the layer is off the frame, or fully transparent).
    package var isEmpty: Bool { planes.allSatisfy(\.runs.isEmpty) }

    /// Draws the layer onto `frame` at `opacity` (for fades): the layer's alpha and colour are
    /// scaled by it. 0 (or NaN) draws nothing; 1 draws the prepared samples as they are.
    ///
    /// Rounding: the prepared samples hold the layer's premultiplied value × 2⁹ (8-bit
    /// layouts) or × 2¹⁶ (16-bit), a whole value where the layer is opaque (so opaque pixels
    /// are exactly the layer's colour converted, rounded once), and 1 − alpha × 2¹⁴ or × 2²⁴;
    /// opacity is taken to 1/65536 and scales both, rounded to nearest; each written sample is
    /// rounded once to nearest (halves up). The same frame and opacity give the same bytes on
    /// any thread. Allocates nothing.
    /// - Precondition: `frame` has this overlay's size and layout.
    package func draw(onto frame: PlanarImage, opacity: Double = 1) {
        precondition(frame.layout == layout && frame.width == frameWidth && frame.height == frameHeight,
                     "the overlay was prepared for another frame size or layout")
        guard opacity > 0 else { return }
        let scale = opacity >= 1 ? 1 << 16 : Int((opacity * 65536).rounded())
        guard scale > 0 else { return }
        let frameAlpha = layout.hasAlpha ? frame.planes[3] : nil
        // Colour planes first: they read the frame's alpha as it was before the layer.
        for (p, plane) in planes.enumerated() where !plane.runs.isEmpty {
            let under = p < 3 ? frameAlpha : nil
            if layout.isDeep {
                plane.draw(into: frame.planes[p], sample: UInt16.self, frameAlpha: under, scale: scale)
            } else {
                plane.draw(into: frame.planes[p], sample: UInt8.self, frameAlpha: under, scale: scale)
            }
        }
    }
}

/// The samples of a layer as the frame sees them: premultiplied (colour capped at alpha),
/// transparent outside the layer's visible part.
struct LayerSamples {
    let layer: RGBA16Image
    let x: Int, y: Int
    /// The frame pixels the layer covers.
    let box: (x0: Int, y0: Int, x1: Int, y1: Int)
    let frameWidth: Int, frameHeight: Int

    /// Alpha, red, green, blue of the layer at frame pixel (`fx`, `fy`).
    @inline(__always)
    func at(_ fx: Int, _ fy: Int) -> (a: Int, r: Int, g: Int, b: Int) {
        guard fx >= box.x0, fx < box.x1, fy >= box.y0, fy < box.y1 else { return (0, 0, 0, 0) }
        let lx = fx - x, ly = fy - y
        let a = layer.hasAlpha ? Int(layer.row(3, ly)[lx]) : 65535
        return (a, min(a, Int(layer.row(0, ly)[lx])), min(a, Int(layer.row(1, ly)[lx])), min(a, Int(layer.row(2, ly)[lx])))
    }
}
