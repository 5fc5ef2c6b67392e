// SIGINT and SIGTERM stop a render cleanly: the handler only sets a flag, the render loop
// notices it, temporary files are removed, and the exit code says which signal it was. A
// second signal means the user will not wait: slicevid removes its temporary files and exits.

import Dispatch
import Glibc
import SliceMedia
import SlicePipeline
import Synchronization

/// Routes SIGINT/SIGTERM to a `Cancellation`.
enum SignalTrap {
    // nonisolated(unsafe): written once, on the main thread, before any render starts; the
    // array only keeps the sources alive.
    nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []
    private static let received = Atomic<Int>(0)

    /// For runs that write nothing (`batch --check`, `--plan`): a stop signal prints `line`
    /// (hearing the signal's number) and ends the process at once with 128 + that number,
    /// instead of dying silently mid-check.
    static func exitOnSignal(saying line: @escaping @Sendable (Int32) -> String) {
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                Console.shared.error(line(number))
                _exit(128 + number)
            }
            source.resume()
            sources.append(source)
        }
    }

    /// Installs the handlers and returns the flag they set. Call it once per process, from
    /// the command that renders.
    /// - Parameter lastWords: runs on a second signal, just before the temporary files are
    ///   removed and the process exits, with no commit and no ending of the run under way (a
    ///   batch writes its report); hears the second signal's number.
    static func install(lastWords: @escaping @Sendable (Int32) -> Void = { _ in }) -> Cancellation {
        let cancellation = Cancellation()
        // A reader that closes `-o -` early (`| head`) must not kill us with SIGPIPE before the
        // other outputs' temporary files are removed: the failed write is reported instead.
        signal(SIGPIPE, SIG_IGN)
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                // A second signal: the user will not wait for the render to wind down. The
                // temporary files go first (this runs on a queue, not in the signal handler,
                // so it may), then the process, without unwinding.
                // Signals that arrive together come as one event: `data` says how many.
                if received.add(max(1, Int(source.data)), ordering: .relaxed).newValue > 1 {
                    OutputTarget.discardAllUnfinishedAndExit(status: 128 + number) { lastWords(number) }
                }
                cancellation.cancel(signal: number)
                // A write to a stalled `-o -` reader would otherwise never notice.
                OutputFile.wakeAll()
            }
            source.resume()
            sources.append(source)
        }
        return cancellation
    }
}
