// Renders whose encoders share process state take turns. SVT-AV1 sets up its process-wide
// tables in every open, under instances already encoding (`VideoCodec.sharesProcessState`), so
// a job opening one while another job's encoded crashed the process. A render with such an
// output waits for any other to end first; within one render its encoders open together, before
// any encodes, which is safe. Jobs of other codecs never wait.

import Dispatch
import SliceMedia
import Synchronization

/// The turn of renders that use an encoder sharing process state.
enum EncoderTurns {
    /// Whether a render holds the turn.
    private static let taken = Mutex(false)
    /// Signalled when the turn is given back, to wake a waiting render.
    private static let given = DispatchSemaphore(value: 0)
    /// How many renders are waiting for the turn (for tests).
    static let waiting = Atomic(0)

    /// Runs `body` at once if `encoders` has none that shares process state, otherwise once no
    /// other render holding the turn is running, holding it meanwhile.
    /// - Throws: `body`'s error, or the interruption if `cancellation` stops the run while it
    ///   waits.
    static func run<T>(encoders: [String], cancellation: Cancellation,
                       _ body: () throws(SlicevidError) -> T) throws(SlicevidError) -> T {
        guard encoders.contains(where: VideoCodec.sharesProcessState(encoder:)) else { return try body() }
        let take = {
            taken.withLock { taken in
                defer { taken = true }
                return !taken
            }
        }
        if !take() {
            waiting.add(1, ordering: .relaxed)
            defer { waiting.subtract(1, ordering: .relaxed) }
            repeat {
                // Woken when the turn is given back; a signal here ends the wait within 50 ms.
                if cancellation.isCancelled { throw MakeJob.interrupted(cancellation) }
                _ = given.wait(timeout: .now() + .milliseconds(50))
            } while !take()
        }
        defer {
            taken.withLock { $0 = false }
            given.signal()
        }
        return try body()
    }
}
