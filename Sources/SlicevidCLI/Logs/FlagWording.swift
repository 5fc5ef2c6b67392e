// How the command line names what an error is about: settings as the flags that set them
// (`--fps`, `-o clip.mp4`), and a value a preset gave as the preset's, since the user typed no
// flag for it (`background of preset 'house.json'`).

import Slicevid

/// Names settings and outputs in the command line's words.
struct FlagWording: Wording {
    /// The `--preset` value, when one was given: settings no flag set came from it.
    var preset: String?
    /// The long names of the flags given.
    var given: Set<String> = []

    func name(_ setting: Setting) -> String {
        switch setting.kind {
        case .outputs: "-o"
        case .stills where setting == .images: "the images"
        case .variable: "--var \(setting.key)=VALUE"
        default: "--" + setting.key
        }
    }

    func origin(_ setting: Setting) -> String {
        guard setting.kind == .spec, !given.contains(setting.key), let preset else { return name(setting) }
        return "\(setting.key) of preset \(InputText.quoted(preset))"
    }

    func output(_ path: String) -> String { "-o \(path)" }

    var standardOutput: String { "-o \(OutputSpelling.standardOutput)" }
}
