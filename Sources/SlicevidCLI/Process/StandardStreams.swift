// Standard input, output and error, made sure to exist before anything opens a file: started
// with one closed (`2>&-` in a cron line), the next file slicevid opens — a manifest's lock —
// would get that number, and log lines written to "stderr" would land in it.

import Glibc
import Slicevid
import Synchronization

/// The process's descriptors 0, 1 and 2.
package enum StandardStreams {
    /// Whether standard output was closed when slicevid started (and is /dev/null now): a
    /// stream sent there (`-o -`) would vanish.
    package static var outputWasClosed: Bool { closedOutput.load(ordering: .relaxed) }
    private static let closedOutput = Atomic<Bool>(false)

    /// Opens /dev/null on each of descriptors 0–2 that is closed (lowest first, so each open
    /// takes the number that is missing). Call first thing, before any other file is opened.
    package static func reopenClosedOnDevNull() {
        for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            if descriptor == STDOUT_FILENO { closedOutput.store(true, ordering: .relaxed) }
            let opened = open("/dev/null", descriptor == STDIN_FILENO ? O_RDONLY : O_WRONLY)
            // Anything else means a lower one was closed after all: leave the numbers as they are.
            if opened >= 0, opened != descriptor { close(opened) }
        }
    }
}
