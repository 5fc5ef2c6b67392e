// The exit codes slicevid documents (docs/exit-codes.md), following BSD sysexits so that
// cron wrappers and schedulers can tell who has to act.

import Glibc
import Slicevid

/// A process exit status.
package enum ExitCode: Int32, CaseIterable {
    case success = 0
    /// `batch`: some jobs failed; the others rendered or were skipped.
    case someJobsFailed = 1
    /// `batch`: every job failed (nothing was rendered or up to date).
    case allJobsFailed = 2
    /// `batch --prune` would have deleted more of the campaign's outputs than `--prune-max`
    /// allows, so it deleted nothing.
    case pruneRefused = 3
    /// EX_USAGE: a flag, value, preset or output path is wrong.
    case usage = 64
    /// EX_DATAERR: an input file is not a decodable image.
    case inputInvalid = 65
    /// EX_NOINPUT: an input file is missing or unreadable.
    case inputMissing = 66
    /// EX_UNAVAILABLE: an encoder this output needs is missing from libavcodec.
    case unavailable = 69
    /// EX_CANTCREAT: an output exists (without --force), or its folder is missing or read-only.
    case outputBlocked = 73
    /// EX_IOERR: encoding or writing failed part-way; temporary files are removed and no output
    /// is replaced.
    case outputFailed = 74
    /// EX_TEMPFAIL: another `batch` run holds the manifest's lock; try again later.
    case busy = 75
    /// 128 + SIGINT.
    case interrupted = 130
    /// 128 + SIGTERM.
    case terminated = 143

    /// The documented code for an error of `category`.
    init(_ category: SlicevidError.Category) {
        switch category {
        case .usage: self = .usage
        case .inputMissing: self = .inputMissing
        case .inputInvalid: self = .inputInvalid
        case .outputBlocked: self = .outputBlocked
        case .unavailable: self = .unavailable
        case .outputFailed: self = .outputFailed
        case .busy: self = .busy
        case .interrupted(let signal): self.init(signal: signal)
        // The command line stops only on signals; were a run cancelled otherwise, it is SIGINT's.
        case .cancelled: self = .interrupted
        }
    }

    /// 128 + the signal, as shells report a process a signal stopped.
    init(signal: Int32) {
        self = signal == SIGTERM ? .terminated : .interrupted
    }

    /// A few words on what the code means, for the "Exit codes:" line of each command's help.
    var words: String {
        switch self {
        case .success: "ok"
        case .someJobsFailed: "some jobs failed"
        case .allJobsFailed: "every job failed"
        case .pruneRefused: "prune brake held, nothing deleted"
        case .usage: "usage"
        case .inputInvalid: "input not readable media"
        case .inputMissing: "input missing"
        case .unavailable: "encoder or library missing"
        case .outputBlocked: "output blocked (exists, folder not writable, lock not slicevid's)"
        case .outputFailed: "write failed"
        case .busy: "another run holds the lock"
        case .interrupted: "interrupted by SIGINT"
        case .terminated: "interrupted by SIGTERM"
        }
    }

    /// The "Exit codes: 0 ok, 64 usage, …" line a command's help ends with, from these words,
    /// and which of them are worth a retry (`retryLine`).
    static func helpLine(_ codes: [ExitCode]) -> String {
        let retry = retryLine(codes)
        return "Exit codes: " + codes.map { "\($0.rawValue) \($0.words)" }.joined(separator: ", ") + "." + (retry.isEmpty ? "" : " " + retry)
    }
}
