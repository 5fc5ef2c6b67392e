// SIGINT and SIGTERM stop a render cleanly: the handler only sets a flag, the render loop
// notices it, temporary files are removed, and the exit code says which signal it was.

import Dispatch
import Glibc
import SlicePipeline

/// Routes SIGINT/SIGTERM to a `Cancellation`.
enum SignalTrap {
    nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []

    /// Installs the handlers (once) and returns the flag they set.
    static func install() -> Cancellation {
        let cancellation = Cancellation()
        // A reader that closes `-o -` early (`| head`) must not kill us with SIGPIPE before the
        // other outputs' temporary files are removed: the failed write is reported instead.
        signal(SIGPIPE, SIG_IGN)
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { cancellation.cancel(signal: number) }
            source.resume()
            sources.append(source)
        }
        return cancellation
    }
}
