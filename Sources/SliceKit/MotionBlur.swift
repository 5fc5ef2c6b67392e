// Motion blur: a moving frame is the average of several renders spread over the frame's
// exposure, so strips that jump a hundred pixels between frames read as motion, not stutter.

import Synchronization

/// Renders frames with `spec.motionBlur` sub-frame samples averaged per frame.
///
/// The shutter is 180°, centred on the frame's time (a film camera's, and After Effects'
/// default): frame i, shown at t = i / fps, is exposed over `[t − 1/(4·fps), t + 1/(4·fps)]`
/// and sampled at the midpoints of `samples` equal parts of that interval. Frames that show a
/// still — the hold before the transition, the end hold and the last frame — are drawn exactly,
/// unblurred, even when part of their exposure would overlap the motion. With 1 sample every
/// frame is the compositor's own.
public struct MotionBlur: Sendable {
    /// The most samples accepted: beyond this the blur no longer improves visibly, while the
    /// render time keeps growing linearly. 32 × 255 also keeps the sums within UInt16.
    public static let maximumSamples = 32

    /// The fraction of a frame interval the shutter is open: 180°.
    public static let shutter = 0.5

    public let compositor: Compositor
    /// Sample buffers and sums, one set per render thread at a time, reused from frame to frame.
    private let scratch: ScratchPool

    /// - Parameters:
    ///   - compositor: draws each sample; its plan's `spec.motionBlur` is the number of samples
    ///     (1 to `maximumSamples`).
    ///   - scratch: where blurred frames borrow their buffers; shared by the transitions of a
    ///     sequence (a new pool by default).
    init(_ compositor: Compositor, scratch: ScratchPool) {
        precondition((1...MotionBlur.maximumSamples).contains(compositor.plan.spec.motionBlur), "motion blur samples out of range")
        self.compositor = compositor
        self.scratch = scratch
    }

    /// - Parameter compositor: draws each sample; its plan's `spec.motionBlur` is the number
    ///   of samples (1 to `maximumSamples`).
    public init(_ compositor: Compositor) {
        self.init(compositor, scratch: ScratchPool())
    }

    /// How many sets of scratch buffers were ever made: at most one per thread that rendered a
    /// blurred frame at the same time, however many frames there were.
    public var scratchBuffersMade: Int { scratch.made }

    /// The pool this blur borrows from (shared by a sequence's transitions).
    var scratchPool: ScratchPool { scratch }

    /// Samples averaged into each moving frame.
    public var samples: Int { compositor.plan.spec.motionBlur }

    /// The times frame `index` is sampled at, in seconds, earliest first.
    public func sampleTimes(ofFrame index: Int) -> [Double] {
        let plan = compositor.plan
        let t = plan.time(ofFrame: index)
        let exposure = MotionBlur.shutter / plan.spec.frameRate.value
        return (0..<samples).map { k in t + exposure * ((Double(k) + 0.5) / Double(samples) - 0.5) }
    }

    /// Draws frame `index` into `target`, blurred when it is in motion.
    /// - Precondition: `target` has the stills' size and layout.
    public func render(frame index: Int, into target: PlanarImage) {
        let plan = compositor.plan
        let content = plan.content(ofFrame: index)
        guard samples > 1, case .strips = content else {
            compositor.render(content, into: target)
            return
        }
        let set = self.scratch.take(like: target)
        defer { self.scratch.give(set) }
        let scratch = set.picture
        // The sums are used in place (a local copy of the arrays would copy them on write).
        for p in set.sums.indices { set.sums[p].withUnsafeMutableBufferPointer { $0.update(repeating: 0) } }
        for time in sampleTimes(ofFrame: index) {
            compositor.render(plan.content(atTime: time), into: scratch)
            for (p, plane) in scratch.planes.enumerated() {
                set.sums[p].withUnsafeMutableBufferPointer { sum in
                    for y in 0..<plane.height {
                        let row = plane.row(y), offset = y * plane.width
                        for x in 0..<plane.width { sum[offset + x] &+= UInt16(row[x]) }
                    }
                }
            }
        }
        // Rounded to nearest, so N identical samples average to exactly that value.
        let count = UInt16(samples), half = UInt16(samples / 2)
        for (p, plane) in target.planes.enumerated() {
            set.sums[p].withUnsafeBufferPointer { sum in
                for y in 0..<plane.height {
                    let row = plane.row(y), offset = y * plane.width
                    for x in 0..<plane.width { row[x] = UInt8((sum[offset + x] + half) / count) }
                }
            }
        }
    }
}

/// Reusable scratch for blurred frames: a picture to draw each sample into and the running sums.
final class ScratchPool: Sendable {
    final class Buffers: @unchecked Sendable {
        // @unchecked: a set belongs to one render thread between take() and give().
        let picture: PlanarImage
        var sums: [[UInt16]]
        init(like target: PlanarImage) {
            picture = PlanarImage(width: target.width, height: target.height, layout: target.layout)
            sums = target.planes.map { [UInt16](repeating: 0, count: $0.width * $0.height) }
        }
    }

    private let free = Mutex<[Buffers]>([])
    private let count = Atomic<Int>(0)

    var made: Int { count.load(ordering: .relaxed) }

    func take(like target: PlanarImage) -> Buffers {
        // A set of another size or layout is dropped, not handed out: the compositor would refuse it.
        if let set = free.withLock({ $0.popLast() }), set.picture.width == target.width,
           set.picture.height == target.height, set.picture.layout == target.layout {
            return set
        }
        count.add(1, ordering: .relaxed)
        return Buffers(like: target)
    }

    func give(_ set: Buffers) { free.withLock { $0.append(set) } }
}
