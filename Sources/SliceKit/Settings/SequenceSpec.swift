// A sequence of stills (a → b → c → …) described as one TransitionSpec per consecutive pair, so
// every transition reuses FramePlan and Compositor unchanged and may differ in easing or timing.

/// The resolved settings of a sequence of `segments.count + 1` stills.
///
/// Segment `k` is the transition from image `k` to image `k + 1`: its `hold` is how long image
/// `k` is shown still first, and only the last segment has an `endHold` (the last image's
/// hold). Every segment shares the frame's size, frame rate, background, fit and focus, because they
/// feed one video and the stills are fitted once.
package struct SequenceSpec: Sendable, Equatable {
    /// One spec per consecutive pair of images, in order.
    package var segments: [TransitionSpec]
    /// Images whose focus differs from the shared one (a manifest's `{"path": …, "focus": …}`).
    package private(set) var focusOverrides: [Int: Focus] = [:]
    /// Images whose motion differs from the shared one (a manifest's `{"path": …, "motion": …}`).
    package private(set) var motionOverrides: [Int: StillMotion] = [:]

    /// Derives the segments of a sequence from one spec, as `slicevid make a b c` does.
    ///
    /// Every segment copies `base`; segment `k` gets the seed `derivedSeed(base.seed, pair: k)`
    /// so each transition has its own strips, and only the last keeps `base.endHold`.
    /// - Parameters:
    ///   - base: the settings every transition starts from.
    ///   - imageCount: number of stills, ≥ 2.
    package init(base: TransitionSpec, imageCount: Int) {
        precondition(imageCount >= 2, "a sequence needs at least two images")
        segments = (0..<(imageCount - 1)).map { pair in
            var segment = base
            segment.seed = SequenceSpec.derivedSeed(base.seed, pair: pair)
            if pair < imageCount - 2 { segment.endHold = 0 }
            return segment
        }
    }

    /// Number of stills in the sequence.
    package var imageCount: Int { segments.count + 1 }

    /// The seed of transition `pair` (from image `pair` to `pair + 1`).
    ///
    /// Pair 0 uses `base` itself, so a two-image sequence is exactly the `--from/--to` clip;
    /// pair k ≥ 1 uses the k-th value drawn from `SplitMix64(seed: base)`. The derivation is
    /// fixed: changing it would change every rendered sequence.
    package static func derivedSeed(_ base: UInt64, pair: Int) -> UInt64 {
        precondition(pair >= 0, "pairs count from 0")
        guard pair > 0 else { return base }
        var generator = SplitMix64(seed: base)
        var value: UInt64 = 0
        for _ in 0..<pair { value = generator.next() }
        return value
    }

    /// Sets how long image `index` is shown still: the hold before its transition, or for
    /// the last image the end hold.
    package mutating func setHold(_ seconds: Double, ofImage index: Int) {
        precondition((0..<imageCount).contains(index), "no such image")
        if index == segments.count {
            segments[index - 1].endHold = seconds
        } else {
            segments[index].hold = seconds
        }
    }

    /// Sets the point of image `index` a cover crop keeps in view, for that image alone.
    package mutating func setFocus(_ focus: Focus, ofImage index: Int) {
        precondition((0..<imageCount).contains(index), "no such image")
        focusOverrides[index] = focus
    }

    /// The focus of image `index`: its own, else the one every segment shares.
    package func focus(ofImage index: Int) -> Focus {
        focusOverrides[index] ?? segments[0].focus
    }

    /// Sets how image `index` moves while it shows, for that image alone.
    package mutating func setMotion(_ motion: StillMotion, ofImage index: Int) {
        precondition((0..<imageCount).contains(index), "no such image")
        motionOverrides[index] = motion
    }

    /// The motion of image `index`: its own, else the one every segment shares.
    package func motion(ofImage index: Int) -> StillMotion {
        motionOverrides[index] ?? segments[0].motion
    }

    /// Seconds image `index` is shown still (see `setHold`).
    package func hold(ofImage index: Int) -> Double {
        index == segments.count ? segments[index - 1].endHold : segments[index].hold
    }

    /// The fields every segment must share, since one video and one set of fitted stills
    /// serve them all.
    package static let sharedFields: [SpecField] = [.size, .fps, .background, .fit, .focus, .motion, .motionAmount, .motionEasing]

    /// The longest video, in seconds: three hours. With at most 240 fps that bounds a video to
    /// `maximumFrames`, which keeps every frame and timestamp computation far inside 64 bits.
    package static let maximumSeconds = 10_800.0

    /// The most frames a video can have: `maximumSeconds` at 240 fps, plus the last frame.
    package static let maximumFrames = Int(maximumSeconds * FrameRate.accepted.upperBound) + 1

    /// Seconds of the whole video: every transition's timeline, the shared images once.
    package var totalSeconds: Double { segments.reduce(0) { $0 + $1.totalSeconds } }

    /// Checks every segment, then that they agree on `sharedFields`, then the video's length.
    /// - Throws: `SpecError` naming the field (prefixed `transition N` when one segment differs;
    ///   `images` when the whole video is too long).
    package func validate() throws(SpecError) {
        for segment in segments { try segment.validate() }
        for (index, motion) in motionOverrides.sorted(by: { $0.key < $1.key }) where !StillMotion.amountRange.contains(motion.amount) {
            throw SpecError(field: SpecField.motionAmount.rawValue,
                            message: "image \(index) has \(motion.amount.shortText), out of range; \(StillMotion.acceptedAmount)")
        }
        // Each segment is at most 3 × 3600 s, so the sum is finite and exact enough to compare.
        guard totalSeconds <= SequenceSpec.maximumSeconds else {
            throw SpecError(field: "images", message: "\(imageCount) images make a video of \(Int(totalSeconds.rounded(.up))) s; "
                + "a video lasts at most \(Int(SequenceSpec.maximumSeconds)) s (3 hours): use fewer images or shorter holds and durations")
        }
        guard let first = segments.first else { return }
        for (pair, segment) in segments.enumerated().dropFirst() {
            for field in SequenceSpec.sharedFields where segment.text(of: field) != first.text(of: field) {
                throw SpecError(field: field.rawValue,
                                message: "transition \(pair) has \(segment.text(of: field)) but the first has \(first.text(of: field)); every transition of one video shares it")
            }
        }
    }
}
