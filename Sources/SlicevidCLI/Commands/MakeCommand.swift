// `slicevid make`: one transition video from two stills (or the built-in demo cards).

import Foundation
@_spi(ProcessHost) import Slicevid

/// Renders one clip.
struct MakeCommand: ParsableCommand {
    /// The options `make` takes, declared once: parsing, help and the lookups all use these.
    enum Option {
        static let from = OptionSpec("from", value: "IMAGE", kind: .path, help: "Outgoing still (\(Slicevid.stillFormats.joined(separator: ", ")): what this build decodes). Omit with --to for the demo cards.")
        static let to = OptionSpec("to", value: "IMAGE", kind: .path, help: "Incoming still.")
        static let output = OptionSpec("output", short: "o", value: "PATH[:KEY=VALUE...]", kind: .path, repeatable: true,
                                       help: "Output file, repeatable: \(OutputFormat.acceptedForms), \(OutputSpelling.standardOutput) (y4m to stdout), or \(OutputSpelling.discard) (render only). Options after the path apply to that output only, e.g. promo.webm:crf=32:preset=6 (keys: the encoding flags below without dashes; preset = encoder-preset). Default: PRESET.mp4 (slicevid.mp4 without a preset).")
        static let preset = OptionSpec("preset", value: "NAME|FILE", kind: .preset, help: "Start from a preset (built in: \(Preset.builtIn.map(\.name).joined(separator: ", "))) or a JSON preset file; flags override it. See 'slicevid presets --help' for the lookup order.")
        /// One flag per transition field (`--fps`, `--slices`, …).
        static let spec = SpecField.allCases.map { field in
            (field, OptionSpec(field.rawValue, value: MakeCommand.valueName(field), kind: MakeCommand.kind(field), help: MakeCommand.help(field)))
        }
        /// One flag per encoding option (`--crf`, `--codec`, …), for every output.
        static let encoding = OutputOption.allCases.map { option in
            (option, OptionSpec(option.rawValue, value: option.valueName, kind: MakeCommand.kind(option), help: MakeCommand.help(option)))
        }
        /// One flag per music bed setting (`--audio`, `--loudness`, …).
        static let audio = AudioOption.allCases.map { option in
            (option, OptionSpec(option.rawValue, value: option.valueName, kind: option == .audio ? .path : .text, help: MakeCommand.help(option)))
        }
        static let layout = OptionSpec("layout", value: "FILE", kind: .path,
                                       help: "Text, logos and a brand layout: a JSON file (or an http(s) URL) placing text and image layers on the cards (they fly with the strips) and over the frames (docs/layouts.md).")
        static let variable = OptionSpec("var", value: "NAME=VALUE", repeatable: true,
                                         help: "A value for the layout's {NAME} placeholders, repeatable: --var name=\"Flat White\" --var price=\"2,49 €\".")
        static let safeZone = OptionSpec("safe-zone", value: "PLATFORM", kind: .choices(SafeZone.allCases.map(\.rawValue) + ["none"]),
                                         help: "Refuse layers (and a cover crop's focus) inside a platform's interface: \(SafeZone.accepted); several, each checked, separated by commas (tiktok,reels,shorts) (default: the layout's own).")
        static let dryRun = OptionSpec("dry-run", help: "Check everything and print what each output would be (codec, pixel format, size, frames, duration), without rendering or writing.")
        static let json = OptionSpec("json", help: "With --dry-run: one JSON object per output, with the keys probe --json uses.")
        static let force = OptionSpec("force", short: "f", help: "Replace outputs that already exist (otherwise an existing output is an error).")
        static let quiet = OptionSpec("quiet", short: "q", help: "Print nothing but errors, in every log format.")
    }

