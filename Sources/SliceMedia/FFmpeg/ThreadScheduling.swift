// Encoders that make real-time threads: SVT-AV1 (Debian 12's 1.4), opened by root or with
// CAP_SYS_NICE, starts every worker thread SCHED_FIFO at priority 99, and leaves the thread that
// opened it so too. slicevid wants none of that: a FIFO thread at 99 is never preempted by
// anything but the kernel's migration threads, so an AV1 render as root starved everything else
// on the machine, and the thread that opened the encoder stayed real-time for the rest of the
// run, handing the policy on to every thread and process started from it (a decode helper, a
// batch's next job). On a 2-core VM, two such CPU-bound threads left the rest 5% of the time.
// Opening an encoder therefore keeps the scheduling it found: the opening thread gets its own
// back, and every thread started meanwhile gets that one too, as it would have by inheriting it.

import Glibc
import SliceKit

/// The calling thread's scheduling, kept across a call that may change it.
package enum ThreadScheduling {
    /// A policy and its static priority (0 for SCHED_OTHER, SCHED_BATCH and SCHED_IDLE).
    package struct Setting: Equatable, Sendable {
        package var policy: Int32
        package var priority: Int32

        /// Whether it is a real-time policy (SCHED_FIFO or SCHED_RR).
        package var isRealTime: Bool { policy == SCHED_FIFO || policy == SCHED_RR }
    }

    /// The kernel's flag on a policy that resets it in children; not part of the policy.
    private static let resetOnFork: Int32 = 0x4000_0000

    /// The scheduling of thread `thread` (0: the calling thread); nil if it cannot be read
    /// (the thread has gone).
    package static func setting(of thread: pid_t = 0) -> Setting? {
        let policy = sched_getscheduler(thread)
        var parameters = sched_param()
        guard policy >= 0, sched_getparam(thread, &parameters) == 0 else { return nil }
        return Setting(policy: policy & ~resetOnFork, priority: parameters.sched_priority)
    }

    /// The ids of this process's threads now.
    package static func threads() -> Set<pid_t> {
        Set((FileSystem.names(inFolder: "/proc/self/task") ?? []).compactMap { pid_t($0) })
    }

    /// Runs `body`, then gives the calling thread the scheduling it had before, and each thread
    /// started meanwhile that has another one the same: what it would have inherited.
    package static func keeping<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        guard let before = setting() else { return try body() }
        let existing = threads()
        defer {
            restore(before, on: 0)
            for thread in threads().subtracting(existing) { restore(before, on: thread) }
        }
        return try body()
    }

    /// Sets `thread`'s scheduling to `wanted` if it has another one.
    private static func restore(_ wanted: Setting, on thread: pid_t) {
        guard let now = setting(of: thread), now != wanted else { return }
        var parameters = sched_param(sched_priority: wanted.priority)
        _ = sched_setscheduler(thread, wanted.policy, &parameters)
    }
}
