// Finding a preset by name or path.

import Foundation
import SliceKit
import SlicePipeline

/// Resolves `--preset` values.
enum PresetLibrary {
    /// A path (anything with a slash or ending in .json) is read as a file; otherwise the name
    /// is looked up among the built-in presets.
    /// - Throws: `SlicevidError(.usage)` naming the file or listing the available names.
    static func load(_ value: String) throws(SlicevidError) -> Preset {
        if value.contains("/") || value.lowercased().hasSuffix(".json") {
            guard let data = FileManager.default.contents(atPath: value) else {
                throw SlicevidError(.usage, "--preset \(value): no such preset file, or it cannot be read")
            }
            let name = URL(fileURLWithPath: value).deletingPathExtension().lastPathComponent
            do {
                return try Preset(json: data, name: name, source: value)
            } catch {
                throw SlicevidError(.usage, error.message)
            }
        }
        guard let preset = Preset.builtIn.first(where: { $0.name == value }) else {
            throw SlicevidError(.usage, "--preset \(value): unknown preset; available: \(Preset.builtIn.map(\.name).joined(separator: ", "))")
        }
        return preset
    }
}
