// Everything one render needs, typed: the stills, the transition, the outputs and how each is
// encoded, the music bed. Every front end (flags, presets, manifests, feeds) reads its text into
// this once, at its edge; below it nothing parses a string or knows which front end spoke.

import Foundation
import SliceKit
import SliceMedia

/// Everything one render needs. An invalid request cannot be built: the initialiser refuses
/// what is wrong in the request itself; what depends on the files and the encoders present is
/// checked when it is planned.
public struct MakeRequest: Sendable {
    /// The look and timing of the transition.
    public var spec: TransitionSpec
    /// The stills shown in turn, or the demo cards.
    public internal(set) var stills: Stills
    /// Per-transition settings for a sequence; nil derives them from `spec`
    /// (`SequenceSpec(base: spec, imageCount:)`). Must share `spec`'s size, fps, background, fit.
    package var sequence: SequenceSpec?
    /// Images that move their own way (Ken Burns), by position in `stills` (0: the first),
    /// instead of `spec.motion`; a manifest's `{"path": …, "motion": …}`.
    public var stillMotions: [Int: StillMotion] = [:]
    /// Where the clip goes, each with its own settings, in the order given.
    public private(set) var outputs: [Output]
    /// Run-wide encoding settings; each output uses those that fit it.
    public var encoder: EncoderSettings
    /// The music bed (no file: silent video).
    public var audio: AudioSettings
    /// How stills and a song given as http(s) URLs are fetched and cached.
    public var remote = RemoteOptions()
    /// Text and pictures placed on the cards and over the frames.
    public var layout: Layout?
    /// Values for the layout's `{placeholders}`.
    public var variables: [String: String] = [:]
    /// Which platform's interface the layout's layers (and a cover crop's focus) must stay
    /// clear of.
    public var safeZone: SafeZone.Choice = .fromLayout
    /// Replace (or, past a sequence's new end, delete) whatever is at the output paths.
    public var force: Bool
    /// Threads that render frames. Output is the same for any number.
    public private(set) var renderThreads: Int
    /// The cores each output's encoder takes its thread count from (`ThreadBudget
    /// .encoderThreads`): this machine's by default. The count depends on the cores and the
    /// output's frame alone, so renders side by side write what one alone writes; x264, x265
    /// and libvpx write other bytes for another core count.
    public var threads: ThreadBudget = .machine
    /// What each output may replace when `force` is off, by output path; an output not listed
    /// may replace nothing. A batch licenses exactly what its sidecars record.
    package var replacements: [String: Replacement] = [:]
    /// Makes each output's sidecar from its path, the stamps of its files and what it holds
    /// (frames and seconds as written); the sidecar is written in the same step as the output
    /// is moved into place. nil (`make`) writes none.
    package var sidecar: (@Sendable (_ output: String, _ files: [FileStamp], _ written: WrittenOutput) -> OutputRecord)?
    /// Hears each output and its sidecar once both are in place, inside the commit.
    package var onCommit: (@Sendable (_ output: String, _ record: OutputRecord) -> Void)?
    /// SHA-256 (hex) of the layout's font files as a batch's survey read them (its
    /// fingerprint), by path: a font whose bytes differ when the job is planned or drawn has
    /// changed mid-run, and fails the job. Empty (`make`): the plan's own reading is the one.
    package var layoutDigests: [String: String] = [:]
    /// Frame buffers; nil picks `RenderLoop.defaultWindow(jobs:)`.
    package var window: Int?
    /// The encoders outputs may use (tests stand in for a libavcodec that lacks some).
    package var catalog: EncoderCatalog = .installed
    /// Whether a setting in `encoder` that would change what is written but fits none of the
    /// outputs is an error (flags typed for this run) or ignored (a manifest's settings, meant
    /// for jobs with many kinds of outputs).
    package var refusesUnusedSettings = true
    /// Encoders' own warnings reach stderr (`--verbose`).
    package var verbose = false
    /// Keeps the render's last frame, scaled down (a batch's report page poster); not an output.
    package var lastFrame: LastFrame?
    /// The layout `lastFrame` is drawn in: a batch's poster of a job it did not render again
    /// is drawn in the layout the job's first output is rendered in, so it is the same picture
    /// either way. nil: the first output's layout. Never changes what an output is fed.
    package var canvas: PixelLayout?

