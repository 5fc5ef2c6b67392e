// One job of a manifest: its id, stills, settings and outputs, resolved from the job object,
// the manifest's defaults and the presets they name.

import Foundation
import SliceKit
import SliceMedia
import SlicePipeline

/// A manifest job, resolved and checked: ready to render as one `MakeRequest`.
///
/// Settings are layered like `make`'s: the job's preset (else the defaults' preset, else the
/// built-in defaults), then the defaults' spec fields, then the job's own fields; then each
/// image's `hold` and each transition's fields apply to that image or transition alone.
package struct ManifestJob: Sendable {
    package let id: String
    /// Absolute paths of the stills, in order (at least two).
    package var images: [String]
    /// The job's settings before per-image and per-transition changes.
    package let spec: TransitionSpec
    /// One resolved spec per transition.
    package let sequence: SequenceSpec
    /// The outputs (at least one), each with its absolute path and its own options.
    package let outputs: [Output]
    /// The outputs' absolute paths, in order.
    package var outputPaths: [String] { outputs.compactMap(\.destination.path) }
    /// Whether one of its outputs is a picture (a poster or a storyboard): the report page shows
    /// that one, and makes no poster of its own for the job.
    package var writesPicture: Bool { outputs.contains { $0.format?.isStill == true } }
    /// The frame pixels its encoders hold: the frame's, once for each output that encodes the
    /// clip at its size (MP4, WebM, MOV, MKV, a PNG sequence; a GIF is small, y4m and pictures
    /// are not encoded as a clip), at least once. How many such jobs run side by side by default
    /// depends on it: an encoder's look-ahead holds frames of its size.
    package var encodedPixels: Int {
        let clips = outputs.filter { [.mp4, .webm, .mov, .mkv, .pngSequence].contains($0.format) }.count
        return spec.width * spec.height * max(1, clips)
    }
    package let encoder: EncoderSettings
    /// The music bed: the preset's settings, then the defaults' `audio`, then the job's.
    package var audio: AudioSettings
    /// The layout, its variables and the safe zone: the defaults', then the job's.
    var cards: ManifestCards
    /// Where the job's settings came from when that is worth saying in an error: the
    /// background by the layer that set it (the job, the defaults or a preset).
    package let origins: [Setting: String]
    /// The feed row the job was made from (`rows`), with the values its fields used; nil for
    /// a job without a feed. Those values are part of its outputs' fingerprints.
    package var row: JobRow?
    /// The values of the job's placeholders — its feed row's columns and its matrix names —
    /// as text, by name: what other fields of the job may fill from.
    package var variables: [String: String] = [:]

    /// How this job's errors name settings: by the manifest's keys and the layers that set
    /// them, the run's own settings as `run` names them.
    package func wording(run: any Wording) -> ManifestWording { ManifestWording(origins: origins, run: run) }

    /// The longest id, in bytes.
    package static let maximumIdBytes = 255

    /// Keys a job object accepts.
    package static let keys = ["id", "description", "matrix", "rows", "images", "transitions", "preset", "outputs", "audio"] + ManifestCards.keys
        + ManifestReader.outputKeys + SpecField.allCases.map(\.rawValue)

    /// Fields one transition may set for itself; the others belong to the whole video.
    package static let transitionFields: [SpecField] = [.duration, .easing, .slices, .direction, .travel, .seed]

    /// The render request for this job.
    /// - Parameters:
    ///   - force: replace whatever is at the outputs (`batch --force`); otherwise an output
    ///     replaces only what the request's `replacements` allow (a batch sets them from its
    ///     sidecars).
    ///   - renderThreads: render threads.
    ///   - threads: the cores its encoders take their thread counts from.
    /// - Throws: `SlicevidError(.usage)` for render threads out of range.
    package func request(force: Bool = false, renderThreads: Int = MakeRequest.defaultRenderThreads,
                         threads: ThreadBudget = .machine) throws(SlicevidError) -> MakeRequest {
        let stills: Stills = images.count == 2 ? .pair(from: images[0], to: images[1]) : .sequence(images)
        var request = try MakeRequest(stills: stills, outputs: outputs, spec: spec, encoder: encoder, audio: audio, force: force,
                                      renderThreads: renderThreads)
        request.threads = threads
        request.sequence = sequence
        request.layout = cards.layout
        // A layout's {name} takes the job's feed columns and matrix names; its own vars win.
        request.variables = variables.merging(cards.variables) { _, own in own }
        request.safeZone = cards.safeZone
        // A manifest's settings are meant for every job; each output takes those that fit it.
        request.refusesUnusedSettings = false
        return request
    }

    /// Where the job's background was set, in the layering order of `init`: the job's own
    /// field (the job is named by the line), the defaults' field, else the preset in use.
    private static func backgroundOrigin(_ object: [String: Any], defaults: ManifestDefaults) -> String {
        if object["background"] != nil { return "background" }
        if defaults.fields["background"] != nil { return "background of the manifest's defaults" }
        let presetName = object["preset"] == nil ? defaults.presetName : object["preset"] as? String
        return presetName.map { "background of preset \(InputText.quoted($0))" } ?? "background"
    }

    init(_ entry: Any, index: Int, manifest: String, defaults: ManifestDefaults,
         context: inout ManifestContext) throws(SlicevidError) {
        var reader = ManifestReader(manifest: manifest, place: "jobs[\(index)]")
        guard let object = entry as? [String: Any] else { throw reader.error(nil, "expected a job object") }
        guard let idValue = object["id"] else { throw reader.error("id", "missing; every job needs a unique \"id\" string") }
        guard let id = idValue as? String, !id.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw reader.error("id", "expected a non-empty string")
        }
        // An id names the job in every log line, report and sidecar: a feed's giant key must
        // not make each of them giant.
        guard id.utf8.count <= ManifestJob.maximumIdBytes else {
            throw reader.error("id", "\(InputText.quoted(id)) is \(id.utf8.count) bytes; an id is at most \(ManifestJob.maximumIdBytes)")
        }
        self.id = id
        reader = ManifestReader(manifest: manifest, place: ManifestReader.place(ofJob: id))
        try reader.refuseUnknownKeys(object, accepted: ManifestJob.keys)
        if let description = object["description"], !(description is String) {
            throw reader.error("description", "expected a string")
        }

        let (images, holds, focuses, motions) = try ManifestJob.images(object, reader: reader, context: context)
        self.images = images

        // Settings: preset, then defaults' fields, then the job's fields.
        let preset = try object["preset"].map { value throws(SlicevidError) in try context.preset(value, reader: reader) } ?? defaults.preset
        var spec = try reader.apply(defaults.fields, to: preset?.spec ?? TransitionSpec())
        spec = try reader.apply(object.filter { SpecField(rawValue: $0.key) != nil }, to: spec)
        self.spec = spec
        origins = [SpecField.background.setting: Self.backgroundOrigin(object, defaults: defaults)]
        encoder = try reader.encoder(object, base: defaults.encoder)
        let bed = try reader.audio(defaults.audio, over: preset?.audio ?? AudioSettings(), context: context)
        audio = try reader.audio(object["audio"], over: bed, context: context)
        // The layout: the job's, else the defaults', else the one its preset names.
        var base = defaults.cards
        if base.layout == nil, let path = preset?.layout {
            do {
                base.layout = try context.layout(path)
            } catch {
                throw reader.error("preset", SlicevidError(error.isMissing ? .inputMissing : .usage, error.text))
            }
        }
        cards = try reader.cards(object, over: base, context: context)

        var sequence = SequenceSpec(base: spec, imageCount: images.count)
        for hold in holds { sequence.setHold(hold.seconds, ofImage: hold.image) }
        for focus in focuses { sequence.setFocus(focus.focus, ofImage: focus.image) }
        // An image's own motion keys change the job's motion for that image alone.
        for own in motions {
            let moved = try reader.apply(own.fields, to: spec, at: "images[\(own.image)]")
            sequence.setMotion(moved.motion, ofImage: own.image)
        }
        try ManifestJob.applyTransitions(object["transitions"], to: &sequence, reader: reader)
        self.sequence = sequence
        outputs = try ManifestJob.outputs(object["outputs"], reader: reader, context: context)
        // Each output's encoding against its codec (an encoder-preset or crf it does not take) is
        // refused now, with 64, rather than failing the job when it runs; a missing encoder is
        // this machine's matter (69) and the job's own failure.
        do {
            _ = try MakeJob.planOutputs(request(force: true, renderThreads: 1))
        } catch where error.category == .usage {
            throw SlicevidError(.usage, ErrorText("\(manifest): \(reader.place ?? ""): \(error.message(ManifestWording(origins: origins)))"))
        } catch {}
    }

    /// The stills (strings, or `{"path": …, "hold": seconds, "focus": "X,Y", "motion": …}`),
    /// absolute, and the holds, focal points and motion keys given.
    private static func images(_ object: [String: Any], reader: ManifestReader, context: ManifestContext)
        throws(SlicevidError) -> ([String], [(image: Int, seconds: Double)], [(image: Int, focus: Focus)], [(image: Int, fields: [String: Any])]) {
        guard let entries = object["images"] as? [Any] else {
            throw reader.error("images", object["images"] == nil ? "missing; give at least two stills" : "expected an array of image paths")
        }
        guard entries.count >= 2 else {
            throw reader.error("images", "has \(entries.count) image\(entries.count == 1 ? "" : "s"); a job needs at least two")
        }
        var images: [String] = []
        var holds: [(image: Int, seconds: Double)] = []
        var focuses: [(image: Int, focus: Focus)] = []
        var motions: [(image: Int, fields: [String: Any])] = []
        for (position, item) in entries.enumerated() {
            let field = "images[\(position)]"
            if let path = item as? String, !path.isEmpty {
                images.append(context.absolute(path))
            } else if let still = item as? [String: Any] {
                try reader.refuseUnknownKeys(still, accepted: ["path", "hold", "focus"] + ManifestJob.motionKeys, in: field)
                guard let path = still["path"] as? String, !path.isEmpty else {
                    throw reader.error("\(field).path", "expected the image's path")
                }
                images.append(context.absolute(path))
                if let hold = still["hold"] { holds.append((position, try reader.seconds(hold, field: "\(field).hold"))) }
                if let value = still["focus"] {
                    guard let text = value as? String, let focus = Focus(parsing: text) else {
                        throw reader.error("\(field).focus", "expected \(Focus.accepted)")
                    }
                    focuses.append((position, focus))
                }
                let motion = still.filter { ManifestJob.motionKeys.contains($0.key) }
                if !motion.isEmpty { motions.append((position, motion)) }
            } else {
                throw reader.error(field, "expected a path, or {\"path\": …, \"hold\": seconds, \"focus\": \"X,Y\", \"motion\": \"push-in\"}")
            }
        }
        return (images, holds, focuses, motions)
    }

    /// The keys an image of `images` may give to move that image alone.
    static let motionKeys = [SpecField.motion, .motionAmount, .motionEasing].map(\.rawValue)

    /// Applies `transitions` (one object per pair, `transitionFields` only), then checks the
    /// whole sequence.
    private static func applyTransitions(_ value: Any?, to sequence: inout SequenceSpec,
                                         reader: ManifestReader) throws(SlicevidError) {
        if let value {
            let pairs = sequence.segments.count
            guard let transitions = value as? [Any], transitions.count == pairs else {
                throw reader.error("transitions", "expected an array of \(pairs) objects, one per pair of images ({} keeps the job's settings)")
            }
            for (pair, transition) in transitions.enumerated() {
                let field = "transitions[\(pair)]"
                guard let fields = transition as? [String: Any] else { throw reader.error(field, "expected an object") }
                try reader.refuseUnknownKeys(fields, accepted: ManifestJob.transitionFields.map(\.rawValue), in: field)
                sequence.segments[pair] = try reader.apply(fields, to: sequence.segments[pair], at: field)
            }
        }
        do {
            try sequence.validate()
        } catch {
            throw reader.error(error.field, error.message)
        }
    }

    /// The outputs (one string or an array): each path absolute, of a known type and given
    /// once, with the `:KEY=VALUE` options that follow it, as `make -o` takes them.
    private static func outputs(_ value: Any?, reader: ManifestReader,
                                context: ManifestContext) throws(SlicevidError) -> [Output] {
        let paths: [Any]
        if let one = value as? String { paths = [one] } else if let one = value as? OutputArgument { paths = [one] } else { paths = value as? [Any] ?? [] }
        guard !paths.isEmpty else { throw reader.error("outputs", "missing; give one or more output paths") }
        guard paths.count <= MakeRequest.maxOutputs else {
            throw reader.error("outputs", "\(paths.count) outputs; at most \(MakeRequest.maxOutputs) per job (each holds an encoder in memory)")
        }
        var outputs: [Output] = []
        for (position, item) in paths.enumerated() {
            // A batch writes files: streaming to stdout or rendering to nowhere makes no sense
            // for jobs that run unattended and are skipped by their recorded outputs.
            let parsed: Output
            do throws(SlicevidError) {
                // Split from its options before its placeholders were filled (`JobPlaceholders`).
                if let argument = item as? OutputArgument, !argument.path.isEmpty {
                    try ManifestJob.refuseStreams(argument.path)
                    parsed = try Output(argument)
                } else if let text = item as? String, !text.isEmpty {
                    let argument: OutputArgument
                    do {
                        argument = try OutputArgument(parsing: text)
                    } catch {
                        throw SlicevidError(.usage, error.text)
                    }
                    try ManifestJob.refuseStreams(argument.path)
                    parsed = try Output(argument)
                } else {
                    throw SlicevidError(.usage, "expected a path")
                }
            } catch {
                throw reader.error("outputs[\(position)]", error)
            }
            // Outputs are files slicevid commits atomically; a URL is for inputs only.
            guard !RemoteURL.isRemote(parsed.destination.path ?? "") else {
                throw reader.error("outputs[\(position)]", "\(RemoteURL.redact(parsed.destination.path ?? "")): outputs are files; a URL is accepted only for inputs (images, audio)")
            }
            let output: Output
            do {
                output = try Output.file(context.absolute(parsed.destination.path ?? ""), settings: parsed.settings)
            } catch {
                throw reader.error("outputs[\(position)]", error)
            }
            guard !outputs.contains(where: { $0.destination == output.destination }) else {
                throw reader.error("outputs", "\(parsed.destination.path ?? "") is given twice")
            }
            outputs.append(output)
        }
        return outputs
    }
}

extension ManifestJob {
    /// Refuses the command line's words for standard output and no output as a job's output: a
    /// batch writes files, for jobs that run unattended and are skipped by their records.
    static func refuseStreams(_ path: String) throws(SlicevidError) {
        guard path == "-" || path == "null" else { return }
        throw SlicevidError(.usage, "\(InputText.quoted(path)) is standard output or no output, which only a single render writes; a batch job writes files")
    }
}
