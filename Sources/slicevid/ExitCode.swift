// The exit codes slicevid documents (README "Exit codes"), following BSD sysexits so that
// cron wrappers and schedulers can tell who has to act.

import Glibc
import SlicePipeline

/// A process exit status.
enum ExitCode: Int32 {
    case success = 0
    /// `batch`: some jobs failed; the others rendered or were skipped.
    case someJobsFailed = 1
    /// `batch`: every job failed (nothing was rendered or up to date).
    case allJobsFailed = 2
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
        case .interrupted(let signal): self.init(signal: signal)
        }
    }

    /// 128 + the signal, as shells report a process a signal stopped.
    init(signal: Int32) {
        self = signal == SIGTERM ? .terminated : .interrupted
    }
}
