// Draws one frame of the transition. Memory order is the whole cost: a frame is ~160,000 row
// pieces ~25 bytes wide, so it is drawn in bands of rows small enough to stay in cache, strip
// by strip within a band, each strip read from a copy of the still cut into strips (one
// forward run of memory per strip) rather than 25 bytes from each of a thousand rows.

/// Renders the frames of a `FramePlan` from two stills already fitted to the frame.
///
/// Thread-safe: it only reads its stills, so any number of render threads can share one.
package struct Compositor: Sendable {
    package let plan: FramePlan
    package let source: PlanarImage
    package let destination: PlanarImage
    /// Bytes per sample of each plane.
    let sampleBytes: [Int]
    private let fill: FillRows
    /// The stills cut into their strips: vertical strips only (horizontal ones are row runs
    /// of the still already), and only stills that do not move (a moving one is cut as each
    /// frame shows it).
    private let cuts: (source: StillStrips?, destination: StillStrips?)?
    /// How the stills move (Ken Burns); nil when neither does.
    let motion: TransitionMotion?

    /// - Parameters:
    ///   - plan: the timeline and strips.
    ///   - source: the outgoing still, at the frame size.
    ///   - destination: the incoming still, same size and layout as `source`.
    package init(plan: FramePlan, source: PlanarImage, destination: PlanarImage) {
        self.init(plan: plan, source: source, destination: destination, cut: nil)
    }

    /// - Parameters:
    ///   - cut: returns a still cut into `plan`'s strips, given each plane's bytes per sample
    ///     (a sequence shares one cut between the two transitions a still belongs to); nil to
    ///     cut here. A moving still is not cut: each frame cuts it as it shows it.
    ///   - motion: how the stills move; nil when neither does.
    init(plan: FramePlan, source: PlanarImage, destination: PlanarImage,
         cut: ((PlanarImage, [Int]) -> StillStrips)?, motion: TransitionMotion? = nil) {
        precondition(source.width == plan.spec.width && source.height == plan.spec.height, "source must be fitted to the frame")
        precondition(destination.width == source.width && destination.height == source.height
            && destination.layout == source.layout, "stills must share size and layout")
        self.plan = plan
        self.source = source
        self.destination = destination
        self.motion = motion.flatMap { $0.moves ? $0 : nil }
        // A sample is as wide as its fill pattern: one byte, or two in 16-bit layouts.
        let patterns = source.layout.fillPattern(for: plan.spec.background)
        sampleBytes = patterns.map(\.count)
        fill = FillRows(patterns, widths: source.planes.map(\.width))
        if plan.spec.direction == .vertical {
            let make = cut ?? { StillStrips($0, strips: plan.layout, sampleBytes: $1) }
            cuts = (self.motion?.source == nil ? make(source, sampleBytes) : nil,
                    self.motion?.destination == nil ? make(destination, sampleBytes) : nil)
        } else {
            cuts = nil
        }
    }

    /// The pixel layout frames are rendered in.
    package var layout: PixelLayout { source.layout }

    /// Draws frame `index` into `target`, overwriting every pixel.
    /// - Precondition: `target` has the stills' size and layout.
    package func render(frame index: Int, into target: PlanarImage) {
        let content = plan.content(ofFrame: index)
        guard let motion else { return render(content, into: target) }
        renderMoving(content, frame: index, motion: motion, into: target)
    }

    /// Draws `content` (a frame's, or a motion-blur sample's between frames) into `target`.
    /// - Precondition: `target` has the stills' size and layout.
    package func render(_ content: FrameContent, into target: PlanarImage) {
        render(drawing(of: content), into: target)
    }

    /// Draws each plane's drawing into `target`, band by band.
    func render(_ drawings: [PlaneDrawing], into target: PlanarImage) {
        precondition(target.width == source.width && target.height == source.height && target.layout == layout)
        for (p, drawing) in drawings.enumerated() {
            let plane = target.planes[p]
            let band = bandRows(plane: p)
            for y in Swift.stride(from: 0, to: plane.height, by: band) {
                drawing.draw(rows: y..<min(y + band, plane.height), into: plane.row(y), stride: plane.stride)
            }
        }
    }

    /// Rows of plane `p` drawn together: about `bandBytes`, so the band being written (and
    /// the strips' runs read for it) stay in the core's caches until the band is done.
    func bandRows(plane p: Int, budget: Int = Compositor.bandBytes) -> Int {
        max(1, budget / max(1, source.planes[p].width * sampleBytes[p]))
    }

    /// The bytes of a band of rows: 32–128 KiB did about as well on 1080p and 4K frames
    /// (bench/orders.c), all within the L2 cache of current cores.
    static let bandBytes = 64 << 10

    /// How each plane of `content` is drawn from the stills as they are.
    func drawing(of content: FrameContent) -> [PlaneDrawing] {
        drawing(of: content, stills: drawingStills)
    }

    /// The stills as they are, with their cut copies.
    var drawingStills: FrameStills {
        FrameStills(source: source, destination: destination, sourceCut: cuts?.source, destinationCut: cuts?.destination)
    }

    /// How each plane of `content` is drawn from `stills` (the stills as one frame shows them).
    func drawing(of content: FrameContent, stills: FrameStills) -> [PlaneDrawing] {
        let source = stills.source, destination = stills.destination
        switch content {
        case .source:
            return zip(source.planes, sampleBytes).map { PlaneDrawing(still: $0, sampleBytes: $1) }
        case .destination:
            return zip(destination.planes, sampleBytes).map { PlaneDrawing(still: $0, sampleBytes: $1) }
        case .strips(let outgoing, let incoming):
            let vertical = plan.spec.direction == .vertical
            return source.planes.indices.map { p in
                let plane = source.planes[p]
                // Shifts are rounded in each plane's own pixels, so chroma moves by half as many rows.
                let scale = vertical ? Double(plane.height) / Double(plan.spec.height) : Double(plane.width) / Double(plan.spec.width)
                let shift = { (offset: Double) in Int((offset * scale).rounded()) }
                let sources = PlaneSources(outgoing: plane, incoming: destination.planes[p],
                                           outgoingCut: stills.sourceCut?.start(plane: p), incomingCut: stills.destinationCut?.start(plane: p),
                                           fill: fill.row(p), sampleBytes: sampleBytes[p])
                return PlaneDrawing(strips: plan.layout, direction: plan.spec.direction,
                                    shifts: (outgoing.map(shift), incoming.map(shift)), sources: sources)
            }
        }
    }
}

/// One row of each plane filled with the background: what every background patch copies, so
/// a fill is a copy like any other, whatever the sample's size or pattern.
private final class FillRows: @unchecked Sendable {
    // @unchecked: written only in init, read-only afterwards.
    private let rows: [UnsafeMutablePointer<UInt8>]

    /// - Parameters:
    ///   - patterns: each plane's bytes of one background sample.
    ///   - widths: each plane's width in samples.
    init(_ patterns: [[UInt8]], widths: [Int]) {
        rows = zip(patterns, widths).map { pattern, width in
            let row = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, width * pattern.count))
            for i in 0..<width * pattern.count { row[i] = pattern[i % pattern.count] }
            return row
        }
    }

    deinit { rows.forEach { $0.deallocate() } }

    func row(_ p: Int) -> UnsafePointer<UInt8> { UnsafePointer(rows[p]) }
}
