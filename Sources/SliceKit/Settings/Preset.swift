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
    /// The layout file the preset names (absolute, resolved against the preset file's folder),
    /// used unless a run names its own.
    public var layout: String?

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
    /// The line, with the settings it names kept apart for the front end to word.
    public let text: ErrorText
    /// What the file is, when it could not be read as one: not a regular file, or too large.
    package let file: SettingsFile.Failure?
    package init(_ text: ErrorText, file: SettingsFile.Failure? = nil) {
        self.text = text
        self.file = file
    }
    /// The line, settings named by their keys.
    public var message: String { text.description }
    public var description: String { message }
}
