// What a run must still say when the process is about to end at once (a second SIGINT or
// SIGTERM): a batch writes its report, so a scheduler learns which jobs finished. Runs register
// their last words here; the process host, the only code that ends the process, has them said
// (under the registry of unfinished outputs' lock) just before it removes the temporaries and
// exits. The library itself never ends the process.

import Synchronization

/// Last words of the runs under way in this process.
package enum LastWords {
    /// A registration; the words are dropped when it is released (the run ended normally).
    package final class Registration: Sendable {
        fileprivate let key: Int

        fileprivate init(key: Int) {
            self.key = key
        }

        deinit {
            LastWords.registered.withLock { _ = $0.words.removeValue(forKey: key) }
        }
    }

    private struct Registry {
        var next = 0
        var words: [Int: @Sendable (Int32) -> Void] = [:]
    }

    private static let registered = Mutex(Registry())

    /// Registers `words`, said with the signal's number if the process ends at once while the
    /// registration is alive.
    package static func register(_ words: @escaping @Sendable (Int32) -> Void) -> Registration {
        registered.withLock { registry in
            registry.next += 1
            registry.words[registry.next] = words
            return Registration(key: registry.next)
        }
    }

    /// Says every registered run's last words, in the order they were registered. Called by the
    /// process host only, inside `OutputTarget.discardAllUnfinished`.
    static func sayAll(signal: Int32) {
        let words = registered.withLock { registry in registry.words.sorted { $0.key < $1.key }.map(\.value) }
        for say in words { say(signal) }
    }
}
