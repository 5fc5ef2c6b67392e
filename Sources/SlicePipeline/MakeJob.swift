// One `slicevid make`: validate everything, decode the stills once, render once, feed every
// output, and move the outputs into place only when all of them are complete.

import Foundation
import SliceKit
import SliceMedia

/// Everything one render needs, resolved from defaults, a preset and flags.
public struct MakeRequest: Sendable {
    public var spec: TransitionSpec
    /// The outgoing still; nil (with `to` nil) renders the built-in demo cards.
    public var from: String?
    /// The incoming still.
    public var to: String?
    /// Two or more stills shown in turn (`slicevid make a b c`); used instead of `from`/`to`.
    public var images: [String]
    /// Per-transition settings for `images`; nil derives them from `spec`
    /// (`SequenceSpec(base: spec, imageCount:)`). Must share `spec`'s size, fps, background, fit.
    public var sequence: SequenceSpec?
    /// `-o` values: a path, whose extension gives the format, and optionally that output's own
    /// options (`promo.webm:crf=32`).
    public var outputs: [String]
    /// Run-wide encoding settings; each output uses those that fit it.
    public var encoder: EncoderSettings
    /// Replace (or, past a sequence's new end, delete) whatever is at the output paths.
    public var force: Bool
    /// What each output may replace when `force` is off, by output path; an output not listed
    /// may replace nothing. A batch licenses exactly what its sidecars record.
    public var replacements: [String: Replacement] = [:]
    /// Makes each output's sidecar from its path, the stamps of its files and the frames
    /// rendered; the sidecar is written in the same step as the output is moved into place.
    /// nil (`make`) writes none.
    public var sidecar: (@Sendable (_ output: String, _ files: [FileStamp], _ frames: Int) -> OutputRecord)?
    /// Hears each output and its sidecar once both are in place, inside the commit.
    public var onCommit: (@Sendable (_ output: String, _ record: OutputRecord) -> Void)?
    /// Render threads.
    public var jobs: Int
    /// Frame buffers; nil picks `RenderLoop.defaultWindow(jobs:)`.
    public var window: Int?
    /// The encoders outputs may use (tests stand in for a libavcodec that lacks some).
    public var catalog: EncoderCatalog = .installed
    /// Whether a setting in `encoder` that would change what is written but fits none of the
    /// outputs is an error (flags typed for this run) or ignored (a manifest's settings, meant
    /// for jobs with many kinds of outputs).
    public var refusesUnusedSettings = true

    /// The render threads accepted: more than cores only adds contention, but 64 keeps big
    /// machines usable.
    public static let jobsRange = 1...64

    public init(spec: TransitionSpec = TransitionSpec(), from: String? = nil, to: String? = nil,
                images: [String] = [], sequence: SequenceSpec? = nil, outputs: [String],
                encoder: EncoderSettings = EncoderSettings(), force: Bool = false,
                jobs: Int = ProcessInfo.processInfo.activeProcessorCount, window: Int? = nil) {
        self.spec = spec
        self.from = from
        self.to = to
        self.images = images
        self.sequence = sequence
        self.outputs = outputs
        self.encoder = encoder
        self.force = force
        self.jobs = jobs
        self.window = window
    }

    /// What the output at `path` may replace.
    public func replacement(for path: String) -> Replacement {
        force ? .anything : replacements[path] ?? .nothing
    }
}

/// What a render reports as it goes.
public enum MakeEvent: Sendable {
    /// Both stills decoded and every encoder open: from here on only output can fail.
    case started(frames: Int, outputs: [String])
    /// `done` of `total` frames consumed by every output.
    case progress(done: Int, total: Int)
}

/// What a finished render did.
public struct MakeReport: Sendable {
    public var frames: Int
    public var seconds: Double
    public var outputs: [String]
    public var stats: RenderStats
}

