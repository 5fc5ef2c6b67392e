// How one plane of one frame is drawn, worked out once per frame from the strip offsets: a
// list of patches (rectangles with one origin each), so drawing is nothing but row copies in
// whatever order keeps memory traffic in cache (see `Compositor`).

/// What one plane of a frame is drawn from: both stills (and, for vertical strips, their cut
/// strips) and the background's fill row.
struct PlaneSources {
    var outgoing: Plane
    var incoming: Plane
    /// This plane of each still cut into strips (`StillStrips.start`), when strips are vertical.
    var outgoingCut: UnsafePointer<UInt8>?
    var incomingCut: UnsafePointer<UInt8>?
    /// One row of the plane filled with the background.
    var fill: UnsafePointer<UInt8>
    var sampleBytes: Int
}

/// One plane of one frame as patches in lanes: within a lane patches are in row order and
/// disjoint, so the patches that meet a band of rows are found by a binary search per lane.
/// Patches of different lanes never overlap, so lanes may be drawn in any order.
struct PlaneDrawing {
    private var patches: [Patch] = []
    private var lanes: [Range<Int>] = []

    /// A plane that is one still, unshifted (a frame of the hold, or a blur sample outside the motion).
    init(still plane: Plane, sampleBytes: Int) {
        patches = [Patch(rows: 0..<plane.height, x: 0, width: plane.width * sampleBytes,
                         origin: UnsafePointer(plane.row(0)), step: plane.stride)]
        lanes = [0..<1]
    }

    /// A plane with strips in motion.
    /// - Parameters:
    ///   - strips: where the strips are.
    ///   - direction: the axis strips are cut along.
    ///   - shifts: each strip's outgoing and incoming offset in this plane's pixels.
    ///   - sources: the stills and fill row of this plane.
    init(strips: StripLayout, direction: StripDirection, shifts: (outgoing: [Int], incoming: [Int]), sources: PlaneSources) {
        let plane = sources.outgoing
        let vertical = direction == .vertical
        let across = vertical ? plane.width : plane.height, along = vertical ? plane.height : plane.width
        // Neighbouring strips showing the same thing (both gone to background, or settled on
        // the same row) are one group and become one wide patch per piece.
        var group: (start: Int, end: Int, count: Int, cover: StripCover)?
        var byPiece: [[Patch]] = []
        patches.reserveCapacity(3 * strips.count)
        if vertical { lanes.reserveCapacity(strips.count) }
        func flush() {
            guard let g = group else { return }
            let first = patches.count
            var k = 0
            g.cover.forEachPiece(extent: along) { part, origin in
                let patch = vertical
                    ? Self.verticalPatch(columns: g.start..<g.end, rows: part, origin: origin,
                                         oneStrip: g.count == 1, sources: sources)
                    : Self.horizontalPatch(rows: g.start..<g.end, columns: part, origin: origin, sources: sources)
                if vertical {
                    patches.append(patch)
                } else {
                    if byPiece.count == k { byPiece.append([]) }
                    byPiece[k].append(patch)
                }
                k += 1
            }
            if vertical { lanes.append(first..<patches.count) }
        }
        for s in 0..<strips.count {
            let start = strips.boundary(s, extent: across), end = strips.boundary(s + 1, extent: across)
            if start == end { continue }
            let cover = StripCover(outgoing: shifts.outgoing[s], incoming: shifts.incoming[s], extent: along)
            if let g = group, g.cover == cover {
                group = (g.start, end, g.count + 1, cover)
            } else {
                flush()
                group = (start, end, 1, cover)
            }
        }
        flush()
        // Horizontal bands each have up to three pieces side by side: lane k holds every band's
        // k-th piece, top to bottom.
        for lane in byPiece where !lane.isEmpty {
            lanes.append(patches.count..<patches.count + lane.count)
            patches += lane
        }
    }

