// A flag the render loop polls: set by SIGINT/SIGTERM, by a caller that stops the run (a
// cancelled Task), or by the render's own first error. The first reason wins, and says what the
// run ends with: the interruption for a stop, the error for a failure.

import Glibc
import SliceKit
import Synchronization

/// The name a user knows a stop signal by (`SIGINT`, `SIGTERM`), for messages and reports.
package func signalName(_ signal: Int32) -> String {
    switch signal {
    case SIGINT: "SIGINT"
    case SIGTERM: "SIGTERM"
    default: "signal \(signal)"
    }
}

/// Why a run stopped before its end, when it was asked to: a stop signal, or the program that
/// called the library (a cancelled Task, `SlicevidRun.cancel()`, a `Cancellation` cancelled
/// without a signal), which is never worded as a signal nobody sent.
package enum Stop: Sendable, Equatable {
    case signal(Int32)
    case caller

    /// `interrupted by SIGINT`, `cancelled by the caller`: how messages and reports say it.
    package var words: String {
        switch self {
        case .signal(let signal): "interrupted by \(signalName(signal))"
        case .caller: "cancelled by the caller"
        }
    }

    /// The category an error of a run stopped this way has.
    package var category: SlicevidError.Category {
        switch self {
        case .signal(let signal): .interrupted(signal: signal)
        case .caller: .cancelled
        }
    }

    /// The signal, if a signal stopped the run.
    package var signal: Int32? {
        if case .signal(let signal) = self { return signal }
        return nil
    }
}

/// Requests that a running render stop as soon as it can.
public final class Cancellation: Sendable {
    private let flag = Atomic<Int32>(0)
    private let parent: Cancellation?

    /// - Parameter parent: a wider cancellation (a batch's signals) that also stops this one;
    ///   cancelling this one (a job's first error) leaves the parent running.
    public init(parent: Cancellation? = nil) {
        self.parent = parent
    }

    /// The flag's value for a stop without a signal, and for the render's own failure.
    private static let stopped: Int32 = -1, failedWithin: Int32 = -2

    /// Asks the render to stop; `signal` is the signal number that caused it, or 0.
    public func cancel(signal: Int32 = 0) {
        // The first reason wins: an error after SIGTERM is still a SIGTERM exit.
        _ = flag.compareExchange(expected: 0, desired: signal == 0 ? Self.stopped : signal, ordering: .relaxed)
    }

    /// Stops the render because part of it failed (a sink, a still): its error is what the run
    /// ends with, unless a stop came first.
    package func fail() {
        _ = flag.compareExchange(expected: 0, desired: Self.failedWithin, ordering: .relaxed)
    }

    /// Whether the render stopped for its own failure, not because it was asked to.
    package var hasFailed: Bool { flag.load(ordering: .relaxed) == Self.failedWithin && parent?.isCancelled != true }

    /// Whether it was asked to stop (a signal or a caller), here or by the parent.
    package var isStopped: Bool { isCancelled && !hasFailed }

    /// Whether a stop was requested, here or by the parent.
    public var isCancelled: Bool { flag.load(ordering: .relaxed) != 0 || parent?.isCancelled == true }

    /// The signal that requested the stop, here or at the parent, if one did.
    public var signal: Int32? {
        let value = flag.load(ordering: .relaxed)
        return value > 0 ? value : parent?.signal
    }

    /// Why the run was asked to stop (a signal, here or at the parent, or the caller); nil when
    /// it was not, or stopped only for its own failure.
    package var stop: Stop? {
        if let signal { return .signal(signal) }
        return isStopped ? .caller : nil
    }

    /// The error a run asked to stop ends with: `interrupted by SIGINT` or `cancelled by the
    /// caller`, then `what` (`; no output was written`).
    package func stopError(_ what: ErrorText) -> SlicevidError {
        let stop = stop ?? .caller
        return SlicevidError(stop.category, "\(stop.words)\(what)")
    }
}
