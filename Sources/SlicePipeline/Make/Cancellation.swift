// A flag the render loop polls: set by SIGINT/SIGTERM or by the first error.

import Glibc
import Synchronization

/// The name a user knows a stop signal by (`SIGINT`, `SIGTERM`), for messages and reports.
package func signalName(_ signal: Int32) -> String {
    switch signal {
    case SIGINT: "SIGINT"
    case SIGTERM: "SIGTERM"
    default: "signal \(signal)"
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

    /// Asks the render to stop; `signal` is the signal number that caused it, or 0.
    public func cancel(signal: Int32 = 0) {
        // The first reason wins: an error after SIGTERM is still a SIGTERM exit.
        _ = flag.compareExchange(expected: 0, desired: signal == 0 ? -1 : signal, ordering: .relaxed)
    }

    /// Whether a stop was requested, here or by the parent.
    public var isCancelled: Bool { flag.load(ordering: .relaxed) != 0 || parent?.isCancelled == true }

    /// The signal that requested the stop, here or at the parent, if one did.
    public var signal: Int32? {
        let value = flag.load(ordering: .relaxed)
        return value > 0 ? value : parent?.signal
    }
}
