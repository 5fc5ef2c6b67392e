// A thread of its own for one output's encoder: it opens the encoder, takes its frames in order
// and flushes it, so nothing about the encoder depends on which of Dispatch's worker threads
// happened to run it. Its floating-point environment is reset to the default first: libx264
// writes another stream in another rounding mode, and a thread inherits its creator's mode
// (as Dispatch's workers inherit whatever thread spawned them).

import CPlatform
import Dispatch
import Foundation
import Synchronization

/// A serial queue of work on one dedicated thread.
final class SinkThread: Sendable {
    private struct State {
        var work: [@Sendable () -> Void] = []
        var stopping = false
    }

    private let state = Mutex(State())
    /// Counts the work waiting (and one more once stopping), so the thread sleeps when idle.
    private let waiting = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)

    /// Starts the thread; `name` shows in debuggers and `top -H`.
    init(name: String) {
        let thread = Thread { [self] in serve() }
        thread.name = name
        // Encoders recurse deeply in places (x265's analysis, libaom's RD search): give them
        // the stack a main thread gets.
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// Runs `work` on the thread after everything queued before it.
    func async(_ work: @escaping @Sendable () -> Void) {
        state.withLock { $0.work.append(work) }
        waiting.signal()
    }

    /// Runs `work` on the thread and waits for its result.
    func sync<T: Sendable, E: Error>(_ work: @escaping @Sendable () throws(E) -> T) throws(E) -> T {
        let result = Mutex<Result<T, E>?>(nil)
        let finished = DispatchSemaphore(value: 0)
        async {
            result.withLock { $0 = Result { () throws(E) in try work() } }
            finished.signal()
        }
        finished.wait()
        return try result.withLock { $0! }.get()
    }

    /// Lets the thread end once the work queued so far has run.
    /// - Parameter wait: whether to wait for that; never from the thread itself.
    func stop(wait: Bool = true) {
        let first = state.withLock { state in
            defer { state.stopping = true }
            return !state.stopping
        }
        guard first else { return }
        waiting.signal()
        if wait { done.wait() }
    }

    private func serve() {
        // The rule that keeps concurrent encodes byte-reproducible: see the file's header.
        _ = cplatform_default_floating_point()
        while true {
            waiting.wait()
            let next = state.withLock { state -> (@Sendable () -> Void)? in
                state.work.isEmpty ? nil : state.work.removeFirst()
            }
            guard let next else {
                if state.withLock({ $0.stopping && $0.work.isEmpty }) { break }
                continue
            }
            next()
        }
        done.signal()
    }
}