    static let spec = CommandSpec(
        name: "make",
        abstract: "Render a slice-transition video from two or more stills (or the built-in demo cards).",
        usage: "slicevid make [IMAGE IMAGE ... | --from IMAGE --to IMAGE] [-o OUTPUT ...] [options]",
        options: [Option.from, Option.to, Option.output, Option.preset] + Option.spec.map(\.1) + Option.encoding.map(\.1)
            + Option.audio.map(\.1) + [Option.layout, Option.variable, Option.safeZone, Option.dryRun, Option.json, SharedOptions.jobs, Option.force, LogFormat.option, Option.quiet,
                                       SharedOptions.verbose] + SharedOptions.remote,
        discussion: """
        Flags override the preset, which overrides the defaults (the seed transition: 1920x1080, 30 fps,
        1 s hold, 1 s UIKit spring with damping 0.8, 75 vertical strips travelling 1–4 frame heights,
        seed \(TransitionSpec.defaultSeed)). Frame i shows time i/fps; the last frame is the destination.
        Three or more IMAGEs make a sequence: each image is held for --hold (the last for --end-hold), then
        the transition to the next runs with its own strips (seeded from --seed and the pair's index).
        Encoding flags (--codec … --poster-at) apply to every output that can use them; an output's own
        options (-o clip.mp4:codec=hevc:crf=24) apply to it alone, override the flags, and must fit it.
        Formats: .mp4 H.264 (or hevc), .webm VP9 (or av1), .mov ProRes 422 HQ (4444 with alpha),
        .mkv lossless FFV1, .gif (palette, --gif-fps, --gif-width), .png/.jpg/.webp poster (or storyboard with
        sheet=CxR), dir/%05d.png sequence.
        --background transparent keeps alpha in .webm (VP9), .mov, .mkv, .png and .gif (on/off).
        --audio FILE puts a music bed under .mp4/.mov (AAC-LC 192 kb/s), .webm (Opus 128 kb/s) and .mkv (FLAC, or
        audio-codec=opus): 48 kHz stereo, exactly as long as the clip; .gif, stills, sequences and y4m carry none.
        \(ExitCode.helpLine([.success, .usage, .inputInvalid, .inputMissing, .unavailable, .outputBlocked, .outputFailed,
                             .interrupted, .terminated]))
        """,
        positionals: [.path])

    private static func valueName(_ field: SpecField) -> String {
        switch field {
        case .size: "WxH"
        case .fps: "RATE"
        case .hold, .duration, .endHold, .stagger: "SECONDS"
        case .slices: "N|Wpx"
        case .motionBlur: "N"
        case .direction: "AXIS"
        case .travel: "MIN,MAX"
        case .easing: "CURVE"
        case .seed: "N"
        case .background: "#RRGGBB"
        case .fit: "MODE"
        case .focus: "X,Y"
        case .motion: "MOVE"
        case .motionAmount: "FRACTION"
        case .motionEasing: "CURVE"
        }
    }

    /// The words a shell can offer for a field's value; free text where any number goes.
    private static func kind(_ field: SpecField) -> ValueKind {
        switch field {
        case .direction: .choices(StripDirection.allCases.map(\.rawValue))
        case .fit: .choices(FitMode.allCases.map(\.rawValue))
        case .easing, .motionEasing: .choices(Easing.namedCurves.map(\.name))
        case .motion: .choices(MotionKind.allCases.map(\.rawValue))
        case .background: .choices(["transparent"])
        default: .text
        }
    }

    /// The words a shell can offer for an encoding option's value.
    private static func kind(_ option: OutputOption) -> ValueKind {
        switch option {
        // Codec names, and AV1's encoders, which also choose the encoder.
        case .codec: .choices(VideoCodec.allCases.filter { $0 != .raw }.map(\.rawValue) + VideoCodec.av1.encoders)
        case .encoderPreset: .choices(VideoCodec.speedNames)
        case .audioCodec: .choices(AudioCodec.allCases.map(\.rawValue))
        default: .text
        }
    }

    private static func help(_ field: SpecField) -> String {
        let defaults = TransitionSpec()
        return "\(field.accepted.prefix(1).uppercased() + field.accepted.dropFirst()) (default \(defaults.text(of: field)))."
    }

    private static func help(_ option: OutputOption) -> String {
        switch option {
        case .codec: "Codec instead of the container's default: hevc (.mp4, .mkv), av1 (.webm, .mkv), h264 or vp9 (.mkv); libsvtav1 or libaom-av1 choose AV1's encoder."
        case .crf: "Constant quality, lower is better, on the codec's scale: H.264/HEVC 0–51 (default 18/22), VP9/AV1 0–63 (default 31/32)."
        case .bitrate: "Target bits per second instead of a crf, e.g. 2500k or 4M."
        case .encoderPreset: "Speed: ultrafast … placebo for every codec (default medium), or the encoder's own number: VP9 cpu-used 0–8, SVT-AV1 preset 0–13, libaom cpu-used 0–8."
        case .pixFmt: "Pixel format, where the codec takes it: yuv420p (default for video), yuv420p10le, yuv422p10le, yuv444p, …"
        case .gifFPS: "GIF frame rate, at most 50 (default 15, never above --fps)."
        case .gifWidth: "GIF width in pixels (default 480, never wider than --size); the height keeps the aspect."
        case .posterAt: "Time in seconds of a .png, .jpg or .webp poster (default: the last frame, the destination)."
        case .sheet: "Make .png, .jpg and .webp outputs storyboards: COLUMNSxROWS frames evenly spaced over the clip, each labelled with its time (e.g. 4x2; per output: -o board.jpg:sheet=4x2)."
        case .audioCodec: "The music bed's codec in .mkv: flac (default, lossless) or opus (-o master.mkv:audio-codec=opus). .mp4/.mov carry AAC-LC 192 kb/s, .webm Opus 128 kb/s."
        }
    }

