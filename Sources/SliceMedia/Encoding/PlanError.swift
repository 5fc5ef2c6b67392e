// Why an output cannot be planned: a combination the user asked for that cannot work, or an
// encoder this libavcodec lacks. Raised before anything is decoded or rendered.

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
    package let message: String

    package init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    package var description: String { message }
}
