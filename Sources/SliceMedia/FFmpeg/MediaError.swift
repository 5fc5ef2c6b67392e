// The one error type of the FFmpeg layer: which call failed, its code, and FFmpeg's words.

import CFFmpeg

/// A failed FFmpeg call, or a media condition the caller must report to the user.
package struct MediaError: Error, CustomStringConvertible, Sendable {
    /// What kind of failure this is, so the CLI can choose its exit code.
    package enum Kind: Sendable, Equatable {
        /// An input file does not exist or cannot be opened for reading.
        case inputMissing
        /// An input file is not a decodable image (wrong type, truncated, corrupt).
        case inputInvalid
        /// This machine's libavcodec lacks an encoder or muxer that is needed.
        case unavailable
        /// Encoding or writing failed.
        case output
        /// A remote input could not be fetched for now (a timeout, a reset, HTTP 5xx, 408 or
        /// 429 after every attempt): the same run may succeed later.
        case unreachable
    }

    package let kind: Kind
    /// The file, encoder or format the error is about.
    package let subject: String
    /// One line for the user.
    package let message: String
    /// The FFmpeg return code, when a call failed.
    package let code: Int32?
    /// The FFmpeg function that failed, for `--verbose`.
    package let function: String?

    package init(_ kind: Kind, subject: String, message: String, code: Int32? = nil, function: String? = nil) {
        self.kind = kind
        self.subject = subject
        self.message = message
        self.code = code
        self.function = function
    }

    package var description: String { "\(subject): \(message)" }

    /// Work on `subject` given up because the run is stopping (a signal, or another error).
    static func stopped(subject: String) -> MediaError {
        MediaError(.inputInvalid, subject: subject, message: "not finished: the run was stopped")
    }

    /// An allocation FFmpeg could not make.
    static func outOfMemory(subject: String) -> MediaError {
        MediaError(.output, subject: subject, message: "out of memory")
    }

    /// FFmpeg's text for an error code (av_strerror; `av_err2str` is a macro Swift cannot use).
    package static func text(for code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard av_strerror(code, &buffer, buffer.count) >= 0 else { return "error \(code)" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// Throws a `MediaError` of `kind` when `code` is negative; returns it otherwise.
@discardableResult
func check(_ code: Int32, _ function: String, kind: MediaError.Kind = .output, subject: String) throws(MediaError) -> Int32 {
    if code < 0 {
        throw MediaError(kind, subject: subject, message: "\(function) failed: \(MediaError.text(for: code))",
                         code: code, function: function)
    }
    return code
}

/// FFmpeg's control-flow return codes, which are results rather than errors.
enum AVStatus {
    static let again = cffmpeg_error_eagain()
    static let endOfFile = cffmpeg_error_eof()
    /// What a callback returns to stop FFmpeg on request (cancellation).
    static let exit = cffmpeg_error_exit()
}
