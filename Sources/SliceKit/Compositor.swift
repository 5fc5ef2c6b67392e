// Draws one frame of the transition: each strip of each plane is a run of row copies from the
// source or destination still, or the background where neither covers. Nothing is scaled or
// blended per frame, so a frame costs about one pass of memory copies.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Renders the frames of a `FramePlan` from two stills already fitted to the frame.
///
/// Thread-safe: it only reads its stills, so any number of render threads can share one.
public struct Compositor: Sendable {
    public let plan: FramePlan
    public let source: PlanarImage
    public let destination: PlanarImage
    private let fillValues: [UInt8]

    /// - Parameters:
    ///   - plan: the timeline and strips.
    ///   - source: the outgoing still, at the frame size.
    ///   - destination: the incoming still, same size and layout as `source`.
    public init(plan: FramePlan, source: PlanarImage, destination: PlanarImage) {
        precondition(source.width == plan.spec.width && source.height == plan.spec.height, "source must be fitted to the frame")
        precondition(destination.width == source.width && destination.height == source.height
            && destination.layout == source.layout, "stills must share size and layout")
        self.plan = plan
        self.source = source
        self.destination = destination
        fillValues = source.layout.fillValues(for: plan.spec.background)
    }

    /// The pixel layout frames are rendered in.
    public var layout: PixelLayout { source.layout }

    /// Draws frame `index` into `target`, overwriting every pixel.
    /// - Precondition: `target` has the stills' size and layout.
    public func render(frame index: Int, into target: PlanarImage) {
        render(plan.content(ofFrame: index), into: target)
    }

    /// Draws `content` (a frame's, or a motion-blur sample's between frames) into `target`.
    /// - Precondition: `target` has the stills' size and layout.
    public func render(_ content: FrameContent, into target: PlanarImage) {
        precondition(target.width == source.width && target.height == source.height && target.layout == layout)
        switch content {
        case .source:
            target.copy(from: source)
        case .destination:
            target.copy(from: destination)
        case .strips(let outgoing, let incoming):
            for p in 0..<layout.planeCount {
                let planes = (target.planes[p], source.planes[p], destination.planes[p])
                switch plan.spec.direction {
                case .vertical:
                    drawVertical(planes, outgoing: outgoing, incoming: incoming, fill: fillValues[p])
                case .horizontal:
                    drawHorizontal(planes, outgoing: outgoing, incoming: incoming, fill: fillValues[p])
                }
            }
        }
    }

    /// Vertical strips: columns of the plane, each shifted up or down by whole rows.
    private func drawVertical(_ planes: (Plane, Plane, Plane), outgoing: [Double], incoming: [Double], fill: UInt8) {
        let (dst, src, dest) = planes
        let scale = Double(dst.height) / Double(plan.spec.height)
        let rows = dst.height
        let strips = plan.layout
        for s in 0..<strips.count {
            let x0 = strips.boundary(s, extent: dst.width)
            let width = strips.boundary(s + 1, extent: dst.width) - x0
            if width == 0 { continue }
            let dyOut = Int((outgoing[s] * scale).rounded())
            let dyIn = Int((incoming[s] * scale).rounded())
            // Rows covered by each still after the shift, clipped to the plane.
            let inRows = Compositor.clip(dyIn, rows)..<Compositor.clip(dyIn + rows, rows)
            let outRows = Compositor.clip(dyOut, rows)..<Compositor.clip(dyOut + rows, rows)
            // Walk the rows as runs (destination, source or background) so the inner loops
            // are plain strided copies with no per-row decisions.
            var y = 0
            while y < rows {
                if inRows.contains(y) {
                    Compositor.copyRuns(to: dst, from: dest, rows: y..<inRows.upperBound, shift: dyIn, x: x0, width: width)
                    y = inRows.upperBound
                    continue
                }
                let nextIn = y < inRows.lowerBound ? inRows.lowerBound : rows
                if outRows.contains(y) {
                    let end = min(outRows.upperBound, nextIn)
                    Compositor.copyRuns(to: dst, from: src, rows: y..<end, shift: dyOut, x: x0, width: width)
                    y = end
                } else {
                    let end = min(nextIn, y < outRows.lowerBound ? outRows.lowerBound : rows)
                    var to = dst.row(y) + x0
                    for _ in y..<end {
                        memset(to, Int32(fill), width)
                        to += dst.stride
                    }
                    y = end
                }
            }
        }
    }

    /// Copies `width` bytes at column `x` of each row in `rows` from row `r - shift` of `from`.
    @inline(__always)
    private static func copyRuns(to: Plane, from: Plane, rows: Range<Int>, shift: Int, x: Int, width: Int) {
        guard !rows.isEmpty else { return }
        var target = to.row(rows.lowerBound) + x
        var source = from.row(rows.lowerBound - shift) + x
        for _ in rows {
            memcpy(target, source, width)
            target += to.stride
            source += from.stride
        }
    }

    /// `value` clamped to 0…limit.
    @inline(__always)
    private static func clip(_ value: Int, _ limit: Int) -> Int { min(max(value, 0), limit) }

    /// Horizontal strips: bands of rows, each shifted left or right by whole columns.
    private func drawHorizontal(_ planes: (Plane, Plane, Plane), outgoing: [Double], incoming: [Double], fill: UInt8) {
        let (dst, src, dest) = planes
        let scale = Double(dst.width) / Double(plan.spec.width)
        let columns = dst.width
        let strips = plan.layout
        for s in 0..<strips.count {
            let y0 = strips.boundary(s, extent: dst.height)
            let y1 = strips.boundary(s + 1, extent: dst.height)
            if y0 == y1 { continue }
            let dxOut = Int((outgoing[s] * scale).rounded())
            let dxIn = Int((incoming[s] * scale).rounded())
            for y in y0..<y1 {
                let to = dst.row(y)
                memset(to, Int32(fill), columns)
                // Outgoing first, incoming over it: the seed's z-order.
                for (shift, from) in [(dxOut, src.row(y)), (dxIn, dest.row(y))] {
                    let lo = Compositor.clip(shift, columns), hi = Compositor.clip(shift + columns, columns)
                    if lo < hi { memcpy(to + lo, from + (lo - shift), hi - lo) }
                }
            }
        }
    }
}
