// A run's own end and a second signal's last words must not overlap: when the second signal's
// handler is writing a batch's report as the run finishes, the process waits for it and ends
// with the handler's status, instead of vanishing under it and leaving its temporary file.

import Foundation
import Glibc
import Synchronization
import Testing
@testable import SlicePipeline

/// State the exit test's two threads share (an exit test's body captures nothing).
private enum Race {
    /// Set by the thread that ends the run just before it asks to exit.
    static let exiting = Atomic<Bool>(false)

    /// The calling thread's id, from /proc/thread-self (`PID/task/TID`).
    static func threadID() -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")).map { String($0.split(separator: "/").last ?? "") } ?? ""
    }

    /// Whether thread `id` of this process is asleep (state S in /proc), that is blocked.
    static func isAsleep(_ id: String) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/self/task/\(id)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        return stat[close...].dropFirst().drop { $0 == " " }.first == "S"
    }
}

@Suite struct ProcessExitTests {
    @Test func theRunsOwnEndWaitsForASecondSignalsLastWords() async {
        await #expect(processExitsWith: .exitCode(130)) {
            let ending = Race.threadID()
            let speaking = DispatchSemaphore(value: 0)
            // The second signal's handler: inside its last words until the ending thread,
            // past its last step, is blocked; then it exits with 130.
            Thread.detachNewThread {
                OutputTarget.discardAllUnfinished(signal: SIGINT, last: {
                    speaking.signal()
                    while !Race.exiting.load(ordering: .acquiring) || !Race.isAsleep(ending) { sched_yield() }
                }, then: { _exit(130) })
            }
            speaking.wait()
            Race.exiting.store(true, ordering: .releasing)
            // Without the wait this exits 0 while the last words are still being written.
            OutputTarget.whenIdle { exit(0) }
        }
    }
}
