// One `slicevid make`: validate everything, decode the stills once, render once, feed every
// output, and move the outputs into place only when all of them are complete.

import Foundation
import SliceKit
import SliceMedia

/// What a render reports as it goes.
public enum MakeEvent: Sendable {
    /// A folder an output goes in was missing and has been created. Told once the stills have
    /// decoded, just before `started`: a run that fails before takes its folders back, and
    /// says only why it failed.
    case createdFolder(String)
    /// Both stills decoded and every encoder open: from here on only output can fail.
    case started(frames: Int, outputs: [Output.Destination])
    /// These outputs carry no audio (GIF, stills, sequences, y4m, `.discard`), so the bed is not
    /// in them. Told once, just after `started`, and only when there is a bed.
    case withoutAudio(outputs: [Output.Destination])
    /// The music bed is levelled and encoded (it is made while the clip renders, and the
    /// outputs wait for it). With `--loudness` or `--volume`, what the levelled bed measures:
    /// integrated loudness in LUFS and true peak in dBTP.
    case audioReady(loudness: Double?, truePeak: Double?)
    /// `done` of `total` frames consumed by every output.
    case progress(done: Int, total: Int)
    /// Something about the layout that will be seen in the clip: a text layer below its
    /// contrast, two layers that overlap, an `auto` size that shrank text below the layout's
    /// smallest size. Told once the stills are measured, just before `started`.
    case warning(LayoutWarning)
    /// Every frame is with the encoders; they are flushing what they hold (VP9 and AV1 keep a
    /// few dozen frames back, and finishing can take a while).
    case finishing
}

/// One output as it was written: what `make` prints and a batch's sidecar records.
public struct WrittenOutput: Sendable, Equatable {
    /// Where it was written: a file, a sequence's frames, or standard output.
    public var destination: Output.Destination
    /// The file's path or the sequence's pattern; empty for standard output.
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
    /// The integrated loudness (LUFS) of the music bed it carries, when the bed was levelled
    /// (`loudness` or `volume`); nil otherwise.
    public var loudness: Double?

    package init(path: String, format: OutputFormat, frames: Int, frameRate: FrameRate?, seconds: Double, bytes: Int) {
        self.init(Output.Destination(path: path), format: format, frames: frames, frameRate: frameRate, seconds: seconds, bytes: bytes)
    }

    package init(_ destination: Output.Destination, format: OutputFormat, frames: Int, frameRate: FrameRate?, seconds: Double, bytes: Int) {
        self.destination = destination
        path = destination.path ?? ""
        self.format = format
        self.frames = frames
        self.frameRate = frameRate
        self.seconds = seconds
        self.bytes = bytes
    }

    /// The facts of `plan`'s output to `destination`, of `bytes` bytes.
    package init(_ destination: Output.Destination, plan: EncodingPlan, bytes: Int) {
        self.init(destination, format: plan.format, frames: plan.frameCount, frameRate: plan.isStill ? nil : plan.frameRate,
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
    /// Every output in request order, `.discard` and `.standardOutput` included.
    public var outputs: [Output.Destination]
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
        // URLs among the stills and song: fetched first, then rendered as the cache's files.
        guard request.hasRemoteInputs else { return try run(local: request, started: started, cancellation: cancellation, events: events) }
        let (local, sources) = try request.fetchingRemoteInputs(cancellation: cancellation)
        do throws(SlicevidError) {
            return try run(local: local, started: started, cancellation: cancellation, events: events)
        } catch {
            throw error.naming(sources)
        }
    }

    /// `run` for a request whose inputs are files.
    private static func run(local request: MakeRequest, started: DispatchTime, cancellation: Cancellation,
                            events: @escaping @Sendable (MakeEvent) -> Void) throws(SlicevidError) -> MakeReport {
        // Every output is checked against its codec and the filesystem, then its temporary name
        // reserved, before any decoding. `null` outputs render without a sink.
        let planned = try plan(request)
        // Stills no layer is printed on start decoding while the layers are drawn: the fonts'
        // loading and the decodes overlap (a card's layers must be drawn before its still is
        // printed with them).
        var early: DecodedStills?
        if let layout = planned.layout, !layout.printsOnCards,
           request.stills.paths.allSatisfy({ (try? StillDecoder.checkReadable(path: $0)) != nil }) {
            early = decodeStills(request, planned: planned, pictures: nil, layouts: planned.renderLayouts, cancellation: cancellation)
        }
        // The layers are drawn once, before any output is created: text that cannot be set
        // fails the run with nothing made.
        let pictures = try planned.layout?.draw { cancellation.isCancelled }
        var targets: [OutputTarget] = []
        do throws(SlicevidError) {
            for destination in planned.writtenDestinations {
                targets.append(try OutputTarget(destination, replacing: request.replacement(for: destination.path ?? "")))
            }
            // Every encoder is closed when `render` returns.
            let stats = try EncoderTurns.run(encoders: planned.outputs.map(\.encoder), cancellation: cancellation) { () throws(SlicevidError) in
                try render(request, planned: planned, pictures: pictures, decoding: early, targets: targets, cancellation: cancellation,
                           events: events)
            }
            var written: [WrittenOutput] = []
            for (plan, target) in zip(planned.outputs, targets) {
                var facts = WrittenOutput(target.destination, plan: plan, bytes: 0)
                if plan.audio != nil { facts.loudness = stats.loudness }
                try target.commit(frames: plan.format.isSequence ? plan.frameCount : nil, recording: request.sidecar.map { sidecar in { files in sidecar(target.path, files, facts) } },
                                  then: request.onCommit.map { onCommit in { record in onCommit(target.path, record) } })
                var output = WrittenOutput(target.destination, plan: plan, bytes: target.bytesOnDisk(frames: plan.frameCount))
                output.loudness = facts.loudness
                written.append(output)
            }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
            return MakeReport(frames: stats.frames, seconds: seconds, clipSeconds: Double(stats.frames) / request.spec.frameRate.value,
                              outputs: planned.destinations, written: written, stats: stats)
        } catch {
            // Outputs already moved into place stay; the rest go, and so do the folders made
            // for them that nothing else filled.
            for target in targets { target.discard() }
            OutputTarget.removeEmpty(targets.flatMap(\.createdFolders))
            throw error
        }
    }

    /// Checks what the request's own checks cannot: its layout's values (one built in code has
    /// had no layout file's checks), and outputs that name one file by different paths (`out/x.mp4` and `outlink/x.mp4` with outlink → out), compared where they land.
    static func validate(_ request: MakeRequest) throws(SlicevidError) {
        // A layout built in code gets a layout file's checks, before any of its numbers is used.
        if let layout = request.layout {
            do throws(LayoutError) {
                try layout.check()
            } catch {
                throw SlicevidError(.usage, error.text)
            }
        }
        var seen: [OutputPlace] = []
        for output in request.outputs {
            guard let place = OutputPlace(output.destination) else { continue }
            let path = place.path
            if let other = seen.first(where: { $0.overlaps(place) }) {
                throw SlicevidError(.usage, other.path == path ? "\(output: path): given twice" : "\(output: path): the same output as \(output: other.path); give each output its own path")
            }
            seen.append(place)
        }
    }

    /// The error of a render asked to stop: by a signal (`interrupted by SIGINT`) or by the
    /// program that called the library (`cancelled by the caller`).
    static func interrupted(_ cancellation: Cancellation) -> SlicevidError {
        cancellation.stopError("; no output was written")
    }
}