    /// The render threads accepted: more than cores only adds contention, but 64 keeps big
    /// machines usable.
    public static let renderThreadsRange = 1...64

    /// Render threads when none are asked for: one per core, at most the most accepted.
    public static var defaultRenderThreads: Int { defaultRenderThreads(cores: ProcessInfo.processInfo.activeProcessorCount) }

    /// Render threads when none are asked for on a machine of `cores` cores: a 96-vCPU server
    /// gets the most accepted, not a refusal of its own default.
    package static func defaultRenderThreads(cores: Int) -> Int { min(max(1, cores), renderThreadsRange.upperBound) }

    /// The most outputs one render writes: each holds an encoder, its threads and its own
    /// frames in memory, and 200 WebM outputs took 4 GB.
    public static let maxOutputs = 32

    /// A request; refuses what cannot work whatever the files say.
    /// - Parameters:
    ///   - stills: the stills, or `.demo` for the built-in cards.
    ///   - outputs: at least one, at most `maxOutputs`, each named once, standard output once.
    ///   - renderThreads: within `renderThreadsRange`.
    /// - Throws: `SlicevidError(.usage)` naming the setting.
    public init(stills: Stills = .demo, outputs: [Output], spec: TransitionSpec = TransitionSpec(),
                encoder: EncoderSettings = EncoderSettings(), audio: AudioSettings = AudioSettings(), force: Bool = false,
                renderThreads: Int = MakeRequest.defaultRenderThreads) throws(SlicevidError) {
        self.spec = spec
        self.stills = stills
        self.outputs = []
        self.encoder = encoder
        self.audio = audio
        self.force = force
        self.renderThreads = 1
        try stills.validate()
        try setOutputs(outputs)
        try setRenderThreads(renderThreads)
    }

    /// Replaces the outputs.
    /// - Throws: `SlicevidError(.usage)`: none, more than `maxOutputs`, one given twice, or
    ///   standard output twice.
    public mutating func setOutputs(_ outputs: [Output]) throws(SlicevidError) {
        guard !outputs.isEmpty else { throw SlicevidError(.usage, "\(setting: .outputs): at least one output is needed") }
        guard outputs.count <= MakeRequest.maxOutputs else {
            throw SlicevidError(.usage, "\(setting: .outputs): \(outputs.count) outputs given; at most \(MakeRequest.maxOutputs) per run (each holds an encoder in memory)")
        }
        var seen: Set<Output.Destination> = []
        for output in outputs where output.destination != .discard {
            guard seen.insert(output.destination).inserted else {
                throw SlicevidError(.usage, output.destination == .standardOutput
                                    ? "\(output: output.destination): given twice; standard output carries one stream"
                                    : "\(output: output.destination): given twice")
            }
        }
        self.outputs = outputs
    }

    /// Replaces the stills.
    /// - Throws: `SlicevidError(.usage)` for a sequence of fewer than two.
    public mutating func setStills(_ stills: Stills) throws(SlicevidError) {
        try stills.validate()
        self.stills = stills
    }

    /// Sets the render threads.
    /// - Throws: `SlicevidError(.usage)` outside `renderThreadsRange`.
    public mutating func setRenderThreads(_ threads: Int) throws(SlicevidError) {
        guard MakeRequest.renderThreadsRange.contains(threads) else {
            throw SlicevidError(.usage, "\(setting: .renderThreads): \(threads) must be \(MakeRequest.renderThreadsRange.lowerBound)–\(MakeRequest.renderThreadsRange.upperBound)")
        }
        renderThreads = threads
    }

    /// What the output at `path` may replace.
    package func replacement(for path: String) -> Replacement {
        force ? .anything : replacements[path] ?? .nothing
    }
}