    /// A vertical group `columns` wide (in samples), `rows` of it showing `origin`. A group of
    /// one strip is read from the still's cut copy; a wider one from the still itself, where
    /// its strips' pieces of a row are contiguous.
    private static func verticalPatch(columns: Range<Int>, rows: Range<Int>, origin: StripCover.Origin, oneStrip: Bool,
                                      sources: PlaneSources) -> Patch {
        let b = sources.sampleBytes, x = columns.lowerBound * b, width = columns.count * b
        let shift: Int, plane: Plane, planeCut: UnsafePointer<UInt8>?
        switch origin {
        case .fill:
            return Patch(rows: rows, x: x, width: width, origin: sources.fill + x, step: 0)
        case .outgoing(let d): (shift, plane, planeCut) = (d, sources.outgoing, sources.outgoingCut)
        case .incoming(let d): (shift, plane, planeCut) = (d, sources.incoming, sources.incomingCut)
        }
        let first = rows.lowerBound - shift
        if oneStrip, let planeCut {
            // The strips left of this one take x bytes of each of the plane's rows.
            return Patch(rows: rows, x: x, width: width, origin: planeCut + x * plane.height + first * width, step: width)
        }
        return Patch(rows: rows, x: x, width: width, origin: plane.row(first) + x, step: plane.stride)
    }

    /// A horizontal band of `rows`, `columns` of it (in samples) showing `origin`.
    private static func horizontalPatch(rows: Range<Int>, columns: Range<Int>, origin: StripCover.Origin,
                                        sources: PlaneSources) -> Patch {
        let b = sources.sampleBytes, x = columns.lowerBound * b, width = columns.count * b
        let shift: Int, plane: Plane
        switch origin {
        case .fill:
            return Patch(rows: rows, x: x, width: width, origin: sources.fill + x, step: 0)
        case .outgoing(let d): (shift, plane) = (d, sources.outgoing)
        case .incoming(let d): (shift, plane) = (d, sources.incoming)
        }
        return Patch(rows: rows, x: x, width: width, origin: plane.row(rows.lowerBound) + x - shift * b, step: plane.stride)
    }

    /// The rectangles of `plane` (in its samples) the patches read: a patch reading a still
    /// uncut reads its rows at the plane's stride from a row of the plane's own memory.
    func reads(from plane: Plane, sampleBytes b: Int) -> [SampleRect] {
        let base = UnsafeRawPointer(plane.base), end = base + plane.stride * plane.height
        return patches.compactMap { patch in
            let origin = UnsafeRawPointer(patch.origin)
            guard patch.step == plane.stride, !patch.rows.isEmpty, origin >= base, origin < end else { return nil }
            let offset = origin - base, row = offset / plane.stride, x = offset % plane.stride
            return SampleRect(rows: row..<row + patch.rows.count, columns: x / b..<(x + patch.width) / b)
        }
    }

    /// How many patches the plane is drawn as (neighbouring strips that look alike share one).
    var patchCount: Int { patches.count }

    /// Draws plane rows `rows` into the target, whose row `rows.lowerBound` starts at `target`
    /// and whose rows are `stride` bytes apart.
    func draw(rows: Range<Int>, into target: UnsafeMutablePointer<UInt8>, stride: Int) {
        patches.withUnsafeBufferPointer { all in
            for lane in lanes {
                // The first patch of the lane that ends below the band's top.
                var low = lane.lowerBound, high = lane.upperBound
                while low < high {
                    let mid = (low + high) / 2
                    if all[mid].rows.upperBound <= rows.lowerBound { low = mid + 1 } else { high = mid }
                }
                while low < lane.upperBound, all[low].rows.lowerBound < rows.upperBound {
                    let patch = all[low]
                    let part = max(patch.rows.lowerBound, rows.lowerBound)..<min(patch.rows.upperBound, rows.upperBound)
                    patch.draw(part, into: target + (part.lowerBound - rows.lowerBound) * stride, stride: stride)
                    low += 1
                }
            }
        }
    }
}
