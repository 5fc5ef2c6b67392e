// How a manifest's messages name what they are about: settings by the keys the file uses,
// outputs by their paths, and a setting's value by the layer of the manifest that gave it
// (`background of preset 'house.json'`), so the user knows which of three places to edit.
// Settings of the run itself (`force`, `report`) are not the manifest's: the front end that
// started the batch names them (`--force` on the command line).

import SliceKit

/// Names settings and outputs in a manifest's words.
package struct ManifestWording: Wording {
    /// Where in the manifest a setting's value came from, when that is worth saying.
    package var origins: [Setting: String]
    /// How the front end that runs the batch names the run's own settings.
    package var run: any Wording

    package init(origins: [Setting: String] = [:], run: any Wording = KeyWording()) {
        self.origins = origins
        self.run = run
    }

    package func name(_ setting: Setting) -> String {
        switch setting.kind {
        case .run: run.name(setting)
        case .variable: "vars.\(setting.key)"
        default: setting.key
        }
    }

    package func origin(_ setting: Setting) -> String { origins[setting] ?? name(setting) }

    /// The path alone: the job or field before it already says it is an output.
    package func output(_ path: String) -> String { path }
}
