// Planning a make: every output parsed, checked against its codec and the filesystem, and
// turned into an EncodingPlan, before anything is decoded, rendered or created. `make --dry-run`
// stops here and prints the plans; `make` renders them.

import SliceKit
import SliceMedia

/// What a make request will write, decided and checked.
public struct MakePlan: Sendable {
    /// What the render produces.
    package let clip: Clip
    /// The transitions rendered, checked (one for `--from/--to` and the demo cards).
    package let sequence: SequenceSpec
    /// The layouts frames are rendered in, one pass each: every output's own
    /// (`EncodingPlan.renderLayout`, what it would be rendered in alone), in the order the
    /// outputs first ask for them, so no output's bytes depend on the others; and the layout of
    /// the last frame a batch keeps for its page (`lastFrameLayout`). Never empty: a render
    /// for no output (`null`) draws yuv420p.
    package let renderLayouts: [PixelLayout]
    /// The layout the last frame a batch keeps for its report page is drawn in: the request's
    /// `canvas`, or the first output's layout.
    package let lastFrameLayout: PixelLayout
    /// The outputs that are written, in request order (`.discard` has none).
    package let outputs: [EncodingPlan]
    /// Every output in request order, `.discard` included.
    public let destinations: [Output.Destination]
    /// Folders the outputs need that do not exist yet, outermost first: a run creates them.
    public let foldersToCreate: [String]
    /// The music bed's file as opened and checked, when some output carries it.
    package var audio: AudioFacts? = nil
    /// The layout's layers in this render's pixels, when it has a layout.
    package var layout: LayoutPlan? = nil
    /// The layout's warnings, as the render tells them (overlapping layers, a shrunk size, text
    /// below its contrast), once its layers are drawn and its stills decoded (`Slicevid.plan`).
    public package(set) var warnings: [LayoutWarning] = []

    /// The outputs that are written, in request order: one for each of `outputs`.
    package var writtenDestinations: [Output.Destination] { destinations.filter { $0 != .discard } }
    /// The frames the render draws.
    public var frameCount: Int { clip.frameCount }
    /// Seconds the clip plays.
    public var seconds: Double { Double(clip.frameCount) / clip.frameRate.value }
}

extension MakeJob {
    /// Checks `request` completely and plans its outputs, without side effects.
    /// - Throws: `SlicevidError`: usage for bad flags and impossible combinations (naming the
    ///   output), unavailable for a missing encoder, outputBlocked for an output that exists or
    ///   cannot be created.
    package static func plan(_ request: MakeRequest) throws(SlicevidError) -> MakePlan {
        let (clip, sequence, destinations, plans) = try planOutputs(request)
        let spec = request.spec
        let audio = try checkAudio(request, plans: plans)
        var layout = try request.layout.map { layout throws(SlicevidError) in
            try LayoutPlan.resolve(layout, width: spec.width, height: spec.height, stills: request.stills.count,
                                   variables: request.variables, safeZones: request.safeZone.resolved(layout, width: spec.width, height: spec.height))
                .scheduled(on: sequence)
        }
        // The layers' files are there and are files: a font or logo that is not would fail
        // the render after its stills were decoded. Fonts are read, checked (a font bomb is
        // refused here) and kept in memory now; the text engine draws from those bytes.
        if let plan = layout {
            do {
                for file in plan.files { try StillDecoder.checkReadable(path: file) }
                layout?.fontDigests = try LayoutPlan.fontDigests(plan.fontFiles, expected: request.layoutDigests)
            } catch {
                throw SlicevidError(error).prefixed("\(setting: .layout) \(InputText.quoted(plan.file)): ")
            }
        }
        for destination in destinations where destination != .discard {
            try OutputTarget.check(destination, replacing: request.replacement(for: destination.path ?? ""))
            if request.sidecar != nil, let path = destination.path { try OutputRecord.checkPlace(for: path) }
        }
        var layouts: [PixelLayout] = []
        for wanted in plans.map(\.renderLayout) + (request.canvas.map { [$0] } ?? []) where !layouts.contains(wanted) { layouts.append(wanted) }
        if layouts.isEmpty { layouts = [PixelLayout.covering([])] }
        var folders: [String] = []
        for destination in destinations { folders += OutputTarget.missingFolders(of: destination).filter { !folders.contains($0) } }
        return MakePlan(clip: clip, sequence: sequence, renderLayouts: layouts, lastFrameLayout: request.canvas ?? layouts[0], outputs: plans,
                        destinations: destinations, foldersToCreate: folders, audio: audio, layout: layout)
    }

