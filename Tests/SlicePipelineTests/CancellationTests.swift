// Job cancellations under a batch's: a render error stops its job only, a signal stops every job.

import Foundation
import SliceKit
import Testing
@testable import SlicePipeline

@Suite(.timeLimit(.minutes(10))) struct CancellationTests {
    private func render(_ cancellation: Cancellation, sink: any FrameSink) throws {
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

    /// A sink that is stopped by its caller at frame 3 and then fails, as an output whose
    /// reader was told to go away does.
    private final class StoppedThenFailingSink: FrameSink, @unchecked Sendable {
        let cancellation: Cancellation
        init(_ cancellation: Cancellation) { self.cancellation = cancellation }
        func consume(_ frame: PlanarImage, index: Int) throws {
            guard index == 3 else { return }
            cancellation.cancel()
            throw SlicevidError(.outputFailed, "the reader went away")
        }
        func finish() throws {}
    }

    @Test("a caller's stop (a cancelled Task) wins over the errors it provokes, as a signal does")
    func aStopWinsOverTheErrorItProvokes() {
        let stop = Cancellation()
        #expect(throws: RenderCancelled.self) { try render(stop, sink: StoppedThenFailingSink(stop)) }
    }

    @Test("the first reason says how the run ends: a failure is the render's, a stop the caller's")
    func theFirstReasonDecides() {
        let failed = Cancellation()
        failed.fail()
        failed.cancel(signal: SIGTERM)
        #expect(failed.isCancelled && failed.hasFailed && !failed.isStopped && failed.signal == nil)
        let stopped = Cancellation()
        stopped.cancel()
        stopped.fail()
        #expect(stopped.isCancelled && stopped.isStopped && !stopped.hasFailed)
        // A batch's signal stops a job that failed: the signal is what the run ends with.
        let batch = Cancellation()
        let job = Cancellation(parent: batch)
        job.fail()
        batch.cancel(signal: SIGINT)
        #expect(job.isStopped && !job.hasFailed && job.signal == SIGINT)
    }
}
