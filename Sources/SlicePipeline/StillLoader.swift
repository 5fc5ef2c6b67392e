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
    static func load(_ path: String?, role: Int, spec: TransitionSpec, layout: PixelLayout) throws(MediaError) -> PlanarImage {
        let picture: RGBAImage
        if let path {
            picture = try StillDecoder.load(path: path, width: spec.width, height: spec.height,
                                            fit: spec.fit, background: spec.background)
        } else if role == 0 {
            picture = DemoCards.source(width: spec.width, height: spec.height)
        } else {
            picture = DemoCards.destination(width: spec.width, height: spec.height)
        }
        return try StillConverter.planar(picture, layout: layout)
    }
}

/// A still being decoded on another thread; `wait()` blocks until it is ready or failed.
final class DeferredStill: Sendable {
    private let done = DispatchGroup()
    private let result = Mutex<Result<PlanarImage, MediaError>?>(nil)

    /// Starts `load` at once on a global queue.
    init(_ load: @escaping @Sendable () throws(MediaError) -> PlanarImage) {
        done.enter()
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            let outcome = Result { () throws(MediaError) in try load() }
            result.withLock { $0 = outcome }
            done.leave()
        }
    }

    /// The decoded still, or why it could not be decoded.
    func wait() -> Result<PlanarImage, MediaError> {
        done.wait()
        return result.withLock { $0! }
    }
}

/// Renders frames of one transition whose destination may still be decoding.
///
/// Hold frames are copies of the source and never wait; every other frame waits for the
/// destination once. If the destination fails, the run is cancelled and `failure` says why.
final class TransitionRenderer: Sendable {
    private let plan: FramePlan
    private let source: PlanarImage
    private let destination: DeferredStill
    private let compositor = Mutex<MotionBlur?>(nil)
    private let cancellation: Cancellation
    private let onDestinationReady: @Sendable () -> Void

    /// - Parameter onDestinationReady: called once, before the first frame that shows the
    ///   destination is drawn: from then on the run can no longer fail on its inputs.
    init(plan: FramePlan, source: PlanarImage, destination: DeferredStill, cancellation: Cancellation,
         onDestinationReady: @escaping @Sendable () -> Void) {
        self.plan = plan
        self.source = source
        self.destination = destination
        self.cancellation = cancellation
        self.onDestinationReady = onDestinationReady
    }

    /// Why the destination could not be used, once rendering needed it.
    var failure: MediaError? {
        if case .failure(let error) = destination.wait() { return error }
        return nil
    }

    /// Draws frame `index` into `frame`.
    func render(_ index: Int, into frame: PlanarImage) {
        if plan.showsSourceOnly(frame: index) {
            frame.copy(from: source)
            return
        }
        guard let compositor = readyCompositor() else {
            cancellation.cancel()
            return
        }
        compositor.render(frame: index, into: frame)
    }

    private func readyCompositor() -> MotionBlur? {
        if let ready = compositor.withLock({ $0 }) { return ready }
        guard case .success(let still) = destination.wait() else { return nil }
        return compositor.withLock { cached in
            if cached == nil {
                cached = MotionBlur(Compositor(plan: plan, source: source, destination: still))
                onDestinationReady()
            }
            return cached
        }
    }
}
