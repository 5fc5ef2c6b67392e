// Why an output cannot be planned: a combination the user asked for that cannot work, or an
// encoder this libavcodec lacks. Raised before anything is decoded or rendered.

import SliceKit

/// An output that cannot be written as asked.
package struct PlanError: Error, Sendable, Equatable, CustomStringConvertible {
    package enum Kind: Sendable, Equatable {
        /// The options, the container and the codec do not fit together (a usage error).
        case usage
        /// The codec's encoders are all missing from this libavcodec.
        case unavailable
    }

    package let kind: Kind
    /// One line for the user; callers prefix it with the output it concerns.
    package let text: ErrorText

    package init(_ kind: Kind, _ text: ErrorText) {
        self.kind = kind
        self.text = text
    }

    /// The line, settings named by their keys.
    package var message: String { text.description }

    package var description: String { message }
}
