// FFmpeg logs to stderr by default; a cron job's stderr should hold only slicevid's own lines.

import CFFmpeg
import Foundation

/// Controls how much of FFmpeg's own logging reaches stderr.
public enum FFmpegLog {
    /// Silences FFmpeg, or lets its warnings and errors through when `verbose`.
    public static func configure(verbose: Bool) {
        av_log_set_level(verbose ? AV_LOG_WARNING : AV_LOG_QUIET)
        // SVT-AV1 prints straight to stderr, not through av_log; its own variable quiets it
        // (0 = fatal errors only, 2 = warnings). x265 is quieted per encoder by VideoWriter.
        setenv("SVT_LOG", verbose ? "2" : "0", 1)
    }

    /// Whether FFmpeg's warnings are shown (`--verbose`).
    static var isVerbose: Bool { av_log_get_level() >= AV_LOG_WARNING }
}
