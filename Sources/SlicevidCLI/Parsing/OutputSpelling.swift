// The command line's two words for outputs that are not files: `-o -` streams YUV4MPEG2 to
// standard output, `-o null` renders and writes nothing. They are read here, into the typed
// destination, and written here, in logs and JSON events; nothing below the command line knows
// them.

import Slicevid

/// How `-o` spells the outputs that are not files.
enum OutputSpelling {
    /// `-o -`: YUV4MPEG2 to standard output.
    static let standardOutput = "-"
    /// `-o null`: rendered, written nowhere.
    static let discard = "null"

    /// The words `-o` gives a meaning other than a file's path.
    static let names: [String: Output.Destination] = [standardOutput: .standardOutput, discard: .discard]

    /// An output as the command line writes it: its path, the pattern, `-` or `null`.
    static func spelled(_ destination: Output.Destination) -> String {
        switch destination {
        case .standardOutput: standardOutput
        case .discard: discard
        case .file, .frames: destination.path ?? ""
        }
    }
}
