// The executable's hold on its process. Everything that changes the process as a whole — its
// standard streams, SIGPIPE, the stop signals and the exit on a second one, FFmpeg's log
// routing, which executable decodes the stills whose decoders can abort (itself) — is set up
// here, by `main.swift` and the commands it runs, and nowhere in the library: a program
// embedding Slicevid keeps its own stderr, signals and exit.

import Foundation
import Glibc
@_spi(ProcessHost) import Slicevid

/// The process `slicevid` runs in.
package enum ProcessHost {
    /// The command line after the executable's name, every byte kept: a name that is not
    /// UTF-8 stays the name it was (`PathBytes`), where `CommandLine.arguments` would put
    /// U+FFFD in its place and so name another file.
    package static var arguments: [String] {
        (1..<Int(CommandLine.argc)).map { index in
            guard let argument = CommandLine.unsafeArgv[index] else { return "" }
            return PathBytes.text(UnsafeRawBufferPointer(start: argument, count: strlen(argument)))
        }
    }

    /// Sets the process up: main.swift's first call, before any file is opened. Started by
    /// itself as a decode helper (`arguments`), slicevid decodes one still and exits here.
    package static func start(_ arguments: [String]) {
        Slicevid.serveDecodeHelperIfAsked(arguments)
        StandardStreams.reopenClosedOnDevNull()
        // This very binary (/proc/self/exe names it even if its file is replaced mid-run)
        // decodes the stills whose decoders can abort, in helper processes.
        Slicevid.decodeHelper = "/proc/self/exe"
        // A reader that goes away (`| head`) makes writes fail with EPIPE, which each writer
        // reports (`exit`), instead of killing slicevid before its temporaries are removed.
        signal(SIGPIPE, SIG_IGN)
        Slicevid.routeFFmpegLog(verbose: false)
    }

    /// Routes SIGINT and SIGTERM to the cancellation it returns; a second one ends the process
    /// at once, after the runs' last words (a batch's report) and `lastWords` (a line saying
    /// so), with every temporary removed. Call once, from the command that renders.
    static func cancellation(lastWords: @escaping @Sendable (Int32) -> Void = { _ in }) -> Cancellation {
        SignalTrap.install(lastWords: lastWords)
    }

    /// Ends the process with `code`, once no commit and no second signal's last words are under
    /// way. When writing to standard output failed meanwhile, the exit says so: a reader that
    /// went away (EPIPE, `| head`) is a quiet 141, as it is for other tools; any other failure
    /// (a full disk, /dev/full) is one line and 74.
    package static func exit(_ code: ExitCode) -> Never {
        var status = code.rawValue
        if let failure = Console.shared.outputError, code == .success {
            if failure == EPIPE {
                status = 128 + SIGPIPE
            } else {
                Console.shared.error("slicevid: error: cannot write to standard output (\(String(cString: strerror(failure))))\n")
                status = ExitCode.outputFailed.rawValue
            }
        }
        Slicevid.whenOutputsIdle { Glibc.exit(status) }
    }
}
