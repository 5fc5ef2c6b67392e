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
    /// The turn: one render at a time holds it.
    private static let turn = DispatchSemaphore(value: 1)
    /// How many renders are waiting for the turn (for tests).
    static let waiting = Atomic(0)

    /// Runs `body` at once if `encoders` has none that shares process state, otherwise once no
    /// other render holding the turn is running, holding it meanwhile.
    /// - Throws: `body`'s error, or the interruption if `cancellation` stops the run while it
    ///   waits.
    static func run<T>(encoders: [String], cancellation: Cancellation,
                       _ body: () throws(SlicevidError) -> T) throws(SlicevidError) -> T {
        guard encoders.contains(where: VideoCodec.sharesProcessState(encoder:)) else { return try body() }
        if turn.wait(timeout: .now()) == .timedOut {
            waiting.add(1, ordering: .relaxed)
            defer { waiting.subtract(1, ordering: .relaxed) }
            // A stop (a signal, a cancelled Task) ends the wait within 50 ms.
            while turn.wait(timeout: .now() + .milliseconds(50)) == .timedOut {
                if cancellation.isCancelled { throw MakeJob.interrupted(cancellation) }
            }
        }
        defer { turn.signal() }
        return try body()
    }
}
