// SIGINT and SIGTERM stop a render cleanly: the handler only sets a flag, the render loop
// notices it, temporary files are removed, and the exit code says which signal it was. A
// second signal means the user will not wait: slicevid removes its temporary files and exits.

import CPlatform
import Foundation
import Glibc
@_spi(ProcessHost) import Slicevid
import Synchronization

/// Routes SIGINT/SIGTERM to a `Cancellation`.
///
/// The signal handler (C, in CPlatform) only writes the signal's number into a pipe; one
/// thread reads the pipe and acts, in the order the signals came. The handler is in place
/// before a trap is reported set up. (libdispatch's signal sources put theirs in place later,
/// from their own thread, and a signal set to be ignored until then was dropped: a Ctrl-C in
/// those milliseconds did nothing.)
enum SignalTrap {
    /// What a stop signal does now; nil until a trap is set.
    private static let action = Mutex<(@Sendable (Int32) -> Void)?>(nil)
    private static let received = Atomic<Int>(0)

    /// Sends SIGINT and SIGTERM to `handle`, on a thread of its own, from now on; a later
    /// call replaces `handle`.
    private static func forward(to handle: @escaping @Sendable (Int32) -> Void) {
        let failure = action.withLock { current -> String? in
            if current != nil {
                current = handle
                return nil
            }
            let numbers: [Int32] = [SIGINT, SIGTERM]
            guard cplatform_forward_signals(numbers, Int32(numbers.count)) == 0 else { return String(cString: strerror(errno)) }
            current = handle
            Thread.detachNewThread {
                while true {
                    let number = cplatform_next_signal()
                    guard number > 0 else { return }
                    action.withLock { $0 }?(number)
                }
            }
            return nil
        }
        // Not seen in practice (a pipe and two handlers): said, since a signal would then end
        // the run at once, its temporary files left for the next run to remove.
        if let failure {
            Console.shared.error("slicevid: warning: cannot trap SIGINT/SIGTERM (\(failure)); a signal will end the run at once\n")
        }
    }

    /// For runs that write nothing (`batch --check`, `--plan`): a stop signal prints `line`
    /// (hearing the signal's number) and ends the process at once with 128 + that number,
    /// instead of dying silently mid-check.
    static func exitOnSignal(saying line: @escaping @Sendable (Int32) -> String) {
        forward { number in
            Console.shared.error(line(number))
            _exit(128 + number)
        }
    }

    /// Installs the handlers and returns the flag they set. Call it once per process, from
    /// the command that renders.
    /// - Parameter lastWords: runs on a second signal, just before the temporary files are
    ///   removed and the process exits, with no commit and no ending of the run under way (a
    ///   batch writes its report); hears the second signal's number.
    static func install(lastWords: @escaping @Sendable (Int32) -> Void = { _ in }) -> Cancellation {
        let cancellation = Cancellation()
        forward { number in
            // A second signal: the user will not wait for the render to wind down. The
            // temporary files go first (this runs on the trap's thread, not in the signal
            // handler, so it may), then the process, without unwinding.
            if received.add(1, ordering: .relaxed).newValue > 1 {
                Slicevid.discardAllUnfinished(signal: number, last: { lastWords(number) }, then: { _exit(128 + number) })
            }
            cancellation.cancel(signal: number)
            // A write to a stalled `-o -` reader would otherwise never notice.
            Slicevid.wakeStalledWrites()
        }
        return cancellation
    }
}
