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
    package var sequence: SequenceSpec?
    /// `-o` values: a path, whose extension gives the format, and optionally that output's own
    /// options (`promo.webm:crf=32`).
    public var outputs: [String]
    /// Run-wide encoding settings; each output uses those that fit it.
    public var encoder: EncoderSettings
    /// The music bed (no file: silent video).
    public var audio = AudioSettings()
    /// Replace (or, past a sequence's new end, delete) whatever is at the output paths.
    public var force: Bool
    /// What each output may replace when `force` is off, by output path; an output not listed
    /// may replace nothing. A batch licenses exactly what its sidecars record.
    package var replacements: [String: Replacement] = [:]
    /// Makes each output's sidecar from its path, the stamps of its files and what it holds
    /// (frames and seconds as written); the sidecar is written in the same step as the output
    /// is moved into place. nil (`make`) writes none.
    package var sidecar: (@Sendable (_ output: String, _ files: [FileStamp], _ written: WrittenOutput) -> OutputRecord)?
    /// Hears each output and its sidecar once both are in place, inside the commit.
    package var onCommit: (@Sendable (_ output: String, _ record: OutputRecord) -> Void)?
    /// Render threads.
    public var jobs: Int
    /// Frame buffers; nil picks `RenderLoop.defaultWindow(jobs:)`.
    package var window: Int?
    /// The encoders outputs may use (tests stand in for a libavcodec that lacks some).
    package var catalog: EncoderCatalog = .installed
    /// Whether a setting in `encoder` that would change what is written but fits none of the
    /// outputs is an error (flags typed for this run) or ignored (a manifest's settings, meant
    /// for jobs with many kinds of outputs).
    package var refusesUnusedSettings = true

    /// The render threads accepted: more than cores only adds contention, but 64 keeps big
    /// machines usable.
    package static let jobsRange = 1...64

    /// The most outputs one render writes (`-o` given that often, or a job's `outputs`): each
    /// holds an encoder, its threads and its own frames in memory, and 200 WebM outputs took
    /// 4 GB.
    package static let maxOutputs = 32

    /// Encoders' own warnings reach stderr (`--verbose`).
    package var verbose = false
    /// Where `spec.background` was given, for messages that refuse it.
    package var backgroundSource = BackgroundSource.flag

    /// A request with the settings `slicevid make`'s flags give; a sequence's own timings and
    /// the render window are set afterwards, where needed.
    public init(spec: TransitionSpec = TransitionSpec(), from: String? = nil, to: String? = nil,
                images: [String] = [], outputs: [String], encoder: EncoderSettings = EncoderSettings(), force: Bool = false,
                jobs: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.spec = spec
        self.from = from
        self.to = to
        self.images = images
        self.outputs = outputs
        self.encoder = encoder
        self.force = force
        self.jobs = jobs
    }

    /// What the output at `path` may replace.
    package func replacement(for path: String) -> Replacement {
        force ? .anything : replacements[path] ?? .nothing
    }
}

/// What a render reports as it goes.
public enum MakeEvent: Sendable {
    /// A folder an output goes in was missing and has been created. Told once the stills have
    /// decoded, just before `started`: a run that fails before takes its folders back, and
    /// says only why it failed.
    case createdFolder(String)
    /// Both stills decoded and every encoder open: from here on only output can fail.
    case started(frames: Int, outputs: [String])
    /// These outputs carry no audio (GIF, stills, sequences, y4m, `null`), so the bed is not in
    /// them. Told once, just after `started`, and only when there is a bed.
    case withoutAudio(outputs: [String])
    /// The music bed is levelled and encoded (it is made while the clip renders, and the
    /// outputs wait for it). With `--loudness` or `--volume`, what the levelled bed measures:
    /// integrated loudness in LUFS and true peak in dBTP.
    case audioReady(loudness: Double?, truePeak: Double?)
    /// `done` of `total` frames consumed by every output.
    case progress(done: Int, total: Int)
    /// Every frame is with the encoders; they are flushing what they hold (VP9 and AV1 keep a
    /// few dozen frames back, and finishing can take a while).
    case finishing
}

