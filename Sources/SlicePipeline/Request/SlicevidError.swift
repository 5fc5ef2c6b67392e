// Errors a user can meet, sorted by who has to act: the command line, an input file, or the
// output side. The CLI turns each category into a documented exit code.

import SliceKit
import SliceMedia

/// A failure reported to the user as one line.
public struct SlicevidError: Error, Sendable, CustomStringConvertible {
    /// Who has to act, which decides the exit code.
    public enum Category: Sendable, Equatable {
        /// A flag, value or preset field is wrong (EX_USAGE).
        case usage
        /// An input file is missing or unreadable (EX_NOINPUT).
        case inputMissing
        /// An input file is not a decodable image (EX_DATAERR).
        case inputInvalid
        /// An output cannot be created: it exists, or its folder is missing or read-only (EX_CANTCREAT).
        case outputBlocked
        /// A required encoder or muxer is missing from this libavcodec (EX_UNAVAILABLE).
        case unavailable
        /// Encoding or writing failed part-way (EX_IOERR).
        case outputFailed
        /// Another run holds what this one needs (a manifest's lock): try again later (EX_TEMPFAIL).
        case busy
        /// Stopped by a signal.
        case interrupted(signal: Int32)
        /// Stopped by the program that called the library: a cancelled Task, `cancel()`, or a
        /// `Cancellation` cancelled without a signal.
        case cancelled

        /// Whether the run was asked to stop (a signal or its caller) rather than failing.
        package var isStop: Bool {
            switch self {
            case .interrupted, .cancelled: true
            default: false
            }
        }
    }

    public let category: Category
    /// The line, with the settings and outputs it names kept apart for the front end to word.
    public let text: ErrorText

    public init(_ category: Category, _ text: ErrorText) {
        self.category = category
        self.text = text
    }


    /// The whole line, naming settings by their keys (`fps`, `output clip.mp4`): the words of
    /// preset and manifest files.
    public var message: String { text.description }

    /// The whole line in a front end's words (`--fps`, `-o clip.mp4`).
    public func message(_ wording: some Wording) -> String { text.worded(wording) }

    public var description: String { message }

    /// The same error with `prefix` before its line.
    package func prefixed(_ prefix: ErrorText) -> SlicevidError { SlicevidError(category, text.prefixed(prefix)) }

    /// Sorts a planning error into a category: an encoder missing from this libavcodec is
    /// `.unavailable`, anything else the user asked for that cannot work is `.usage`.
    /// - Parameter output: the output it concerns, which the message starts with.
    package init(_ error: PlanError, output: Output.Destination) {
        self.init(error.kind == .unavailable ? .unavailable : .usage, "\(output: output): \(error.text)")
    }

    /// Sorts a media-layer error into a category.
    package init(_ error: MediaError) {
        switch error.kind {
        case .inputMissing: self.init(.inputMissing, ErrorText(error.description))
        case .inputInvalid: self.init(.inputInvalid, ErrorText(error.description))
        case .unavailable: self.init(.unavailable, ErrorText(error.description))
        case .output: self.init(.outputFailed, ErrorText(error.description))
        // Worth a retry, as another run's lock is: EX_TEMPFAIL.
        case .unreachable: self.init(.busy, ErrorText(error.description))
        }
    }

    /// Sorts a preset that cannot be had into a category, the same wherever it is named (a
    /// flag, a manifest, a library call): a file that is not a regular file or whose name is
    /// too long is `.inputMissing`, one too large `.inputInvalid`, anything else (a missing
    /// file, an unknown name, a bad field) `.usage`.
    public init(_ error: PresetError) {
        switch error.file {
        case .notRegular, .nameTooLong: self.init(.inputMissing, error.text)
        case .tooLarge: self.init(.inputInvalid, error.text)
        case .missing, nil: self.init(.usage, error.text)
        }
    }
}
