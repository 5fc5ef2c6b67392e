// What only the program hosting the library does to its process, behind `@_spi(ProcessHost)`:
// `slicevid`'s command line imports it with `@_spi(ProcessHost) import Slicevid`; a library user
// does not see it, so a program embedding Slicevid keeps its own standard error, signals and
// exit. Below them, the package's own words the command line builds its messages and help from,
// named here and nowhere else, so the command line needs no module but this one.

import SliceKit
import SliceMedia
import SlicePipeline
import SliceReports

extension Slicevid {
    /// The executable's first call: started by itself as a decode helper (`arguments` say so),
    /// it decodes the one still asked for and ends the process here; otherwise returns at once.
    @_spi(ProcessHost) public static func serveDecodeHelperIfAsked(_ arguments: [String]) {
        DecodeHelper.serveIfAsked(arguments)
    }

    /// Routes FFmpeg's own log, which is one per process: silenced, or its warnings and errors
    /// let through to standard error (prefixed with their source) when `verbose`.
    @_spi(ProcessHost) public static func routeFFmpegLog(verbose: Bool) {
        FFmpegLog.configure(verbose: verbose)
    }

    /// Runs `end` (the process exiting) once no output is being claimed, committed or discarded,
    /// no report written and no second signal's last words said, and holds them off while it runs.
    @_spi(ProcessHost) public static func whenOutputsIdle(_ end: () -> Never) -> Never {
        OutputTarget.whenIdle(end)
    }

    /// Runs `body` with no other whole write (a report, a page) and no second-signal exit under
    /// way meanwhile, so what it writes is whole however the process ends; `body` empty waits for
    /// a write under way. Renders' outputs are not held up.
    @_spi(ProcessHost) public static func exclusively<E: Error>(_ body: () throws(E) -> Void) throws(E) {
        try WholeWrites.exclusively(body)
    }

    /// A second stop signal: the runs' last words said (a batch writes its report), then
    /// `last`, every temporary file of every render removed, and `end` (which ends the process).
    @_spi(ProcessHost) public static func discardAllUnfinished(signal: Int32, last: () -> Void, then end: () -> Never) -> Never {
        OutputTarget.discardAllUnfinished(signal: signal, last: last, then: end)
    }

    /// Ends every write to standard output waiting for a reader, and every later one: what a stop
    /// signal does, so `-o -` to a stalled reader ends the run instead of blocking it.
    @_spi(ProcessHost) public static func wakeStalledWrites() {
        OutputFile.wakeAll()
    }
}

/// Text from input made safe for a log line (`'name'`, `\xFF`).
package typealias InputText = SliceKit.InputText
/// Strict JSON, and JSON text with invisible characters escaped for a terminal.
package typealias JSONText = SliceKit.JSONText
/// A path's bytes carried in a `String` (the command line's arguments, byte for byte).
package typealias PathBytes = SliceKit.PathBytes
/// Sizes and lengths in words.
package typealias UnitText = SliceKit.UnitText
/// The output formats a path names, and how `-o` accepts them.
package typealias OutputFormat = SliceMedia.OutputFormat
/// The video codecs, their encoders and speed names, for help and completions.
package typealias VideoCodec = SliceMedia.VideoCodec
/// A sidecar's record of an output, as a batch's events carry it.
package typealias OutputRecord = SlicePipeline.OutputRecord
/// One output of a job in a batch report.
package typealias OutputResult = SliceReports.OutputResult

/// The name a user knows a stop signal by (`SIGINT`, `SIGTERM`).
package func signalName(_ signal: Int32) -> String { SlicePipeline.signalName(signal) }
