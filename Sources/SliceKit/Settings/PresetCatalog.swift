// Where `--preset NAME` is looked up: a path is read as a file; a name is searched for as
// NAME.json in each preset folder in turn, then among the built-in presets. The first match
// wins, so a team's folder can replace a shipped preset under the same name.

import Foundation

/// The preset folders, in lookup order, and the presets they and the binary hold.
public struct PresetCatalog: Sendable {
    /// Folders searched for `NAME.json`, first match wins; folders that do not exist are
    /// skipped. The built-in presets come after all of them.
    public let directories: [String]

    /// A preset and where it was found.
    public struct Entry: Sendable, Equatable {
        public let preset: Preset
        /// The file it was read from; nil for a built-in preset.
        public let path: String?
    }

    public init(directories: [String]) {
        self.directories = directories
    }

    /// The standard lookup order: each folder of `$SLICEVID_PRESETS` (colon-separated), then
    /// the presets installed beside the binary (`<bin>/../share/slicevid/presets`, where
    /// `make install` puts them); the built-ins follow.
    /// - Parameters:
    ///   - environment: the process environment.
    ///   - executable: the running binary's path, symlinks resolved; nil if unknown.
    public static func standard(environment: [String: String], executable: String?) -> PresetCatalog {
        var directories = (environment["SLICEVID_PRESETS"] ?? "").split(separator: ":").map(String.init)
        if let executable {
            let binary = URL(fileURLWithPath: executable).deletingLastPathComponent()
            directories.append(binary.appendingPathComponent("../share/slicevid/presets").standardizedFileURL.path)
        }
        return PresetCatalog(directories: directories)
    }

    /// Whether a `--preset` value is a file path rather than a name: it contains a `/` or
    /// ends in `.json`.
    package static func isPath(_ value: String) -> Bool {
        value.contains("/") || value.lowercased().hasSuffix(".json")
    }

    /// Resolves a `--preset` value: a path is read as a file; a name is the first
    /// `NAME.json` in `directories`, else the built-in preset of that name.
    /// - Throws: `PresetError` naming the file and field at fault, or, for an unknown name,
    ///   listing the available ones.
    public func load(_ value: String) throws(PresetError) -> Preset {
        if PresetCatalog.isPath(value) {
            return try PresetCatalog.read(path: value)
        }
        for directory in directories {
            let path = (directory as NSString).appendingPathComponent(value + ".json")
            // Anything at the name counts (a FIFO is refused by `read`, not skipped).
            var status = stat()
            if FileSystem.lstat(path, &status) == 0 { return try PresetCatalog.read(path: path) }
        }
        if let preset = Preset.builtIn.first(where: { $0.name == value }) { return preset }
        let names = Set(presetFiles().map(\.name) + Preset.builtIn.map(\.name)).sorted()
        throw PresetError("unknown preset \(InputText.quoted(value)); available: \(names.joined(separator: ", ")) (or a path to a .json file)")
    }

    /// Every preset a name can reach, one per name (the one `load` would return), sorted
    /// by name; files that fail to load are reported instead of listed.
    public func all() -> (entries: [Entry], problems: [PresetError]) {
        var entries: [String: Entry] = [:]
        var problems: [PresetError] = []
        // A broken file still wins its name: `load` would read it, never the built-in.
        var broken: Set<String> = []
        for file in presetFiles() where entries[file.name] == nil && !broken.contains(file.name) {
            do {
                entries[file.name] = Entry(preset: try PresetCatalog.read(path: file.path), path: file.path)
            } catch {
                problems.append(error)
                broken.insert(file.name)
            }
        }
        for preset in Preset.builtIn where entries[preset.name] == nil && !broken.contains(preset.name) {
            entries[preset.name] = Entry(preset: preset, path: nil)
        }
        return (entries.values.sorted { $0.preset.name < $1.preset.name }, problems)
    }

    /// The `*.json` files of every folder, in lookup order (within a folder, by name).
    private func presetFiles() -> [(name: String, path: String)] {
        directories.flatMap { directory in
            let names = FileSystem.names(inFolder: directory) ?? []
            return names.filter { $0.hasSuffix(".json") }.sorted().map {
                (String($0.dropLast(5)), (directory as NSString).appendingPathComponent($0))
            }
        }
    }

    /// Reads a preset file; its name is the file name without `.json`.
    private static func read(path: String) throws(PresetError) -> Preset {
        let data: Data
        do {
            data = try SettingsFile.read(path: path)
        } catch .missing {
            throw PresetError("\(path): no such preset file, or it cannot be read")
        } catch .nameTooLong {
            throw PresetError("\(InputText.quoted(path)): \(SettingsFile.Failure.nameTooLong.reason)", file: .nameTooLong)
        } catch {
            throw PresetError("\(InputText.quoted(path)): \(error.reason)", file: error)
        }
        let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        var preset = try Preset(json: data, name: name, source: path)
        // A layout the file names is relative to the file, wherever the run starts; a URL stays one.
        preset.layout = preset.layout.map { layout in
            if RemoteURL.isRemote(layout) { return layout }
            return URL(fileURLWithPath: layout, relativeTo: URL(fileURLWithPath: path).deletingLastPathComponent()).standardizedFileURL.path
        }
        return preset
    }
}
