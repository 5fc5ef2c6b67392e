// Finding a preset by name or path, with the lookup order PresetCatalog documents.

import Foundation
import SliceKit
import SlicePipeline

/// Resolves `--preset` values for the commands.
enum PresetLibrary {
    /// The standard catalog for this process: `$SLICEVID_PRESETS`, then the presets installed
    /// beside this binary, then the built-ins.
    static var catalog: PresetCatalog {
        // /proc/self/exe is the real binary even when run through a symlink (/usr/local/bin).
        let executable = FileSystem.realpath("/proc/self/exe")
            ?? CommandLine.arguments.first.map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().path }
        // Folders' names byte for byte (`PathBytes`), as the command line's are.
        var environment = ProcessInfo.processInfo.environment
        if let folders = getenv("SLICEVID_PRESETS") {
            environment["SLICEVID_PRESETS"] = PathBytes.text(UnsafeRawBufferPointer(start: folders, count: strlen(folders)))
        }
        return PresetCatalog.standard(environment: environment, executable: executable)
    }

    /// Loads a preset by path or name.
    /// - Throws: `SlicevidError(.usage)` naming the file and field, or listing the available names.
    static func load(_ value: String) throws(SlicevidError) -> Preset {
        do {
            return try catalog.load(value)
        } catch {
            switch error.file {
            case .notRegular, .nameTooLong: throw SlicevidError(.inputMissing, error.text)
            case .tooLarge: throw SlicevidError(.inputInvalid, error.text)
            case .missing, nil: throw SlicevidError(.usage, error.text)
            }
        }
    }
}
