// Job cancellations under a batch's: a render error stops its job only, a signal stops every job.

import Foundation
import Testing
@testable import SlicePipeline

@Suite(.timeLimit(.minutes(10))) struct CancellationTests {
    private func render(_ cancellation: Cancellation, sink: RecordingSink) throws {
        _ = try RenderLoop(frameCount: 40, jobs: 2, window: 4)
            .run(pool: FramePool(capacity: 4, width: 8, height: 4, layout: .yuv420p), sinks: [sink],
                 cancellation: cancellation, render: { _, _ in })
    }

    @Test func aJobsErrorLeavesTheBatchRunning() throws {
        let batch = Cancellation()
        #expect(throws: SlicevidError.self) { try render(Cancellation(parent: batch), sink: RecordingSink(failAt: 5)) }
        #expect(!batch.isCancelled)
        let next = RecordingSink()
        try render(Cancellation(parent: batch), sink: next)
        #expect(next.finished && next.indices.count == 40)
    }

    @Test func aSignalToTheBatchStopsItsJobs() {
        let batch = Cancellation()
        let job = Cancellation(parent: batch)
        batch.cancel(signal: SIGTERM)
        #expect(job.isCancelled)
        #expect(job.signal == SIGTERM)
        #expect(throws: RenderCancelled.self) { try render(job, sink: RecordingSink()) }

        // An error is not a signal; a signal that follows it is still reported.
        let other = Cancellation()
        let failed = Cancellation(parent: other)
        failed.cancel()
        #expect(failed.signal == nil)
        other.cancel(signal: SIGINT)
        #expect(failed.signal == SIGINT)
    }
}
