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
package struct MotionBlur: Sendable {
    /// The most samples accepted: beyond this the blur no longer improves visibly, while the
    /// render time keeps growing linearly. 32 × 255 also keeps the sums within UInt16.
    package static let maximumSamples = 32

    /// The fraction of a frame interval the shutter is open: 180°.
    package static let shutter = 0.5

    package let compositor: Compositor
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
    package init(_ compositor: Compositor) {
        self.init(compositor, scratch: ScratchPool())
    }

    /// How many sets of scratch buffers were ever made: at most one per thread that rendered a
    /// blurred frame at the same time, however many frames there were.
    package var scratchBuffersMade: Int { scratch.made }

    /// The pool this blur borrows from (shared by a sequence's transitions).
    var scratchPool: ScratchPool { scratch }

    /// Samples averaged into each moving frame.
    package var samples: Int { compositor.plan.spec.motionBlur }

    /// The times frame `index` is sampled at, in seconds, earliest first.
    package func sampleTimes(ofFrame index: Int) -> [Double] {
        let plan = compositor.plan
        let t = plan.time(ofFrame: index)
        let exposure = MotionBlur.shutter / plan.spec.frameRate.value
        return (0..<samples).map { k in t + exposure * ((Double(k) + 0.5) / Double(samples) - 0.5) }
    }

    /// Draws frame `index` into `target`, blurred when it is in motion.
    /// - Precondition: `target` has the stills' size and layout.
    package func render(frame index: Int, into target: PlanarImage) {
        let plan = compositor.plan
        let content = plan.content(ofFrame: index)
        guard samples > 1, case .strips = content else {
            compositor.render(frame: index, into: target)
            return
        }
        // Moving stills are drawn as the frame's time shows them in every sample: they move by
        // a fraction of a pixel in a frame's exposure, where the strips move by hundreds.
        let contents = sampleTimes(ofFrame: index).map { plan.content(atTime: $0) }
        compositor.withDrawings(ofFrame: index, showing: contents) { drawings in
            let set = scratch.take(samples: target.planes.map { $0.width }.max() ?? 1)
            defer { scratch.give(set) }
            if target.layout.isDeep {
                blend16(drawings, into: target, scratch: set)
            } else {
                blend8(drawings, into: target, scratch: set)
            }
        }
    }

    /// Band by band, every sample of the band is drawn and summed while the band is in cache,
    /// so the frame's memory is written once and the stills read once per sample.
    private func blend8(_ drawings: [[PlaneDrawing]], into target: PlanarImage, scratch set: ScratchPool.Buffers) {
        let mean = SampleMean(samples)
        for (p, plane) in target.planes.enumerated() {
            let width = plane.width
            let band = compositor.bandRows(plane: p, budget: ScratchPool.bandBytes)
            for y in Swift.stride(from: 0, to: plane.height, by: band) {
                let rows = y..<min(y + band, plane.height), count = rows.count * width
                let picture = set.picture, sums = set.sums
                sums.update(repeating: 0, count: count)
                for drawing in drawings {
                    drawing[p].draw(rows: rows, into: picture, stride: width)
                    for i in 0..<count { sums[i] &+= UInt16(picture[i]) }
                }
                for r in 0..<rows.count {
                    let row = plane.row(y + r), sum = sums + r * width
                    for x in 0..<width { row[x] = mean.of(sum[x]) }
                }
            }
        }
    }

    /// `blend8` for 16-bit samples: 32-bit sums, and a rounded mean by a 64-bit multiply.
    private func blend16(_ drawings: [[PlaneDrawing]], into target: PlanarImage, scratch set: ScratchPool.Buffers) {
        let count64 = UInt64(samples), half = count64 / 2
        // ⌈2^32 / count⌉ is exact for sums below 2^32 / count, far above 32 × 65535.
        let reciprocal = ((1 << 32) + count64 - 1) / count64
        for (p, plane) in target.planes.enumerated() {
            let width = plane.width
            let band = compositor.bandRows(plane: p, budget: ScratchPool.bandBytes)
            for y in Swift.stride(from: 0, to: plane.height, by: band) {
                let rows = y..<min(y + band, plane.height), count = rows.count * width
                let picture = UnsafeMutableRawPointer(set.picture).assumingMemoryBound(to: UInt16.self), sums = set.wideSums
                sums.update(repeating: 0, count: count)
                for drawing in drawings {
                    drawing[p].draw(rows: rows, into: set.picture, stride: width * 2)
                    for i in 0..<count { sums[i] &+= UInt32(UInt16(littleEndian: picture[i])) }
                }
                for r in 0..<rows.count {
                    let row = plane.row16(y + r), sum = sums + r * width
                    for x in 0..<width {
                        row[x] = UInt16(truncatingIfNeeded: ((UInt64(sum[x]) &+ half) &* reciprocal) >> 32).littleEndian
                    }
                }
            }
        }
    }
}

/// The rounded mean of `count` 8-bit samples from their sum, `(sum + count / 2) / count`,
/// as a multiply and a shift: a division per sample would cost more than drawing it.
struct SampleMean {
    private let half: UInt32
    private let reciprocal: UInt32

    /// `⌈2^18 / count⌉` is exact while (sum + half) × (count − 1) < 2^18, so for every sum of
    /// up to `MotionBlur.maximumSamples` samples (every count and sum is checked in the tests).
    private static let shift: UInt32 = 18

    init(_ count: Int) {
        precondition((1...MotionBlur.maximumSamples).contains(count))
        half = UInt32(count / 2)
        reciprocal = UInt32(((1 << Int(SampleMean.shift)) + count - 1) / count)
    }

    @inline(__always)
    func of(_ sum: UInt16) -> UInt8 {
        UInt8(truncatingIfNeeded: ((UInt32(sum) &+ half) &* reciprocal) >> SampleMean.shift)
    }
}

/// Reusable scratch for blurred frames: a band of one sample's picture and the band's running
/// sums, `bandBytes` samples each (or one row, if wider), one set per thread blurring at a time.
final class ScratchPool: Sendable {
    /// Samples in a band: its picture (32 KiB) and its sums at two bytes each (64 KiB) stay in
    /// a core's L2 cache while every sample of the band is drawn and added.
    static let bandBytes = 32 << 10

    final class Buffers: @unchecked Sendable {
        // @unchecked: a set belongs to one render thread between take() and give().
        /// A band of one sample's picture: room for `capacity` samples of 16 bits.
        let picture: UnsafeMutablePointer<UInt8>
        /// The band's running sums of 8-bit samples, and of 16-bit ones.
        let sums: UnsafeMutablePointer<UInt16>
        let wideSums: UnsafeMutablePointer<UInt32>
        let capacity: Int
        init(samples: Int) {
            capacity = samples
            picture = .allocate(capacity: 2 * samples)
            sums = .allocate(capacity: samples)
            wideSums = .allocate(capacity: samples)
        }
        deinit {
            picture.deallocate()
            sums.deallocate()
            wideSums.deallocate()
        }
    }

    private let free = Mutex<[Buffers]>([])
    private let count = Atomic<Int>(0)

    var made: Int { count.load(ordering: .relaxed) }

    /// A set whose band holds at least `row` samples, the widest row it will be given.
    func take(samples row: Int) -> Buffers {
        // A set too small for this frame's rows is dropped, not handed out.
        if let set = free.withLock({ $0.popLast() }), set.capacity >= row { return set }
        count.add(1, ordering: .relaxed)
        return Buffers(samples: max(ScratchPool.bandBytes, row))
    }

    func give(_ set: Buffers) { free.withLock { $0.append(set) } }
}
