// Writes that must be whole however the process ends (a batch's report and page, a merged
// report): a second signal's exit waits for one under way, and holds off the next. Their own lock,
// so building a page holds up no other render's outputs.

/// The writes a process end waits for.
package enum WholeWrites {
    /// Held across each such write, and by the process end.
    static let lock = ConcernLock("whole writes")

    /// Runs `body` with no process end under way meanwhile: what `body` writes is whole when the
    /// process ends, however it ends. An empty `body` waits for a write under way.
    package static func exclusively<E: Error>(_ body: () throws(E) -> Void) throws(E) {
        try lock.withLock { (_: inout Void) throws(E) in try body() }
    }
}
