// A still decoding on a queue of its own while the render starts: waited for once, and the
// wait (not the decode) ends at once when the run is stopped. One decode gives the still in
// every layout the render draws in.

import Dispatch
import SliceKit
import SliceMedia
import Synchronization

/// A still being decoded on another thread; `wait()` blocks until it is ready or failed.
final class DeferredStill: Sendable {
    private let done = DispatchGroup()
    private let result = Mutex<Result<[PlanarImage], MediaError>?>(nil)

    /// Starts `load` on `queue` (at once on a global queue by default): the still in each of
    /// the render's layouts, in the order of its passes.
    init(on queue: DispatchQueue = .global(qos: .userInitiated), pictures load: @escaping @Sendable () throws(MediaError) -> [PlanarImage]) {
        done.enter()
        queue.async { [self] in
            let outcome = Result { () throws(MediaError) in try load() }
            result.withLock { $0 = outcome }
            done.leave()
        }
    }

    /// Starts `load` of the still in one layout.
    convenience init(on queue: DispatchQueue = .global(qos: .userInitiated), _ load: @escaping @Sendable () throws(MediaError) -> PlanarImage) {
        self.init(on: queue, pictures: { () throws(MediaError) in [try load()] })
    }

    /// The decoded still in each layout, or why it could not be decoded; or, as soon as
    /// `cancellation` is set, a failure saying the run was stopped (the decode itself runs on
    /// until it ends).
    func wait(unless cancellation: Cancellation) -> Result<[PlanarImage], MediaError> {
        // A decode cannot be interrupted, but the wait can: a signal is answered within a tick.
        while done.wait(timeout: .now() + .milliseconds(50)) == .timedOut {
            if cancellation.isCancelled {
                return .failure(MediaError(.inputInvalid, subject: "still", message: "not waited for: the run was stopped"))
            }
        }
        return result.withLock { $0! }
    }

    /// Like `wait(unless:)`, for the still in the layout of place `picture`.
    func wait(unless cancellation: Cancellation, picture: Int) -> Result<PlanarImage, MediaError> {
        wait(unless: cancellation).map { $0[picture] }
    }

    /// The outcome if decoding has ended, without waiting.
    func peek() -> Result<[PlanarImage], MediaError>? {
        result.withLock { $0 }
    }
}
