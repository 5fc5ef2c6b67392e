// Everything slicevid prints goes through here: whole lines, one writer at a time, so output
// from several threads never interleaves into garbage, and a progress line being redrawn on
// a terminal is erased before any other line is printed, so nothing is glued onto it.

import Foundation
import Synchronization

/// Serialised access to stderr and stdout.
final class Console: Sendable {
    static let shared = Console()

    /// Whether stderr is a terminal (progress bars) or a log (plain lines).
    let isTerminal = isatty(STDERR_FILENO) != 0

    /// The redrawn status line: whether one is on screen, and when it was last drawn.
    private struct StatusLine {
        var shown = false
        var drawnAt: UInt64 = 0
    }

    private let state = Mutex(StatusLine())

    /// How often a status line may be redrawn: ten times a second is smooth and cheap.
    private static let redrawInterval: UInt64 = 100_000_000

    /// Writes `text` (whole lines) to stderr in one call, first erasing a status line.
    func error(_ text: String) {
        state.withLock { status in
            if status.shown {
                Console.write("\r\u{1B}[K", to: STDERR_FILENO)
                status.shown = false
            }
            Console.write(text, to: STDERR_FILENO)
        }
    }

    /// Redraws the one-line status (a progress bar) on a terminal, at most ten times a second
    /// unless `force`; the clock is read under the lock so concurrent callers cannot race it.
    func status(_ text: String, force: Bool = false) {
        guard isTerminal else { return }
        state.withLock { status in
            let now = DispatchTime.now().uptimeNanoseconds
            guard force || now &- status.drawnAt >= Console.redrawInterval else { return }
            Console.write("\r\u{1B}[K" + text, to: STDERR_FILENO)
            status.shown = true
            status.drawnAt = now
        }
    }

    /// Writes `text` to stdout.
    func output(_ text: String) {
        state.withLock { _ in Console.write(text, to: STDOUT_FILENO) }
    }

    private static func write(_ text: String, to descriptor: Int32) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return }
            bytes = bytes.dropFirst(written)
        }
    }
}
