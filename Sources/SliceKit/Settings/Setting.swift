// The names of a request's settings, as one vocabulary below every front end. A flag, a preset
// key, a manifest field and a feed column each reach a setting by its key; an error names the
// setting, and the front end that read it words it its own way (`--fps`, `fps`, `jobs[3].fps`).

/// One setting of a render or a campaign, by the key presets and manifests write it with.
public struct Setting: Hashable, Sendable, CustomStringConvertible {
    /// What kind of value it is, which decides how a front end spells it.
    public enum Kind: Hashable, Sendable {
        /// A field of the transition (`fps`, `slices`): a flag, a preset key, a manifest key.
        case spec
        /// An encoding option (`crf`), run-wide or one output's own.
        case encoding
        /// A setting of the music bed (`audio-start`).
        case audio
        /// Which stills a clip is made of (`from`, `to`, `images`).
        case stills
        /// The outputs of a clip, as a list.
        case outputs
        /// How a run is carried out rather than what it makes (`jobs`, `parallel`, `shard`,
        /// `report`, `force`), and what a run reads (`preset`, `layout`, `manifest`).
        case run
        /// A layout, a safe zone: what cards add.
        case layout
        /// A value for a layout's `{placeholder}` (`--var price=…`, a manifest's `vars`).
        case variable
    }

    /// The key, in the words of preset and manifest files (`end-hold`, `encoder-preset`).
    public let key: String
    public let kind: Kind

    public init(_ key: String, kind: Kind) {
        self.key = key
        self.kind = kind
    }

    public var description: String { key }

    /// The settings every front end knows, by the key they share.
    public static let from = Setting("from", kind: .stills)
    public static let to = Setting("to", kind: .stills)
    public static let images = Setting("images", kind: .stills)
    public static let outputs = Setting("outputs", kind: .outputs)
    public static let renderThreads = Setting("jobs", kind: .run)
    public static let parallel = Setting("parallel", kind: .run)
    /// The cores a run shares out among its jobs, render threads and encoders.
    public static let cores = Setting("cores", kind: .run)
    public static let shard = Setting("shard", kind: .run)
    public static let report = Setting("report", kind: .run)
    public static let force = Setting("force", kind: .run)
    public static let prune = Setting("prune", kind: .run)
    /// The most one prune may delete: a share of the campaign's outputs or a count.
    public static let pruneMax = Setting("prune-max", kind: .run)
    public static let only = Setting("only", kind: .run)
    /// The webhook told when a run ends.
    public static let notify = Setting("notify", kind: .run)
    public static let preset = Setting("preset", kind: .run)
    public static let manifest = Setting("manifest", kind: .run)
    public static let layout = Setting("layout", kind: .layout)
    public static let safeZone = Setting("safe-zone", kind: .layout)

    /// A layout variable (`{price}`), by its name.
    public static func variable(_ name: String) -> Setting { Setting(name, kind: .variable) }
}

extension SpecField {
    /// The transition field as a setting.
    public var setting: Setting { Setting(rawValue, kind: .spec) }
}

extension AudioOption {
    /// The music bed's option as a setting.
    public var setting: Setting { Setting(rawValue, kind: .audio) }
}
