// Stills decode on the queue they are given: on `jobs` serial decoders, a long sequence never
// has more than `jobs` decodes in flight (each one a full-size picture or two), and each
// decoder takes its stills in order.

import Dispatch
import Glibc
import SliceKit
import SliceMedia
import Synchronization
import Testing
@testable import SlicePipeline

@Suite struct DeferredStillTests {
    @Test func serialDecodersBoundTheDecodesInFlight() {
        let decoders = (0..<2).map { DispatchQueue(label: "test.decode.\($0)") }
        let inFlight = Atomic<Int>(0), peak = Atomic<Int>(0)
        let order = Mutex<[Int]>([])
        let stills = (0..<8).map { index in
            DeferredStill(on: decoders[index % 2]) { () throws(MediaError) in
                let now = inFlight.add(1, ordering: .relaxed).newValue
                _ = peak.max(now, ordering: .relaxed)
                usleep(5_000)
                order.withLock { $0.append(index) }
                inFlight.subtract(1, ordering: .relaxed)
                return PlanarImage(width: 2, height: 2, layout: .yuv444p)
            }
        }
        for still in stills {
            guard case .success = still.wait(unless: Cancellation()) else { Issue.record("a still failed"); return }
        }
        #expect(peak.load(ordering: .relaxed) <= 2)
        let finished = order.withLock { $0 }
        #expect(finished.filter { $0 % 2 == 0 } == [0, 2, 4, 6] && finished.filter { $0 % 2 == 1 } == [1, 3, 5, 7])
    }

    @Test func aStopEndsTheWaitForAStillStillDecoding() {
        // A decode that cannot finish until the test lets it: the wait must end on the stop,
        // not on the decode, whether the decode has started yet or not (a busy machine may not
        // have started it). The decode gives up after a minute, only so that a broken wait
        // fails this test instead of hanging the suite.
        let release = DispatchSemaphore(value: 0)
        let still = DeferredStill(on: DispatchQueue(label: "test.decode")) { () throws(MediaError) in
            _ = release.wait(timeout: .now() + .seconds(60))
            return PlanarImage(width: 2, height: 2, layout: .yuv444p)
        }
        let cancellation = Cancellation()
        cancellation.cancel(signal: SIGTERM)
        let outcome = still.wait(unless: cancellation)
        release.signal()
        guard case .failure(let error) = outcome else {
            Issue.record("the wait outlasted the stop: it returned the decoded still")
            return
        }
        #expect(error.message.contains("the run was stopped"))
    }
}
