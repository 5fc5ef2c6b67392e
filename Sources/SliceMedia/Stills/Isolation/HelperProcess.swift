// One decode helper's life, from the parent's side: started with only the descriptors it needs,
// waited for while the run's cancellation is polled, killed (SIGKILL) and reaped the moment the
// run stops, and always reaped — no path leaves a zombie. Only the thread that decodes the
// still waits here; a signal's handling never waits for a helper.

import CPlatform
import Foundation
import Glibc
import SliceKit

/// A decode helper run to its end.
enum HelperProcess {
    /// How a helper ended.
    enum Ending: Equatable {
        /// It exited with this code.
        case exited(Int32)
        /// A signal ended it (its limits: SIGXCPU, SIGKILL, SIGSEGV; an abort: SIGABRT).
        case signalled(Int32)
        /// The run was stopped, so the parent killed it.
        case stopped
    }

    /// The most of a helper's standard error kept: enough for the line that says why it died.
    static let keptErrorBytes = 16 << 10

    /// Starts `executable` as a helper for `request`, reading the still from `input` and
    /// answering in `answer`, and waits until it ends or `isCancelled` says stop.
    /// - Returns: how it ended, and the start of what it wrote to standard error.
    /// - Throws: `MediaError(.unavailable)` when it cannot be started.
    static func run(_ executable: String, request: HelperRequest, input: Int32, answer: Int32,
                    isCancelled: () -> Bool) throws(MediaError) -> (ending: Ending, standardError: [UInt8]) {
        var ends: [Int32] = [-1, -1]
        guard cplatform_error_pipe(&ends) == 0 else {
            throw MediaError(.unavailable, subject: request.path, message: "could not start its decode helper (pipe: \(String(cString: strerror(errno))))")
        }
        let errorEnd = ends[0]
        defer { close(errorEnd) }
        var pidfd: Int32 = -1
        let pid = withCStrings([executable] + request.arguments) { argv in
            withCStrings(environment) { envp in
                cplatform_spawn_helper(executable, argv, envp, input, answer, ends[1], &pidfd)
            }
        }
        close(ends[1])
        guard pid > 0 else {
            throw MediaError(.unavailable, subject: request.path,
                             message: "could not start its decode helper \(executable) (\(String(cString: strerror(-pid))))")
        }
        defer { if pidfd >= 0 { close(pidfd) } }

        var standardError: [UInt8] = []
        var status: Int32 = 0
        var stopped = false
        // Once the pipe is at its end it is no longer watched (it would poll ready for ever).
        var errorOpen = true
        while true {
            if errorOpen { errorOpen = drain(errorEnd, into: &standardError) }
            if isCancelled() {
                kill(pid, SIGKILL)
                stopped = true
                break
            }
            // Wakes for an ending or a line; else every 20 ms, to look at the cancellation.
            var watched = [pollfd(fd: pidfd, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: errorOpen ? errorEnd : -1, events: Int16(POLLIN), revents: 0)]
            _ = poll(&watched, 2, 20)
            if pidfd >= 0 {
                if watched[0].revents != 0 { break }
            } else if waitpid(pid, &status, WNOHANG) == pid {
                return (ending(status), finish(errorEnd, standardError))
            }
        }
        // Reaped on every way out: it has ended, or was just sent SIGKILL, which cannot be caught.
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (stopped ? .stopped : ending(status), finish(errorEnd, standardError))
    }

    private static func ending(_ status: Int32) -> Ending {
        let signal = cplatform_exit_signal(status)
        return signal != 0 ? .signalled(signal) : .exited(cplatform_exit_code(status))
    }

    /// What is left in the pipe, without waiting: a grandchild could hold it open for ever.
    private static func finish(_ descriptor: Int32, _ kept: [UInt8]) -> [UInt8] {
        var kept = kept
        drain(descriptor, into: &kept)
        return kept
    }

    /// Reads what the pipe holds now into `kept`, up to `keptErrorBytes`; the rest is read and
    /// dropped, so a helper that writes a lot never blocks on a full pipe.
    /// - Returns: false once the pipe is at its end (every writer closed it).
    @discardableResult
    private static func drain(_ descriptor: Int32, into kept: inout [UInt8]) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return count < 0 }
            kept += chunk.prefix(max(0, min(count, keptErrorBytes - kept.count)))
        }
    }

    /// The helper's environment: this process's, with Swift's crash backtracer off (it would
    /// start a program of its own and print pages nobody reads; the parent reports the crash).
    private static var environment: [String] {
        var variables = ProcessInfo.processInfo.environment
        variables["SWIFT_BACKTRACE"] = "enable=no"
        return variables.map { "\($0.key)=\($0.value)" }.sorted()
    }

    /// `strings` as a NULL-terminated C array for the duration of `body`.
    private static func withCStrings<T>(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> T) -> T {
        // Each argument's own bytes (`PathBytes`): the helper reads its command line back the
        // same way, so a still's name that is not UTF-8 arrives as it left.
        let pointers = strings.map { string in PathBytes.withCString(string) { strdup($0) } } + [nil]
        defer { pointers.forEach { free($0) } }
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}