    /// The help line of a music bed flag.
    private static func help(_ option: AudioOption) -> String {
        switch option {
        case .audio: "Music bed: an audio file (MP3, AAC/M4A, WAV, FLAC, Ogg/Opus; its first audio stream, or FILE:stream=N), fitted to the clip to the sample and muxed into .mp4/.mov (AAC), .webm (Opus) and .mkv (FLAC). -o x.mp4:audio=none leaves one output silent."
        case .audioStart: "Seconds into the song the bed starts (default 0)."
        case .audioLoop: "Repeat a song shorter than the clip (default: silence after it ends)."
        case .audioFadeIn: "Fade the bed in over this many seconds (default 0)."
        case .audioFadeOut: "Fade the bed out over this many seconds, ending with the clip (default 0.5, clamped to the clip)."
        case .loudness: "Normalise the bed to this integrated loudness in LUFS (EBU R128; -14 for social platforms, -16 for the web), true peak at most -1 dBTP."
        case .volume: "Change the bed's level by this many dB (a limiter keeps its true peak at most -1 dBTP). Not with --loudness."
        }
    }

    /// The stills the command line names: images in turn, `--from` and `--to`, or neither for
    /// the demo cards.
    /// - Throws: `SlicevidError(.usage)` for both ways at once, one of the pair, or one image.
    static func stills(from arguments: ParsedArguments) throws(SlicevidError) -> Stills {
        let images = arguments.positionals
        let from = arguments.value(Option.from), to = arguments.value(Option.to)
        if !images.isEmpty {
            guard from == nil && to == nil else {
                throw SlicevidError(.usage, "give the stills either as images (slicevid make a.jpg b.jpg …) or with --from and --to, not both")
            }
            guard images.count >= 2 else {
                throw SlicevidError(.usage, "\(images[0]): a sequence needs at least two images; add another, or use --from and --to")
            }
            return .sequence(images)
        }
        switch (from, to) {
        case let (from?, to?): return .pair(from: from, to: to)
        case (nil, nil): return .demo
        case (nil, _): throw SlicevidError(.usage, "--from is missing: give both --from and --to, or neither for the demo")
        case (_, nil): throw SlicevidError(.usage, "--to is missing: give both --from and --to, or neither for the demo")
        }
    }

    /// `--var NAME=VALUE` values, each name once.
    /// - Throws: `SlicevidError(.usage)` naming the flag and what is accepted.
    static func variables(_ texts: [String]) throws(SlicevidError) -> [String: String] {
        var values: [String: String] = [:]
        for text in texts {
            guard let equals = text.firstIndex(of: "="), Placeholders.isName(String(text[..<equals])) else {
                throw SlicevidError(.usage, "--var: \(InputText.quoted(text)) is not NAME=VALUE (a name of letters, digits, _ and -)")
            }
            let name = String(text[..<equals])
            guard values[name] == nil else { throw SlicevidError(.usage, "--var \(name): given twice") }
            values[name] = String(text[text.index(after: equals)...])
        }
        return values
    }

