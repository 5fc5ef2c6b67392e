// The compositor as it was before the cache-friendly rewrite, kept as the tests' reference: each
// strip of each plane drawn top to bottom, one plain row copy at a time. Slow and obviously right.

import SliceKit

/// Draws frames the straightforward way, strip by strip; the new compositor must match it
/// byte for byte.
struct ReferenceCompositor {
    let plan: FramePlan
    let source: PlanarImage
    let destination: PlanarImage

    func render(_ content: FrameContent, into target: PlanarImage) {
        switch content {
        case .source:
            target.copy(from: source)
        case .destination:
            target.copy(from: destination)
        case .strips(let outgoing, let incoming):
            let fill = source.layout.fillValues(for: plan.spec.background)
            for p in 0..<source.layout.planeCount {
                let planes = (target.planes[p], source.planes[p], destination.planes[p])
                switch plan.spec.direction {
                case .vertical: vertical(planes, outgoing, incoming, fill[p])
                case .horizontal: horizontal(planes, outgoing, incoming, fill[p])
                }
            }
        }
    }

    /// Each column strip, row by row: incoming still if it covers the row, else outgoing, else fill.
    private func vertical(_ planes: (Plane, Plane, Plane), _ outgoing: [Double], _ incoming: [Double], _ fill: Int) {
        let (dst, src, dest) = planes
        let scale = Double(dst.height) / Double(plan.spec.height)
        for s in 0..<plan.layout.count {
            let x0 = plan.layout.boundary(s, extent: dst.width), x1 = plan.layout.boundary(s + 1, extent: dst.width)
            let dyOut = Int((outgoing[s] * scale).rounded()), dyIn = Int((incoming[s] * scale).rounded())
            for y in 0..<dst.height {
                for x in x0..<x1 {
                    if (0..<dst.height).contains(y - dyIn) {
                        Self.set(dst, x, y, Self.get(dest, x, y - dyIn))
                    } else if (0..<dst.height).contains(y - dyOut) {
                        Self.set(dst, x, y, Self.get(src, x, y - dyOut))
                    } else {
                        Self.set(dst, x, y, fill)
                    }
                }
            }
        }
    }

    /// Each band of rows: fill, then the outgoing still shifted sideways, the incoming over it.
    private func horizontal(_ planes: (Plane, Plane, Plane), _ outgoing: [Double], _ incoming: [Double], _ fill: Int) {
        let (dst, src, dest) = planes
        let scale = Double(dst.width) / Double(plan.spec.width)
        for s in 0..<plan.layout.count {
            let y0 = plan.layout.boundary(s, extent: dst.height), y1 = plan.layout.boundary(s + 1, extent: dst.height)
            let dxOut = Int((outgoing[s] * scale).rounded()), dxIn = Int((incoming[s] * scale).rounded())
            for y in y0..<y1 {
                for x in 0..<dst.width {
                    if (0..<dst.width).contains(x - dxIn) {
                        Self.set(dst, x, y, Self.get(dest, x - dxIn, y))
                    } else if (0..<dst.width).contains(x - dxOut) {
                        Self.set(dst, x, y, Self.get(src, x - dxOut, y))
                    } else {
                        Self.set(dst, x, y, fill)
                    }
                }
            }
        }
    }

    /// The sample at (x, y) of a plane of 8- or 16-bit samples.
    static func get(_ plane: Plane, _ x: Int, _ y: Int) -> Int {
        plane.sampleBytes == 2 ? Int(UInt16(littleEndian: plane.row16(y)[x])) : Int(plane.row(y)[x])
    }

    static func set(_ plane: Plane, _ x: Int, _ y: Int, _ value: Int) {
        if plane.sampleBytes == 2 { plane.row16(y)[x] = UInt16(value).littleEndian } else { plane.row(y)[x] = UInt8(value) }
    }
}
