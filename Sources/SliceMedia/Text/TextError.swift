// Why a text layer was refused: one line for the user, naming the layer (or the font file),
// and a kind that decides the exit code.

import SliceKit

/// A text layer that cannot be drawn exactly as asked.
package struct TextError: Error, Sendable, Equatable, CustomStringConvertible {
    package enum Kind: Sendable, Equatable {
        /// A font file is missing, unreadable or not a regular file. Exit 66 (missing input).
        case fontMissing
        /// A font file is not a font slicevid draws with (not a font, damaged, too big, a
        /// bitmap or colour font). Exit 65 (bad input data).
        case fontInvalid
        /// A font file changed while the run used it: its bytes are not the ones the run's plan
        /// (and a batch's fingerprint) read. Exit 65.
        case fontChanged
        /// A character none of the fonts has. Exit 65.
        case unknownCharacter
        /// The text does not fit its box at the smallest size (and the layer has no ellipsis). Exit 65.
        case doesNotFit
        /// A number, colour, name or text the engine cannot take (out of range, not finite,
        /// control characters). Exit 65.
        case invalidSetting
        /// Pango, Cairo or fontconfig did not load on this machine. Exit 69 (unavailable).
        case unavailable
    }

    package let kind: Kind
    /// What the message is about: `layer 'price'`, or a font file's path.
    package let subject: String
    /// The rest of the line, after the subject.
    package let message: String

    package init(_ kind: Kind, subject: String, message: String) {
        self.kind = kind
        self.subject = subject
        self.message = message
    }

    /// `layer 'price': …` for `layer`, its name quoted with control characters escaped.
    package init(_ kind: Kind, layer: String, message: String) {
        self.init(kind, subject: "layer \(InputText.quoted(layer))", message: message)
    }

    package var description: String { "\(subject): \(message)" }

    /// The exit status the command line gives this error (see `Kind`).
    package var exitCode: Int32 {
        switch kind {
        case .fontMissing: 66
        case .unavailable: 69
        case .fontInvalid, .fontChanged, .unknownCharacter, .doesNotFit, .invalidSetting: 65
        }
    }

    /// The same error as the media layer's: a missing font is a missing input, the rest bad
    /// input data, so the pipeline's error categories (and exit codes) apply unchanged.
    package var mediaError: MediaError {
        let kind: MediaError.Kind = switch self.kind {
        case .fontMissing: .inputMissing
        case .unavailable: .unavailable
        case .fontInvalid, .fontChanged, .unknownCharacter, .doesNotFit, .invalidSetting: .inputInvalid
        }
        return MediaError(kind, subject: subject, message: message)
    }
}