    /// Turns parsed flags into a render request.
    /// - Throws: `SlicevidError(.usage)` naming the flag.
    static func request(from arguments: ParsedArguments) throws(SlicevidError) -> MakeRequest {
        let preset = try arguments.value(Option.preset).map { name throws(SlicevidError) in try Slicevid.preset(name, in: Slicevid.presetCatalog()) }
        var spec = preset?.spec ?? TransitionSpec()
        for (field, option) in Option.spec {
            guard let text = arguments.value(option) else { continue }
            do {
                try spec.set(field, to: text)
            } catch {
                throw SlicevidError(.usage, error.text)
            }
        }
        var encoder = EncoderSettings()
        for (option, flag) in Option.encoding {
            guard let text = arguments.value(flag) else { continue }
            do {
                try encoder.set(option, to: text)
            } catch {
                throw SlicevidError(.usage, "--\(option.rawValue): \(error.message)")
            }
        }
        var audio = preset?.audio ?? AudioSettings()
        for (option, flag) in Option.audio {
            guard let text = option.valueName == nil ? (arguments.has(flag) ? "true" : nil) : arguments.value(flag) else { continue }
            do {
                try audio.set(option, to: text)
            } catch {
                throw SlicevidError(.usage, "--\(option.rawValue): \(error.message)")
            }
        }
        let threads = try SharedOptions.threads()
        let jobs = try SharedOptions.jobs(from: arguments, threads: threads)
        let texts = arguments.all(Option.output)
        guard texts.count <= MakeRequest.maxOutputs else {
            throw SlicevidError(.usage, "-o: \(texts.count) outputs given; at most \(MakeRequest.maxOutputs) per run (each holds an encoder in memory)")
        }
        var outputs: [Output] = []
        for text in texts { outputs.append(try Output(parsing: text, names: OutputSpelling.names)) }
        if outputs.isEmpty { outputs = [try Output.file((preset?.name ?? "slicevid") + ".mp4")] }
        var request = try MakeRequest(stills: try stills(from: arguments), outputs: outputs, spec: spec, encoder: encoder, audio: audio,
                                      force: arguments.has(Option.force), renderThreads: jobs)
        request.verbose = arguments.has(SharedOptions.verbose)
        request.remote = try SharedOptions.remote(from: arguments)
        request.threads = threads
        request.layout = try (arguments.value(Option.layout) ?? preset?.layout).map { path throws(SlicevidError) in
            do throws(LayoutError) { return try Slicevid.layout(at: path, remote: request.remote) } catch {
                throw SlicevidError(error.isMissing ? .inputMissing : .usage, error.text)
            }
        }
        request.variables = try variables(arguments.all(Option.variable))
        if let text = arguments.value(Option.safeZone) {
            guard let choice = SafeZone.Choice(parsing: text) else {
                throw SlicevidError(.usage, "--safe-zone: \(InputText.quoted(text)) is not valid; accepted: \(SafeZone.accepted), or several platforms separated by commas, each once (tiktok,reels,shorts)")
            }
            request.safeZone = choice
        }
        return request
    }

    let arguments: ParsedArguments
    /// `--log-format`.
    let format: LogFormat

    init(_ arguments: ParsedArguments) throws(SlicevidError) {
        self.arguments = arguments
        format = try LogFormat.parse(arguments)
    }

    func validate() throws(SlicevidError) {
        if arguments.has(Option.json) && !arguments.has(Option.dryRun) {
            throw SlicevidError(.usage, "--json: only with --dry-run (the render's own log takes --log-format json)")
        }
    }

    /// Runs the command through the library, as any client would.
    func run() -> ExitCode {
        let console = Console.shared
        Slicevid.routeFFmpegLog(verbose: arguments.has(SharedOptions.verbose))
        let quiet = arguments.has(Option.quiet)
        let log = LogWriter(console: console, format: format, quiet: quiet,
                            wording: FlagWording(preset: arguments.value(Option.preset), given: arguments.given))
        do throws(SlicevidError) {
            let request = try Self.request(from: arguments)
            if request.outputs.contains(where: { $0.destination == .standardOutput }) && StandardStreams.outputWasClosed {
                throw SlicevidError(.outputFailed, "-o -: standard output was closed when slicevid started; the stream has nowhere to go")
            }
            if arguments.has(Option.dryRun) {
                let plan = try Slicevid.plan(request)
                let lines = arguments.has(Option.json) ? DryRun.json(plan) : DryRun.report(plan)
                for line in lines { console.output(line) }
                // Said once the plan is out: when it could not be written, the exit's one line
                // (or a quiet 141) is all there is to say.
                if !quiet && console.outputError == nil {
                    console.error(DryRun.header(plan))
                    for line in DryRun.motion(plan) { console.error(line) }
                    for warning in plan.warnings { console.error("slicevid: warning: \(warning.text)\n") }
                }
                return .success
            }
            // A second signal ends the process at once: one line says so, the last it prints.
            let cancellation = ProcessHost.cancellation { signal in
                console.error("slicevid: error: interrupted by \(signalName(signal)) again; stopped at once, its temporary files removed\n")
            }
            let progress = MakeLog(log)
            let report = try Slicevid.make(request, cancellation: cancellation) { event in progress.handle(event, request: request) }
            progress.finished(report)
            return .success
        } catch {
            log.error(error)
            return ExitCode(error.category)
        }
    }
}