/// Runs `slicevid make`.
public enum MakeJob {
    /// Renders `request`, or fails without leaving anything under an output's final name.
    /// - Parameters:
    ///   - cancellation: set by SIGINT/SIGTERM to stop early.
    ///   - events: progress callbacks; may be called from any thread.
    /// - Throws: `SlicevidError` whose category decides the exit code.
    public static func run(_ request: MakeRequest, cancellation: Cancellation = Cancellation(),
                           events: @escaping @Sendable (MakeEvent) -> Void = { _ in }) throws(SlicevidError) -> MakeReport {
        let started = DispatchTime.now()
        let spec = request.spec
        // Every output is checked against its codec and the filesystem, then its temporary name
        // reserved, before any decoding. `null` outputs render without a sink.
        let planned = try plan(request)
        let sequence = planned.sequence
        var targets: [OutputTarget] = []
        for output in planned.outputs {
            targets.append(try OutputTarget(path: output.path, replacing: request.replacement(for: output.path)))
        }
        let layout = planned.renderLayout

        // Every input must exist before anything starts.
        let paths = request.stillPaths
        do {
            for path in paths { try StillDecoder.checkReadable(path: path) }
        } catch {
            throw SlicevidError(error)
        }
        // Stills decode while the encoders open, `jobs` at a time and in order (still k on
        // decoder k mod jobs): a two-image clip decodes both at once, and a 40-photo sequence
        // never holds 40 full-size decodes in memory together. A still that comes back later
        // in a sequence (a → b → a) is decoded once and shared.
        let decoders = (0..<max(1, request.jobs)).map { DispatchQueue(label: "slicevid.decode.\($0)", qos: .userInitiated) }
        var pending: [String: DeferredStill] = [:]
        var decoding = 0
        let stills = (0..<sequence.imageCount).map { index in
            let path = paths.isEmpty ? nil : paths[index]
            if let path, let shared = pending[path] { return shared }
            let still = DeferredStill(on: decoders[decoding % decoders.count]) { () throws(MediaError) in
                // A still queued behind others is not decoded once the run is stopping.
                if cancellation.isCancelled { throw MediaError(.inputInvalid, subject: path ?? "demo card", message: "not decoded: the run was stopped") }
                return try StillLoader.load(path, role: index, spec: spec, layout: layout, cancellation: cancellation)
            }
            decoding += 1
            if let path { pending[path] = still }
            return still
        }
        if cancellation.isCancelled { throw interrupted(cancellation) }

        // A GIF's palette is chosen from every still, so it waits for all of them first.
        var paletteStills: [PlanarImage] = []
        if planned.outputs.contains(where: \.needsPalette) {
            for still in stills {
                switch still.wait(unless: cancellation) {
                case .success(let image): paletteStills.append(image)
                case .failure(let error):
                    // A signal meanwhile: the stills queued after it were not decoded.
                    if cancellation.signal != nil { throw interrupted(cancellation) }
                    throw SlicevidError(error)
                }
            }
        }
        // Rendering starts with the first still; the others keep decoding while its hold encodes.
        // Encoders open while it decodes — except a stream's: a header on stdout cannot be taken
        // back if the still turns out to be broken.
        func firstStill() throws(SlicevidError) -> PlanarImage {
            switch stills[0].wait(unless: cancellation) {
            case .success(let image): return image
            case .failure(let error):
                if cancellation.signal != nil { throw interrupted(cancellation) }
                throw SlicevidError(error)
            }
        }
        let streams = targets.contains(where: \.isStream)
        let early = streams ? try firstStill() : nil
        let sinks = try sinks(for: planned.outputs, targets: targets, layout: layout, stills: paletteStills, background: spec.background)
        let first: PlanarImage
        if let early { first = early } else { first = try firstStill() }
        let rest = Array(stills.dropFirst())
        let plan = SequencePlan(spec: sequence)
        // "Started" is announced once every still decoded, so a bad input still fails with its
        // one error line and nothing before it.
        let outputs = planned.paths
        let renderer = SequenceRenderer(plan: plan, first: first, rest: rest, cancellation: cancellation,
                                        onStillsReady: { events(.started(frames: plan.frameCount, outputs: outputs)) })
        let loop = RenderLoop(frameCount: plan.frameCount, jobs: request.jobs, window: request.window)
        let pool = FramePool(capacity: loop.window, width: spec.width, height: spec.height, layout: layout)

        let stats: RenderStats
        do {
            stats = try loop.run(pool: pool, sinks: sinks, cancellation: cancellation,
                                 frame: { renderer.frame($0, buffer: $1) },
                                 progress: { events(.progress(done: $0, total: plan.frameCount)) })
        } catch let error as SlicevidError {
            throw error
        } catch is RenderCancelled {
            if cancellation.signal == nil, let failure = renderer.failure { throw SlicevidError(failure) }
            throw interrupted(cancellation)
        } catch {
            throw SlicevidError(.outputFailed, "\(error)")
        }
        for target in targets {
            let frames = stats.frames
            try target.commit(recording: request.sidecar.map { sidecar in { files in sidecar(target.path, files, frames) } },
                              then: request.onCommit.map { onCommit in { record in onCommit(target.path, record) } })
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        return MakeReport(frames: stats.frames, seconds: seconds, outputs: planned.paths, stats: stats)
    }

    /// Checks the parts of a request that are not spec fields or output settings.
    static func validate(_ request: MakeRequest) throws(SlicevidError) {
        try validateImages(request)
        if (request.from == nil) != (request.to == nil) {
            throw SlicevidError(.usage, request.from == nil ? "--from is missing: give both --from and --to, or neither for the demo"
                                                            : "--to is missing: give both --from and --to, or neither for the demo")
        }
        guard !request.outputs.isEmpty else { throw SlicevidError(.usage, "-o: at least one output is needed") }
        var seen: [OutputPlace] = []
        var streams = false
        for text in request.outputs {
            let path = (try? OutputArgument(parsing: text))?.path ?? text
            if path == OutputTarget.discard { continue }
            if path == OutputTarget.standardOutput {
                // Two streams on one stdout would interleave into a file no reader can parse.
                guard !streams else { throw SlicevidError(.usage, "-o -: given twice; standard output carries one stream") }
                streams = true
                continue
            }
            // Compared where they land: `out/x.mp4` and `outlink/x.mp4` (outlink → out) are one.
            let place = OutputPlace(path)
            if let other = seen.first(where: { $0.overlaps(place) }) {
                throw SlicevidError(.usage, other.path == path ? "-o \(path): given twice" : "-o \(path): the same output as -o \(other.path); give each output its own path")
            }
            seen.append(place)
        }
        guard MakeRequest.jobsRange.contains(request.jobs) else {
            throw SlicevidError(.usage, "--jobs: \(request.jobs) must be \(MakeRequest.jobsRange.lowerBound)–\(MakeRequest.jobsRange.upperBound)")
        }
    }

    private static func interrupted(_ cancellation: Cancellation) -> SlicevidError {
        let signal = cancellation.signal ?? SIGINT
        return SlicevidError(.interrupted(signal: signal), "interrupted by \(signalName(signal)); no output was written")
    }
}
