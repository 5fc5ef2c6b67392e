// Motion blur: a moving frame is the average of several renders spread over the frame's
// exposure, so strips that jump a hundred pixels between frames read as motion, not stutter.

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

    /// - Parameter compositor: draws each sample; its plan's `spec.motionBlur` is the number
    ///   of samples (1 to `maximumSamples`).
    public init(_ compositor: Compositor) {
        precondition((1...MotionBlur.maximumSamples).contains(compositor.plan.spec.motionBlur), "motion blur samples out of range")
        self.compositor = compositor
    }

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
        // Allocated per frame rather than pooled: it costs far less than the renders it holds.
        let scratch = PlanarImage(width: target.width, height: target.height, layout: target.layout)
        var sums = target.planes.map { [UInt16](repeating: 0, count: $0.width * $0.height) }
        for time in sampleTimes(ofFrame: index) {
            compositor.render(plan.content(atTime: time), into: scratch)
            for (p, plane) in scratch.planes.enumerated() {
                sums[p].withUnsafeMutableBufferPointer { sum in
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
            sums[p].withUnsafeBufferPointer { sum in
                for y in 0..<plane.height {
                    let row = plane.row(y), offset = y * plane.width
                    for x in 0..<plane.width { row[x] = UInt8((sum[offset + x] + half) / count) }
                }
            }
        }
    }
}
