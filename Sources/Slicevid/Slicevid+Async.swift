// The library in server-side Swift's terms: `async` calls that Task cancellation stops, and a run
// whose events arrive as an `AsyncSequence`. Underneath is the same engine the blocking calls
// (and the command line) use, run on a thread of its own so that a render, which blocks for its
// whole length, never holds one of the cooperative pool's few threads.

import Foundation
import SlicePipeline
import Synchronization

extension Slicevid {
    /// Renders one clip; cancelling the calling Task stops it (`.cancelled`, nothing left
    /// under an output's name).
    public static func make(_ request: MakeRequest) async throws(SlicevidError) -> MakeReport {
        try await start(request).report
    }

    /// Starts rendering one clip and returns at once: iterate the run for its events, await
    /// `report` for its end. Stopping the iteration's Task, or `cancel()`, stops the render.
    public static func start(_ request: MakeRequest) -> SlicevidRun<MakeEvent, MakeReport> {
        SlicevidRun { cancellation, events throws(SlicevidError) in
            try make(request, cancellation: cancellation, events: events)
        }
    }

    /// Runs a batch; cancelling the calling Task stops it (finished jobs are kept and the
    /// report says which were interrupted or pending).
    public static func batch(_ request: BatchRequest) async throws(SlicevidError) -> BatchReport {
        try await start(request).report
    }

    /// Starts a batch and returns at once: iterate the run for its events (ending with
    /// `.finished`), await `report` for its end.
    public static func start(_ request: BatchRequest) -> SlicevidRun<BatchEvent, BatchReport> {
        SlicevidRun { cancellation, events throws(SlicevidError) in
            try batch(request, cancellation: cancellation, events: events)
        }
    }
}

/// A render or a batch under way: an `AsyncSequence` of its events, then its report.
///
/// The events are buffered (the newest 1,024 at most, so a run nobody listens to holds little);
/// the sequence ends when the run does. Cancelling the Task that iterates it cancels the run
/// (the iteration then ends); so does `cancel()`, and cancelling a Task awaiting `report`.
/// Merely leaving the loop early does not: the run goes on, and `report` still tells its end.
public final class SlicevidRun<Event: Sendable, Report: Sendable>: AsyncSequence, Sendable {
    public typealias Element = Event

    /// The events in order; checks its Task's cancellation before each one.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var events: AsyncStream<Event>.Iterator
        let cancellation: Cancellation

        public mutating func next() async -> Event? {
            // Buffered events are handed over without suspending, so the stream alone would
            // not notice a cancelled consumer until the run ended.
            if Task.isCancelled {
                cancellation.cancel()
                return nil
            }
            return await events.next()
        }
    }

    private let events: AsyncStream<Event>
    private let cancellation = Cancellation()
    private let outcome = Mutex<Outcome>(Outcome())

    /// The result once known, and the callers waiting for it.
    private struct Outcome {
        var result: Result<Report, SlicevidError>?
        var waiting: [CheckedContinuation<Result<Report, SlicevidError>, Never>] = []
    }

    /// Starts `body` on a thread of its own, with this run's cancellation and event sink.
    init(_ body: @escaping @Sendable (Cancellation, @escaping @Sendable (Event) -> Void) throws(SlicevidError) -> Report) {
        let (events, sink) = AsyncStream<Event>.makeStream(bufferingPolicy: .bufferingNewest(1024))
        self.events = events
        let cancellation = cancellation
        sink.onTermination = { termination in
            if case .cancelled = termination { cancellation.cancel() }
        }
        let thread = Thread { [self] in
            let result: Result<Report, SlicevidError>
            do throws(SlicevidError) {
                result = .success(try body(cancellation) { sink.yield($0) })
            } catch {
                result = .failure(error)
            }
            sink.finish()
            let waiting = outcome.withLock { outcome in
                outcome.result = result
                defer { outcome.waiting = [] }
                return outcome.waiting
            }
            for continuation in waiting { continuation.resume(returning: result) }
        }
        thread.name = "slicevid.run"
        thread.start()
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(events: events.makeAsyncIterator(), cancellation: cancellation)
    }

    /// Asks the run to stop as soon as it can; `report` then throws `.cancelled` (a batch's
    /// report says `.cancelled` instead).
    public func cancel() {
        cancellation.cancel()
    }

    /// Waits for the run to end. Cancelling the waiting Task cancels the run.
    /// - Throws: the run's `SlicevidError`.
    public var report: Report {
        get async throws(SlicevidError) {
            let result = await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Result<Report, SlicevidError>, Never>) in
                    let known = outcome.withLock { outcome -> Result<Report, SlicevidError>? in
                        if outcome.result == nil { outcome.waiting.append(continuation) }
                        return outcome.result
                    }
                    if let known { continuation.resume(returning: known) }
                }
            } onCancel: {
                cancellation.cancel()
            }
            return try result.get()
        }
    }
}
