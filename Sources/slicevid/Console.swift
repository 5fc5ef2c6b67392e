// Everything slicevid prints to stderr goes through here: whole lines, one writer at a time,
// so progress from several threads never interleaves into garbage.

import Foundation
import Synchronization

/// Serialised access to stderr and stdout.
final class Console: Sendable {
    static let shared = Console()

    /// Whether stderr is a terminal (progress bars) or a log (plain lines).
    let isTerminal = isatty(STDERR_FILENO) != 0
    private let lock = Mutex(())

    /// Writes `text` to stderr in one call.
    func error(_ text: String) {
        lock.withLock { _ in
            let bytes = Array(text.utf8)
            bytes.withUnsafeBytes { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
        }
    }

    /// Writes `text` to stdout.
    func output(_ text: String) {
        lock.withLock { _ in
            FileHandle.standardOutput.write(Data(text.utf8))
        }
    }
}
