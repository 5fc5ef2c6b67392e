// A still decoding on a queue of its own while the render starts: waited for once, and the
// wait (not the decode) ends at once when the run is stopped.

import Dispatch
import SliceKit
import SliceMedia
import Synchronization

/// A still being decoded on another thread; `wait()` blocks until it is ready or failed.
final class DeferredStill: Sendable {
    private let done = DispatchGroup()
    private let result = Mutex<Result<PlanarImage, MediaError>?>(nil)

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