/// One output as it was written: what `make` prints and a batch's sidecar records.
public struct WrittenOutput: Sendable, Equatable {
    public var path: String
    package var format: OutputFormat
    /// Frames the file holds: every rendered frame, a GIF's own subsample, 1 for a still.
    public var frames: Int
    /// The file's own frame rate (a GIF's); nil for a still, which has none.
    public var frameRate: FrameRate?
    /// Seconds it plays (0 for a still).
    public var seconds: Double
    /// Bytes on disk (all frames of a sequence).
    public var bytes: Int

    package init(path: String, format: OutputFormat, frames: Int, frameRate: FrameRate?, seconds: Double, bytes: Int) {
        self.path = path
        self.format = format
        self.frames = frames
        self.frameRate = frameRate
        self.seconds = seconds
        self.bytes = bytes
    }

    /// The facts of `plan`'s output, of `bytes` bytes.
    package init(plan: EncodingPlan, bytes: Int) {
        self.init(path: plan.path, format: plan.format, frames: plan.frameCount, frameRate: plan.isStill ? nil : plan.frameRate,
                  seconds: plan.duration, bytes: bytes)
    }
}

/// What a finished render did.
public struct MakeReport: Sendable {
    /// Frames rendered.
    public var frames: Int
    /// Wall-clock seconds the run took.
    public var seconds: Double
    /// Seconds the rendered clip plays.
    public var clipSeconds: Double
    /// Every output path in request order, `null` and `-` included.
    public var outputs: [String]
    /// The files written, in request order.
    public var written: [WrittenOutput]
    package var stats: RenderStats
}

/// Runs `slicevid make`.
package enum MakeJob {
    /// Renders `request`, or fails without leaving anything under an output's final name.
    /// Missing output folders are created (and removed again, when still empty, if the run fails).
    /// - Parameters:
    ///   - cancellation: set by SIGINT/SIGTERM to stop early.
    ///   - events: progress callbacks; may be called from any thread.
    /// - Throws: `SlicevidError` whose category decides the exit code.
    package static func run(_ request: MakeRequest, cancellation: Cancellation = Cancellation(),
                           events: @escaping @Sendable (MakeEvent) -> Void = { _ in }) throws(SlicevidError) -> MakeReport {
        let started = DispatchTime.now()
        // Every output is checked against its codec and the filesystem, then its temporary name
        // reserved, before any decoding. `null` outputs render without a sink.
        let planned = try plan(request)
        var targets: [OutputTarget] = []
        do throws(SlicevidError) {
            for output in planned.outputs {
                targets.append(try OutputTarget(path: output.path, replacing: request.replacement(for: output.path)))
            }
            let stats = try render(request, planned: planned, targets: targets, cancellation: cancellation, events: events)
            var written: [WrittenOutput] = []
            for (plan, target) in zip(planned.outputs, targets) {
                let facts = WrittenOutput(plan: plan, bytes: 0)
                try target.commit(frames: plan.format.isSequence ? plan.frameCount : nil, recording: request.sidecar.map { sidecar in { files in sidecar(target.path, files, facts) } },
                                  then: request.onCommit.map { onCommit in { record in onCommit(target.path, record) } })
                written.append(WrittenOutput(plan: plan, bytes: target.bytesOnDisk(frames: plan.frameCount)))
            }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
            return MakeReport(frames: stats.frames, seconds: seconds, clipSeconds: Double(stats.frames) / request.spec.frameRate.value,
                              outputs: planned.paths, written: written, stats: stats)
        } catch {
            // Outputs already moved into place stay; the rest go, and so do the folders made
            // for them that nothing else filled.
            for target in targets { target.discard() }
            OutputTarget.removeEmpty(targets.flatMap(\.createdFolders))
            throw error
        }
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

    static func interrupted(_ cancellation: Cancellation) -> SlicevidError {
        let signal = cancellation.signal ?? SIGINT
        return SlicevidError(.interrupted(signal: signal), "interrupted by \(signalName(signal)); no output was written")
    }
}
