// What the executable decides for the whole process before any command runs: whether it is a
// decode helper (slicevid started by itself for one still), and which executable decodes the
// stills whose decoders can abort — itself.

import SliceMedia

/// Process-wide choices that belong to the executable, not to the library.
package enum ProcessHost {
    /// When `arguments` (the command line after the executable's name) start a decode helper,
    /// serves as one and exits; returns at once otherwise.
    package static func serveDecodeHelperIfAsked(_ arguments: [String]) {
        DecodeHelper.serveIfAsked(arguments)
    }

    /// Makes `executable` the decode helper of every still this process decodes.
    package static func decodeStills(with executable: String) {
        DecodeHelper.executable = executable
    }
}
