// A signal stops frames already queued for an encoder: whether to encode a frame is asked when
// its turn comes on the sink's thread, not when it was handed over.

import Dispatch
import Foundation
import SliceKit
import Synchronization
import Testing
@testable import SlicePipeline

/// Holds frame 0 until released, telling the test when it got there; records the rest.
private final class GateSink: FrameSink, @unchecked Sendable {
    // @unchecked: `indices` is touched only on the sink's thread, and read after drain().
    let name = "gate"
    let reached = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    var indices: [Int] = []

    func consume(_ frame: PlanarImage, index: Int) throws {
        if index == 0 {
            reached.signal()
            release.wait()
        }
        indices.append(index)
    }

    func finish() throws {}
}

@Suite(.timeLimit(.minutes(10))) struct QueuedFrameCancellationTests {
    @Test func framesQueuedBeforeASignalAreNotEncoded() {
        let sink = GateSink()
        let runner = SinkRunner(sink, index: 0)
        let cancellation = Cancellation()
        let frame = PlanarImage(width: 8, height: 4, layout: .yuv420p)
        // Six frames queued while the sink is still busy with the first.
        for index in 0..<6 {
            runner.consume(frame, index: index, skip: { cancellation.isCancelled }, onError: { _ in }, done: {})
        }
        sink.reached.wait()
        cancellation.cancel(signal: SIGTERM)
        sink.release.signal()
        runner.drain()
        #expect(sink.indices == [0])
    }
}
