// Work done once per key however many threads ask at once: the first caller of a key does it,
// callers meanwhile wait for it (still answering a stop promptly), later callers get what it
// came to. A run's input hashes and its remote fetches both need exactly this.

import Dispatch
import Synchronization

/// Results of work done once per key.
package final class OncePerKey<Key: Hashable & Sendable, Value: Sendable, Failure: Error>: Sendable {
    private struct State {
        var known: [Key: Result<Value, Failure>] = [:]
        /// Keys being worked on, and the group their worker leaves when done.
        var working: [Key: DispatchGroup] = [:]
    }
    private let state = Mutex(State())

    package init() {}

    private enum Turn {
        case known(Result<Value, Failure>)
        case wait(DispatchGroup)
        case work(DispatchGroup)
    }

    /// What `work` came to for `key`: done now by this caller, or by the one before it.
    /// - Parameters:
    ///   - stop: asked every 50 ms while another caller works on `key`; true gives up.
    ///   - work: the work; nil when it was stopped, which is not remembered (a later caller
    ///     works again).
    /// - Returns: the value, or nil when stopped.
    package func value(for key: Key, stop: () -> Bool, work: () throws(Failure) -> Value?) throws(Failure) -> Value? {
        while true {
            let turn = state.withLock { state -> Turn in
                if let known = state.known[key] { return .known(known) }
                if let group = state.working[key] { return .wait(group) }
                let group = DispatchGroup()
                group.enter()
                state.working[key] = group
                return .work(group)
            }
            switch turn {
            case .known(let result):
                return try result.get()
            case .wait(let group):
                while group.wait(timeout: .now() + .milliseconds(50)) == .timedOut {
                    if stop() { return nil }
                }
            case .work(let group):
                defer {
                    state.withLock { _ = $0.working.removeValue(forKey: key) }
                    group.leave()
                }
                let result: Result<Value, Failure>
                do throws(Failure) {
                    guard let value = try work() else { return nil }
                    result = .success(value)
                } catch {
                    result = .failure(error)
                }
                state.withLock { $0.known[key] = result }
                return try result.get()
            }
        }
    }
}
