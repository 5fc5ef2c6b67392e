// One lock per concern (the temporaries of unfinished outputs, the folders made for them, writes
// that must be whole when the process ends), so that in a program embedding the library one
// batch's report page never holds up another render's outputs. Each is a `Mutex` with a name; a
// thread that finds one taken tells the watchers before it waits, which is how a test shows that
// two unrelated operations do not wait on each other.

import Synchronization

/// A `Mutex` guarding one concern, named for whoever watches the waits on it.
package final class ConcernLock<State: Sendable>: Sendable {
    /// What it guards, in a few words (`temporaries`, `folders`, `whole writes`).
    package let name: String
    private let mutex: Mutex<State>

    package init(_ name: String, _ state: State) {
        self.name = name
        mutex = Mutex(state)
    }

    /// Runs `body` holding the lock; when another thread holds it, the watchers hear so first.
    package func withLock<Result, E: Error>(_ body: (inout sending State) throws(E) -> sending Result) throws(E) -> sending Result {
        if let result = try mutex.withLockIfAvailable(body) { return result }
        LockWaits.waiting(on: name)
        return try mutex.withLock(body)
    }
}

extension ConcernLock where State == Void {
    package convenience init(_ name: String) {
        self.init(name, ())
    }
}

/// Who hears of a thread about to wait for a lock another holds.
package enum LockWaits {
    private static let watchers = Mutex<[Int: @Sendable (String) -> Void]>([:])
    private static let next = Atomic<Int>(0)

    /// Has `watcher` hear the name of every lock a thread is about to wait for, on that thread,
    /// until the returned key is given to `stopWatching`.
    package static func watch(_ watcher: @escaping @Sendable (String) -> Void) -> Int {
        let key = next.add(1, ordering: .relaxed).newValue
        watchers.withLock { $0[key] = watcher }
        return key
    }

    package static func stopWatching(_ key: Int) {
        _ = watchers.withLock { $0.removeValue(forKey: key) }
    }

    static func waiting(on name: String) {
        let current = watchers.withLock { Array($0.values) }
        for watcher in current { watcher(name) }
    }
}
