// Which exit codes are worth a retry: what a scheduler's retry policy (Kubernetes
// podFailurePolicy, Slurm --requeue, AWS Batch evaluateOnExit) keys on. Shown in --help, the
// man page and docs/exit-codes.md, and used by the recipes in examples/ (docs/operations.md).

extension ExitCode {
    /// Whether running the same command again, unchanged, can end differently.
    package enum Retry: String, Sendable {
        /// Nothing to retry: it succeeded.
        case done
        /// The cause passes by itself (a lock released, a disk freed, a node back); a retry
        /// skips every job already finished, so it costs only what is left.
        case retryable
        /// The cause stays until a person acts (a typo, a damaged still, a foreign file in the
        /// way); a retry fails the same way and only hides the failure.
        case permanent
    }

    /// The codes a scheduler should retry, in order.
    package static var retryable: [ExitCode] { allCases.filter { $0.retry == .retryable } }

    /// This code's class. Why, code by code, is `retryReason`.
    package var retry: Retry {
        switch self {
        case .success: .done
        case .outputFailed, .busy, .terminated: .retryable
        case .someJobsFailed, .allJobsFailed, .pruneRefused, .usage, .inputInvalid, .inputMissing, .unavailable, .outputBlocked, .interrupted: .permanent
        }
    }

    /// Why the code is in its class, in a sentence for the man page and the docs.
    package var retryReason: String {
        switch self {
        case .success:
            "nothing to retry"
        case .someJobsFailed, .allJobsFailed:
            "each failed job failed on its own stills or outputs (a damaged still, a foreign file in the way); a re-run renders only those jobs and fails them the same way until someone reads the report and fixes them"
        case .pruneRefused:
            "the manifest or its feed lost more of the campaign's outputs at once than --prune-max allows (an export cut short?); the same files are orphans next time, until a person checks the feed and runs again with a higher --prune-max"
        case .usage:
            "a flag, the manifest or a scheduler variable is wrong, and stays wrong"
        case .inputInvalid:
            "an input's bytes are damaged or unsupported, and are the same bytes next time"
        case .inputMissing:
            "the manifest or an input is not at its path; a retry looks at the same path (a late network mount is the mount's to fix)"
        case .unavailable:
            "this installation lacks an encoder or library; the same image lacks it next time"
        case .outputBlocked:
            "something slicevid did not write is in the way (a file at an output or report path, a lock that is a link) or a folder is not writable; a person has to look"
        case .outputFailed:
            "writing failed part-way (a full disk, a storage error): nothing was replaced, and a retry, later or elsewhere, skips what is already done"
        case .busy:
            "another run holds the lock (the attempt before this one still winding down, an overlapping night), and nothing was done; or every failure was a URL that could not be fetched for now (a timeout, a reset, HTTP 5xx, 408 or 429), in a run or in the shards report merge read"
        case .interrupted:
            "SIGINT is a person's Ctrl-C or kill -INT, a decision to stop; schedulers stop with SIGTERM"
        case .terminated:
            "SIGTERM is how schedulers preempt, evict, drain and time out; finished jobs are kept, so a retry picks up where this run stopped"
        }
    }

    /// "Worth a retry: 75, 143; the others fail the same way again.", for the codes of `codes`
    /// that are retryable; empty when none is.
    static func retryLine(_ codes: [ExitCode]) -> String {
        let retryable = codes.filter { $0.retry == .retryable }
        guard !retryable.isEmpty else { return "" }
        return "Worth a retry: \(retryable.map { String($0.rawValue) }.joined(separator: ", ")); the others fail the same way again."
    }
}
