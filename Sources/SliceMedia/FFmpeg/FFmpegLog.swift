// FFmpeg logs to stderr by default; a cron job's stderr should hold only slicevid's own lines.
// Every FFmpeg message passes through one callback here: errors a decoder logs about a still are
// kept for that still (they decide whether it is damaged). In the command line, whose process
// host configures the routing, the rest reaches stderr only with --verbose. In a program that
// embeds the library, the rest goes on to FFmpeg's own default callback, at the level that
// program set: FFmpeg has one callback per process, and strict decoding needs to hear decoders'
// errors, but the host's logging stays as it would be without slicevid.

import CFFmpeg
import Foundation
import Synchronization

/// Controls how much of FFmpeg's own logging reaches stderr, and keeps the errors a decoder
/// reports about the still it is decoding.
package enum FFmpegLog {
    /// For the process host only: silences FFmpeg, or lets its warnings and errors through
    /// (prefixed with their source) when `verbose`.
    package static func configure(verbose: Bool) {
        hosted.store(true, ordering: .relaxed)
        installRouter()
        av_log_set_level(verbose ? AV_LOG_WARNING : AV_LOG_QUIET)
        // SVT-AV1 prints straight to stderr, not through av_log; its own variable quiets it
        // (0 = fatal errors only, 2 = warnings). x265 is quieted per encoder by VideoWriter.
        setenv("SVT_LOG", verbose ? "2" : "0", 1)
    }

    /// The errors FFmpeg logs against a set of contexts (a decoder, its demuxer), from `init`
    /// until the capture is released.
    final class Capture: Sendable {
        private let contexts: [UInt]
        private let messages = Messages()

        /// Starts keeping error messages logged against `contexts` (or against objects whose
        /// parent they are, like libavutil's size checks done for a decoder).
        init(_ contexts: [UnsafeMutableRawPointer]) {
            installRouter()
            self.contexts = contexts.map { UInt(bitPattern: $0) }
            Self.active.withLock { active in
                for context in self.contexts { active[context] = messages }
            }
        }

        deinit {
            // Only our own entries: a context freed before this capture may already have been
            // reallocated, at the same address, to a decode on another thread.
            Self.active.withLock { active in
                for context in contexts where active[context] === messages { active[context] = nil }
            }
        }

        /// The first error logged, as one escaped line of at most ~80 characters.
        var firstError: String? { messages.first.withLock { $0 } }

        /// What the log callback writes to (on any thread) while the capture is registered.
        fileprivate final class Messages: Sendable {
            let first = Mutex<String?>(nil)

            func record(_ message: String) {
                first.withLock { first in
                    if first == nil { first = FFmpegLog.quoted(message) }
                }
            }
        }

        /// Registered captures by context address; one context belongs to at most one capture.
        fileprivate static let active = Mutex<[UInt: Messages]>([:])

        /// The capture for a logging context or, failing that, for the parents it names.
        fileprivate static func owner(of context: UnsafeMutableRawPointer?) -> Messages? {
            var current = context
            for _ in 0..<4 {
                guard let object = current else { return nil }
                if let messages = active.withLock({ $0[UInt(bitPattern: object)] }) { return messages }
                // An AVClass-using object may name its parent's offset (libavutil's imgutils does).
                guard let type = object.load(as: UnsafePointer<AVClass>?.self),
                      type.pointee.parent_log_context_offset > 0 else { return nil }
                current = (object + Int(type.pointee.parent_log_context_offset)).load(as: UnsafeMutableRawPointer?.self)
            }
            return nil
        }
    }

    /// `text` as one printable line of at most `limit` characters: trailing newlines dropped,
    /// control characters escaped (`\n`, `\u{1B}`), the rest cut with "…". FFmpeg's messages
    /// quote bytes from the file, so they are input like any other.
    static func quoted(_ text: String, limit: Int = 80) -> String {
        var line = ""
        var count = 0
        for scalar in text.trimmingCharacters(in: .whitespacesAndNewlines).unicodeScalars {
            let piece: String
            switch scalar {
            case "\n": piece = "\\n"
            case "\r": piece = "\\r"
            case "\t": piece = "\\t"
            case _ where scalar.properties.generalCategory == .control || scalar.properties.generalCategory == .format:
                piece = "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: piece = String(scalar)
            }
            if count + piece.count > limit { return line + "…" }
            line += piece
            count += piece.count
        }
        return line
    }

    private static let router: Void = {
        av_log_set_callback { context, level, format, arguments in
            FFmpegLog.route(context, level: level, format: format, arguments: arguments)
        }
    }()

    /// Installs the callback every FFmpeg message goes through (once per process).
    static func installRouter() { _ = router }

    /// Whether the process host configured the routing (the command line) or not (a program
    /// embedding the library, whose FFmpeg logging goes on as FFmpeg's default callback does).
    private static let hosted = Atomic<Bool>(false)

    private static func route(_ context: UnsafeMutableRawPointer?, level: Int32, format: UnsafePointer<CChar>?,
                              arguments: CVaListPointer?) {
        guard hosted.load(ordering: .relaxed) || level <= AV_LOG_ERROR && Capture.owner(of: context) != nil else {
            if let format, let arguments { av_log_default_callback(context, level, format, arguments) }
            return
        }
        // Most messages are debug chatter below both thresholds: leave them before any work.
        let shown = level <= av_log_get_level()
        guard level <= AV_LOG_ERROR || shown, let format, let arguments else { return }
        let capture = level <= AV_LOG_ERROR ? Capture.owner(of: context) : nil
        guard capture != nil || shown else { return }
        var buffer = [CChar](repeating: 0, count: 1024)
        let length = vsnprintf(&buffer, buffer.count, format, arguments)
        guard length >= 0 else { return }
        // A longer message is cut at the buffer: only its start is ever quoted.
        let message = String(decoding: buffer.prefix(min(Int(length), buffer.count - 1)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if let capture {
            capture.record(message)
        } else {
            FileHandle.standardError.write(Data(("[\(name(of: context))] " + message).utf8))
        }
    }

    /// What a decode helper wrote to its standard error (libraries' own diagnostics: dav1d's,
    /// librsvg's, libheif's), shown as FFmpeg's warnings are: with --verbose only, a line each,
    /// escaped, named `source`; dropped otherwise.
    static func passOn(_ bytes: [UInt8], from source: String) {
        guard !bytes.isEmpty, av_log_get_level() >= AV_LOG_WARNING else { return }
        for line in String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline).prefix(20) {
            FileHandle.standardError.write(Data("[\(source)] \(quoted(String(line), limit: 200))\n".utf8))
        }
    }

    /// The name FFmpeg gives a logging context ("png", "swscaler"), or "ffmpeg".
    private static func name(of context: UnsafeMutableRawPointer?) -> String {
        guard let context, let type = context.load(as: UnsafePointer<AVClass>?.self),
              let itemName = type.pointee.item_name, let name = itemName(context) else { return "ffmpeg" }
        return String(cString: name)
    }
}
