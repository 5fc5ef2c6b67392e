// Stills are decoded once, and the destination while the encoders already work: hold frames
// need only the source, so the first second of a clip is encoding while the second still is
// still being decoded. That keeps a whole run encoder-bound even for short clips.

import Dispatch
import SliceKit
import SliceMedia
import Synchronization

/// Decodes and fits the stills of one transition into the render layout.
enum StillLoader {
    /// The outgoing (0) or incoming (1) still: decoded from `path`, or a demo card without one.
    /// Decoding stops soon after `cancellation` is set (a signal, another still's failure).
    static func load(_ path: String?, role: Int, spec: TransitionSpec, layout: PixelLayout,
                     cancellation: Cancellation) throws(MediaError) -> PlanarImage {
        if let path {
            return try StillDecoder.loadPlanar(path: path, width: spec.width, height: spec.height,
                                               fit: spec.fit, background: spec.background, layout: layout,
                                               isCancelled: { cancellation.isCancelled })
        }
        let card = role == 0 ? DemoCards.source(width: spec.width, height: spec.height)
                             : DemoCards.destination(width: spec.width, height: spec.height)
        return card.planar(layout)
    }
}

/// A still being decoded on another thread; `wait()` blocks until it is ready or failed.
final class DeferredStill: Sendable {
    private let done = DispatchGroup()
    private let result = Mutex<Result<PlanarImage, MediaError>?>(nil)

    /// A still that is already decoded (an image shown again later in a sequence).
    init(ready still: PlanarImage) {
        result.withLock { $0 = .success(still) }
    }

    /// Starts `load` on `queue` (at once on a global queue by default).
    init(on queue: DispatchQueue = .global(qos: .userInitiated), _ load: @escaping @Sendable () throws(MediaError) -> PlanarImage) {
        done.enter()
        queue.async { [self] in
            let outcome = Result { () throws(MediaError) in try load() }
            result.withLock { $0 = outcome }
            done.leave()
        }
    }

    /// The decoded still, or why it could not be decoded; or, as soon as `cancellation` is
    /// set, a failure saying the run was stopped (the decode itself runs on until it ends).
    func wait(unless cancellation: Cancellation) -> Result<PlanarImage, MediaError> {
        // A decode cannot be interrupted, but the wait can: a signal is answered within a tick.
        while done.wait(timeout: .now() + .milliseconds(50)) == .timedOut {
            if cancellation.isCancelled {
                return .failure(MediaError(.inputInvalid, subject: "still", message: "not waited for: the run was stopped"))
            }
        }
        return result.withLock { $0! }
    }

    /// The outcome if decoding has ended, without waiting.
    func peek() -> Result<PlanarImage, MediaError>? {
        result.withLock { $0 }
    }
}

/// Renders the frames of a sequence (or of one transition) whose later stills may still be
/// decoding.
///
/// The first still's hold frames are copies of it and never wait; every other frame waits,
/// once, for all the stills. If one fails, the run is cancelled and `failure` says why.
final class SequenceRenderer: Sendable {
    private let plan: SequencePlan
    private let first: PlanarImage
    private let rest: [DeferredStill]
    private let compositor = Mutex<SequenceCompositor?>(nil)
    private let cancellation: Cancellation
    private let onStillsReady: @Sendable () -> Void

    /// - Parameters:
    ///   - first: the first image's still, decoded.
    ///   - rest: the other images' stills, in order, decoding.
    ///   - onStillsReady: called once, before the first frame that needs a later still is
    ///     drawn: from then on the run can no longer fail on its inputs.
    init(plan: SequencePlan, first: PlanarImage, rest: [DeferredStill], cancellation: Cancellation,
         onStillsReady: @escaping @Sendable () -> Void) {
        self.plan = plan
        self.first = first
        self.rest = rest
        self.cancellation = cancellation
        self.onStillsReady = onStillsReady
    }

    /// Why a still could not be used: the first failed one in image order among those whose
    /// decoding has ended. Never waits, so a signal is answered at once.
    var failure: MediaError? {
        for still in rest {
            if case .failure(let error) = still.peek() { return error }
        }
        return nil
    }

    /// Frame `index`: the first still itself during its hold (shared, not copied), the last
    /// still itself once the sequence has settled, otherwise drawn into `buffer`.
    func frame(_ index: Int, buffer: PlanarImage) -> PlanarImage {
        let location = plan.locate(frame: index)
        if location.segment == 0, plan.segments[0].showsSourceOnly(frame: location.frame) { return first }
        guard let compositor = readyCompositor() else {
            cancellation.cancel()
            return buffer
        }
        if location.segment == plan.segments.count - 1,
           plan.segments[location.segment].showsDestinationOnly(frame: location.frame),
           let last = compositor.lastStill {
            return last
        }
        compositor.render(frame: index, into: buffer)
        return buffer
    }

    private func readyCompositor() -> SequenceCompositor? {
        if let ready = compositor.withLock({ $0 }) { return ready }
        var stills = [first]
        for still in rest {
            guard case .success(let picture) = still.wait(unless: cancellation) else { return nil }
            stills.append(picture)
        }
        // The announcement is made outside the lock the other render threads are waiting on.
        let (ready, first) = compositor.withLock { cached in
            if let cached { return (cached, false) }
            let made = SequenceCompositor(plan: plan, stills: stills)
            cached = made
            return (made, true)
        }
        if first { onStillsReady() }
        return ready
    }
}
