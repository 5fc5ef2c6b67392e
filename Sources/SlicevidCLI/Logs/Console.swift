// Everything slicevid prints goes through here: whole lines, one writer at a time, so output
// from several threads never interleaves into garbage, and a progress line being redrawn on
// a terminal is erased before any other line is printed, so nothing is glued onto it. Lines
// are also where text from input (job ids, paths, values) is made safe: one event, one line.

import Foundation
import Slicevid
import Synchronization

/// Serialised access to stderr and stdout.
final class Console: Sendable {
    static let shared = Console()

    /// Whether stderr is a terminal (progress bars) or a log (plain lines).
    let isTerminal = isatty(STDERR_FILENO) != 0

    /// The redrawn status line: whether one is on screen, and when it was last drawn.
    private struct StatusLine {
        var shown = false
        var drawnAt: UInt64 = 0
    }

    private let state = Mutex(StatusLine())

    /// Why the first write to standard output failed (its errno), if one did: the command's
    /// exit then says so (`SlicevidTool.main`), instead of 0 for output that never arrived.
    private let outputFailure = Mutex<Int32?>(nil)

    /// The errno of the first failed write to standard output; nil while every write worked.
    var outputError: Int32? { outputFailure.withLock { $0 } }

    /// How often a status line may be redrawn: ten times a second is smooth and cheap.
    private static let redrawInterval: UInt64 = 100_000_000

    /// Writes one event to stderr as exactly one line, first erasing a status line.
    ///
    /// Everything in `line` but one final newline is shown with control characters escaped
    /// (`InputText.escaped`): a job id or path holding a newline, a carriage return or an
    /// escape sequence cannot start a line of its own or reach the terminal raw.
    func error(_ line: String) {
        let text = Console.oneLine(line)
        state.withLock { status in
            if status.shown {
                Console.write("\r\u{1B}[K", to: STDERR_FILENO)
                status.shown = false
            }
            Console.write(text, to: STDERR_FILENO)
        }
    }

    /// Writes one line to stdout, escaped as `error(_:)` escapes it.
    func output(_ line: String) {
        let text = Console.oneLine(line)
        writeOutput(text)
    }

    /// Writes slicevid's own text of several lines as it is: help, usage, a preset's JSON.
    /// - Precondition: `text` holds nothing from input that is not already escaped (JSON is).
    func verbatim(_ text: String, toStandardError: Bool = false) {
        if toStandardError {
            state.withLock { _ in _ = Console.write(text, to: STDERR_FILENO) }
        } else {
            writeOutput(text)
        }
    }

    /// Redraws the one-line status (a progress bar) on a terminal, at most ten times a second
    /// unless `force`; the clock is read under the lock so concurrent callers cannot race it.
    /// Control characters in `text` are escaped, so nothing but the redraw moves the cursor.
    /// The line is cut to one column less than the terminal's width (read each time, so a
    /// resized window is followed), so it never wraps: a wrapped line cannot be redrawn in place.
    func status(_ text: String, force: Bool = false) {
        guard isTerminal else { return }
        let shown = InputText.fitted(text, columns: max(1, Console.columns() - 1))
        state.withLock { status in
            let now = DispatchTime.now().uptimeNanoseconds
            guard force || now &- status.drawnAt >= Console.redrawInterval else { return }
            Console.write("\r\u{1B}[K" + shown, to: STDERR_FILENO)
            status.shown = true
            status.drawnAt = now
        }
    }

    /// The terminal's width in columns (TIOCGWINSZ on stderr), or 80 when it does not say.
    static func columns() -> Int {
        var size = winsize()
        guard ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }

    /// `line` escaped, ending in exactly one newline.
    static func oneLine(_ line: String) -> String {
        InputText.escaped(line.hasSuffix("\n") ? line.dropLast() : Substring(line)) + "\n"
    }

    /// Writes to standard output, after no earlier write there failed; records a failure.
    private func writeOutput(_ text: String) {
        state.withLock { _ in
            guard outputFailure.withLock({ $0 }) == nil else { return }
            let failure = Console.write(text, to: STDOUT_FILENO)
            if failure != 0 { outputFailure.withLock { $0 = failure } }
        }
    }

    /// Writes all of `text`; 0, or the errno of the write that failed.
    @discardableResult
    private static func write(_ text: String, to descriptor: Int32) -> Int32 {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            if written < 0 { return errno }
            if written == 0 { return EIO }
            bytes = bytes.dropFirst(written)
        }
        return 0
    }
}
