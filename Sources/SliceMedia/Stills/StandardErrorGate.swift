// libjxl prints its own multi-line diagnostics for a damaged JPEG XL straight to descriptor 2
// (fprintf, no callback to route them), which would break "one event, one line". While a JPEG
// XL decoder runs, descriptor 2 points at /dev/null; slicevid's own lines (and FFmpeg's, in
// --verbose) go to a copy of the real standard error made at start-up, so none is lost. What
// libjxl meant reaches the user anyway: FFmpeg's wrapper logs its reason, which the still's
// error line quotes.

import Glibc
import Synchronization

/// Standard error, and a gate that silences what C libraries write to descriptor 2 directly.
package enum StandardErrorGate {
    /// The real standard error: a copy of descriptor 2 made on first use (`prepare()` at
    /// start-up, before any gate can close), which the gate never redirects.
    package static let descriptor: Int32 = {
        let copy = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3)
        return copy >= 0 ? copy : STDERR_FILENO
    }()

    /// Makes the copy of standard error now, while descriptor 2 is still the real one.
    package static func prepare() { _ = descriptor }

    /// Decodes under way that silenced descriptor 2; the last to finish restores it.
    private static let holders = Mutex<Int>(0)

    /// Runs `body` with descriptor 2 on /dev/null (concurrent callers share one closing).
    static func silenced<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        let real = descriptor
        guard real != STDERR_FILENO else { return try body() }
        holders.withLock { count in
            count += 1
            guard count == 1 else { return }
            let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
            if null >= 0 {
                dup2(null, STDERR_FILENO)
                close(null)
            }
        }
        defer {
            holders.withLock { count in
                count -= 1
                if count == 0 { dup2(real, STDERR_FILENO) }
            }
        }
        return try body()
    }
}
