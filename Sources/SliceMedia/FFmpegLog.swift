// FFmpeg logs to stderr by default; a cron job's stderr should hold only slicevid's own lines.

import CFFmpeg

/// Controls how much of FFmpeg's own logging reaches stderr.
public enum FFmpegLog {
    /// Silences FFmpeg, or lets its warnings and errors through when `verbose`.
    public static func configure(verbose: Bool) {
        av_log_set_level(verbose ? AV_LOG_WARNING : AV_LOG_QUIET)
    }
}
