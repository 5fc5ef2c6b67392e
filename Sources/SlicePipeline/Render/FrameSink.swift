// Where rendered frames go: an encoder + muxer per output, each on a thread of its own, so one
// render feeds several outputs at once.

import Dispatch
import SliceKit
import Synchronization

/// A consumer of rendered frames in presentation order.
///
/// Called from one thread only (its `SinkRunner`'s), so implementations need no locking.
package protocol FrameSink: AnyObject {
    /// Consumes frame `index`. The buffer is only valid during the call.
    func consume(_ frame: PlanarImage, index: Int) throws
    /// Called once after the last frame, only if no error occurred anywhere.
    func finish() throws
    /// The frames the sink does something with; it is handed the others too and skips them.
    var wanted: FramesWanted { get }
}

extension FrameSink {
    package var wanted: FramesWanted { .all }
}

/// The frames a sink uses (a poster's one, a GIF's subsample, every frame): a render pass
/// whose sinks use none of a frame's need not draw it.
package struct FramesWanted: Sendable {
    private let test: @Sendable (Int) -> Bool

    /// Frames whose index passes `test`.
    package init(_ test: @escaping @Sendable (Int) -> Bool) { self.test = test }

    /// Every frame.
    package static let all = FramesWanted { _ in true }

    /// Whether frame `index` is used.
    package func contains(_ index: Int) -> Bool { test(index) }
}

/// Runs one sink on a thread of its own (`SinkThread`) and remembers its first error.
final class SinkRunner: @unchecked Sendable {
    // @unchecked: `sink` and `failed` are used only on `thread`, which runs one closure at a
    // time, in order; `wanted` is written once, before `init` returns.
    let thread: SinkThread
    private var sink: (any FrameSink)?
    private var failed = false
    /// The frames the sink uses, read once when it was made (on its thread, before `init`
    /// returns; never written again).
    private(set) var wanted = FramesWanted.all

    /// Runs `sink`, made by the caller, on a thread of its own.
    init(_ sink: any FrameSink, index: Int) {
        thread = SinkThread(name: "slicevid.sink.\(index)")
        self.sink = sink
        wanted = sink.wanted
    }

    /// Makes the sink on its own thread, so an encoder it opens is opened (and its own threads
    /// created) there, in the thread's default floating-point environment.
    /// - Throws: what `make` throws; the thread is then let go.
    init(index: Int, make: @escaping @Sendable () throws(SlicevidError) -> any FrameSink) throws(SlicevidError) {
        thread = SinkThread(name: "slicevid.sink.\(index)")
        do {
            try thread.sync { [self] () throws(SlicevidError) in
                let made = try make()
                sink = made
                wanted = made.wanted
            }
        } catch {
            thread.stop(wait: false)
            throw error
        }
    }

    // The thread ends once its queue is empty; not waited for here, since the last reference
    // may be dropped on that very thread.
    deinit { thread.stop(wait: false) }

    /// Consumes a frame on the sink's thread, unless `skip` says otherwise when its turn
    /// comes (asked then, not when it is queued: a signal must stop frames already waiting);
    /// `done` runs afterwards, on that thread.
    func consume(_ frame: PlanarImage, index: Int, skip: @escaping @Sendable () -> Bool,
                 onError: @escaping @Sendable (any Error) -> Void, done: @escaping @Sendable () -> Void) {
        thread.async { [self] in
            if !failed, let sink, !skip() {
                do {
                    try sink.consume(frame, index: index)
                } catch {
                    failed = true
                    onError(error)
                }
            }
            done()
        }
    }

    /// Waits until every frame handed over so far has been consumed.
    func drain() {
        thread.sync {}
    }

    /// Finishes the sink on its thread; `then` hears the error, if any, on that thread.
    func finish(then: @escaping @Sendable ((any Error)?) -> Void) {
        thread.async { [self] in
            guard !failed, let sink else { return then(nil) }
            do {
                try sink.finish()
                then(nil)
            } catch {
                then(error)
            }
        }
    }
}
