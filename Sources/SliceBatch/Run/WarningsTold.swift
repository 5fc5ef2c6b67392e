// A campaign's layout warnings are about its layouts, not its jobs: the first job that meets
// one tells it, and the rest of the run stays quiet about it.

import Synchronization

/// The warnings' topics a run has told, shared by its jobs' threads.
final class WarningsTold: Sendable {
    private let topics = Mutex<Set<String>>([])

    /// Whether `topic` is told for the first time (and from now on, not).
    func first(_ topic: String) -> Bool {
        topics.withLock { $0.insert(topic).inserted }
    }
}
