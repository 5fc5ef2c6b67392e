// Where rendered frames go: an encoder + muxer per output, each on its own serial queue, so one
// render feeds several outputs at once.

import Dispatch
import SliceKit
import Synchronization

/// A consumer of rendered frames in presentation order.
///
/// Called from one serial queue only, so implementations need no locking.
public protocol FrameSink: AnyObject {
    /// A short name for messages (usually the output path).
    var name: String { get }
    /// Consumes frame `index`. The buffer is only valid during the call.
    func consume(_ frame: PlanarImage, index: Int) throws
    /// Called once after the last frame, only if no error occurred anywhere.
    func finish() throws
}

/// Runs one sink on its own serial queue and remembers its first error.
final class SinkRunner: @unchecked Sendable {
    // @unchecked: `sink` and `failed` are used only on `queue`, a serial queue.
    let queue: DispatchQueue
    private let sink: any FrameSink
    private var failed = false

    init(_ sink: any FrameSink, index: Int) {
        self.sink = sink
        queue = DispatchQueue(label: "slicevid.sink.\(index)")
    }

    var name: String { sink.name }

    /// Consumes a frame on the sink's queue; `done` runs afterwards, on that queue.
    func consume(_ frame: PlanarImage, index: Int, skip: Bool,
                 onError: @escaping @Sendable (any Error) -> Void, done: @escaping @Sendable () -> Void) {
        queue.async { [self] in
            if !skip && !failed {
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

    /// Finishes the sink on its queue and waits.
    func finish() throws {
        try queue.sync {
            if !failed { try sink.finish() }
        }
    }
}

/// Counts down the sinks that still have to consume one frame; the last one returns the
/// buffer to the pool.
final class FrameRelease: Sendable {
    private let remaining: Atomic<Int>
    private let release: @Sendable () -> Void

    init(consumers: Int, release: @escaping @Sendable () -> Void) {
        remaining = Atomic(consumers)
        self.release = release
    }

    func consumed() {
        if remaining.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 { release() }
    }
}
