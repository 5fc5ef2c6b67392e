// Presets: a named, described TransitionSpec — how a team keeps its house look in one file.
// Built-in presets live in Preset+BuiltIn.swift, the JSON form in Preset+JSON.swift, and the
// lookup of a name across folders in PresetCatalog.swift.

/// A named look: every field of a `TransitionSpec`, plus a one-line description.
public struct Preset: Sendable, Equatable {
    public var name: String
    public var summary: String
    public var spec: TransitionSpec
    /// The music bed's settings (never its file: a preset is a look, not a song).
    public var audio: AudioSettings

    package init(name: String, summary: String, spec: TransitionSpec, audio: AudioSettings = AudioSettings()) {
        self.name = name
        self.summary = summary
        self.spec = spec
        self.audio = audio
    }
}

/// A preset that could not be found or read; `description` is the one line a user sees,
/// naming the file and field.
public struct PresetError: Error, Equatable, CustomStringConvertible {
    public let message: String
    /// What the file is, when it could not be read as one: not a regular file, or too large.
    package let file: SettingsFile.Failure?
    package init(_ message: String, file: SettingsFile.Failure? = nil) {
        self.message = message
        self.file = file
    }
    public var description: String { message }
}
