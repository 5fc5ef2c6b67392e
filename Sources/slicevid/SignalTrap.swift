// SIGINT and SIGTERM stop a render cleanly: the handler only sets a flag, the render loop
// notices it, temporary files are removed, and the exit code says which signal it was. A
// second signal means the user will not wait for the clean-up: slicevid exits at once.

import Dispatch
import Glibc
import SlicePipeline
import Synchronization

/// Routes SIGINT/SIGTERM to a `Cancellation`.
enum SignalTrap {
    // nonisolated(unsafe): written once, on the main thread, before any render starts; the
    // array only keeps the sources alive.
    nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []
    private static let received = Atomic<Int>(0)

    /// Installs the handlers and returns the flag they set. Call it once per process, from
    /// the command that renders.
    static func install() -> Cancellation {
        let cancellation = Cancellation()
        // A reader that closes `-o -` early (`| head`) must not kill us with SIGPIPE before the
        // other outputs' temporary files are removed: the failed write is reported instead.
        signal(SIGPIPE, SIG_IGN)
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                // Temporary files are hidden and never under a final name, so leaving one
                // behind on a second signal loses nothing.
                if received.add(1, ordering: .relaxed).newValue > 1 { _exit(128 + number) }
                cancellation.cancel(signal: number)
            }
            source.resume()
            sources.append(source)
        }
        return cancellation
    }
}