    /// What a dry run checks of the stills, which `plan` leaves to the render: each one a
    /// regular file this process may read, whose header (and container) a decoder would take;
    /// the first one refused, in the words and category of the render's refusal. Decodes nothing.
    /// - Throws: `SlicevidError`: `.inputMissing`, `.inputInvalid`, or `.unavailable` for a
    ///   still that needs a decode helper when none is set up.
    package static func checkStillHeaders(_ request: MakeRequest) throws(SlicevidError) {
        var seen: Set<String> = []
        for path in request.stills.paths where seen.insert(path).inserted {
            do {
                try StillDecoder.checkHeader(path: path)
            } catch {
                throw SlicevidError(error)
            }
        }
    }

    /// The part of `plan` that reads no file: the settings checked and each output's encoding
    /// decided against its codec (a crf out of range, a speed the encoder does not take), so a
    /// manifest can refuse such a job when it is read.
    /// - Throws: `SlicevidError`: usage, or unavailable for a missing encoder.
    package static func planOutputs(_ request: MakeRequest) throws(SlicevidError)
        -> (clip: Clip, sequence: SequenceSpec, destinations: [Output.Destination], plans: [EncodingPlan]) {
        do {
            try request.spec.validate()
        } catch {
            throw SlicevidError(.usage, error.text)
        }
        try validate(request)
        let sequence = try resolvedSequence(request)
        if request.encoder.crf != nil && request.encoder.bitrate != nil {
            throw SlicevidError(.usage, "\(setting: OutputOption.crf.setting) and \(setting: OutputOption.bitrate.setting) are two ways to set quality; give one (or give each output its own: a.mp4:crf=20, b.webm:bitrate=2M)")
        }
        let spec = request.spec
        let clip = Clip(width: spec.width, height: spec.height, frameRate: spec.frameRate,
                        frameCount: SequencePlan(spec: sequence).frameCount, isTransparent: spec.background.alpha < 255)
        var plans: [EncodingPlan] = []
        var named: [Output.Destination] = []
        for output in request.outputs {
            guard let format = output.format else { continue }
            do {
                var plan = try EncodingPlan.resolve(path: output.destination.path ?? "", format: format, runWide: request.encoder,
                                                    own: output.settings, clip: clip, catalog: request.catalog)
                plan.verbose = request.verbose
                plan.threads = request.threads.encoderThreads(width: plan.width, height: plan.height)
                if request.audio.file != nil { plan = try plan.carryingAudio(own: output.settings, runWide: request.encoder) }
                plans.append(plan)
                named.append(output.destination)
            } catch {
                throw SlicevidError(error, output: output.destination)
            }
        }
        // A flag that would change what is written but fits no output is a mistake worth
        // hearing about (a crf for a GIF); a tuning flag no output has is just unused.
        for option in request.encoder.givenOptions where request.refusesUnusedSettings && !plans.isEmpty && !option.isTuning {
            let reasons = zip(named, plans).compactMap { destination, plan in plan.ignored[option].map { reason -> ErrorText in "\(named: destination): \(reason)" } }
            if reasons.count == plans.count {
                throw SlicevidError(.usage, "\(setting: option.setting) applies to none of the outputs (\(ErrorText.joined(reasons, separator: "; ")))")
            }
        }
        return (clip, sequence, request.outputs.map(\.destination), plans)
    }

    /// Opens one sink per planned output, each fed frames in the plan's own layout and each GIF
    /// with the palette of the stills in that layout, each on a thread of its own (the encoder
    /// is opened on that thread); a flush stops between packets once `cancellation` is set.
    /// - Parameter stills: the stills, by layout, for GIF palettes (those of GIF outputs' layouts).
    static func sinks(for plans: [EncodingPlan], targets: [OutputTarget], stills: [PixelLayout: [PlanarImage]], background: RGBAColor,
                      audio: [AudioCodec: AudioTrack] = [:], cancellation: Cancellation) throws(SlicevidError) -> [SinkRunner] {
        var runners: [SinkRunner] = []
        for (index, (plan, target)) in zip(plans, targets).enumerated() {
            var palette: Palette?
            if plan.needsPalette {
                do {
                    palette = try plan.palette(stills: stills[plan.renderLayout] ?? [], background: background)
                } catch {
                    throw SlicevidError(.outputFailed, "\(output: target.destination): \(error.message)")
                }
            }
            let chosen = palette
            runners.append(try SinkRunner(index: index) { () throws(SlicevidError) in
                if plan.writesPicture { return StillSink(target: target, plan: plan, background: background) }
                return try EncoderSink(target: target, plan: plan, layout: plan.renderLayout, palette: chosen, audio: plan.audio.flatMap { audio[$0] },
                                       cancellation: cancellation)
            })
        }
        return runners
    }
}
