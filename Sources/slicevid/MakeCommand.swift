// `slicevid make`: one transition video from two stills (or the built-in demo cards).

import Foundation
import SliceKit
import SliceMedia
import SlicePipeline

/// Renders one clip.
struct MakeCommand {
    static let spec = CommandSpec(
        name: "make",
        abstract: "Render a slice-transition video from two or more stills (or the built-in demo cards).",
        usage: "slicevid make [IMAGE IMAGE ... | --from IMAGE --to IMAGE] [-o OUTPUT ...] [options]",
        options: [
            OptionSpec("from", value: "IMAGE", help: "Outgoing still (PNG, JPEG, WebP, BMP, TIFF). Omit with --to for the demo cards."),
            OptionSpec("to", value: "IMAGE", help: "Incoming still."),
            OptionSpec("output", short: "o", value: "PATH", repeatable: true,
                       help: "Output file, repeatable: \(OutputFormat.acceptedForms). Default: PRESET.mp4 (slicevid.mp4 without a preset)."),
            OptionSpec("preset", value: "NAME|FILE", help: "Start from a preset (built in: \(Preset.builtIn.map(\.name).joined(separator: ", "))) or a JSON preset file; flags override it. See 'slicevid presets --help' for the lookup order."),
        ] + SpecField.allCases.map { field in
            OptionSpec(field.rawValue, value: MakeCommand.valueName(field), help: MakeCommand.help(field))
        } + [
            OptionSpec("crf", value: "N", help: "Quality for video outputs, 0–51, lower is better (default 18)."),
            OptionSpec("encoder-preset", value: "NAME", help: "x264 speed preset: ultrafast … veryslow (default medium)."),
            SharedOptions.jobs,
            OptionSpec("force", short: "f", help: "Replace outputs that already exist (otherwise an existing output is an error)."),
            OptionSpec("quiet", short: "q", help: "Print nothing but errors."),
            OptionSpec("verbose", short: "v", help: "Also print FFmpeg's own warnings and errors."),
            OptionSpec("help", short: "h", help: "Show this help."),
        ],
        discussion: """
        Flags override the preset, which overrides the defaults (the seed transition: 1920x1080, 30 fps,
        1 s hold, 1 s UIKit spring with damping 0.8, 75 vertical strips travelling 1–4 frame heights,
        seed \(TransitionSpec.defaultSeed)). Frame i shows time i/fps; the last frame is the destination.
        Three or more IMAGEs make a sequence: each image is held for --hold (the last for --end-hold), then
        the transition to the next runs with its own strips (seeded from --seed and the pair's index).
        Exit codes: 0 ok, 64 usage, 65 input not an image, 66 input missing, 69 encoder missing,
        73 output blocked (exists, folder missing or read-only), 74 write failed, 130/143 interrupted.
        """)

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
        }
    }

    private static func help(_ field: SpecField) -> String {
        let defaults = TransitionSpec()
        return "\(field.accepted.prefix(1).uppercased() + field.accepted.dropFirst()) (default \(defaults.text(of: field)))."
    }

    /// Turns parsed flags into a render request.
    /// - Throws: `SlicevidError(.usage)` naming the flag.
    static func request(from arguments: ParsedArguments) throws(SlicevidError) -> MakeRequest {
        let preset = try arguments.value("preset").map { name throws(SlicevidError) in try PresetLibrary.load(name) }
        var spec = preset?.spec ?? TransitionSpec()
        for field in SpecField.allCases {
            guard let text = arguments.value(field.rawValue) else { continue }
            do {
                try spec.set(field, to: text)
            } catch {
                throw SlicevidError(.usage, error.description)
            }
        }
        var encoder = EncoderSettings()
        if let text = arguments.value("crf") {
            guard let crf = Int(text) else { throw SlicevidError(.usage, "--crf: '\(text)' is not a whole number 0–51") }
            encoder.crf = crf
        }
        if let name = arguments.value("encoder-preset") {
            let presets = EncoderSettings.speedPresets
            guard presets.contains(name) else {
                throw SlicevidError(.usage, "--encoder-preset: '\(name)' is not an x264 preset; accepted: \(presets.joined(separator: ", "))")
            }
            encoder.preset = name
        }
        let jobs = try SharedOptions.jobs(from: arguments)
        var outputs = arguments.all("output")
        if outputs.isEmpty { outputs = [(preset?.name ?? "slicevid") + ".mp4"] }
        return MakeRequest(spec: spec, from: arguments.value("from"), to: arguments.value("to"),
                           images: arguments.positionals, outputs: outputs,
                           encoder: encoder, force: arguments.has("force"), jobs: jobs)
    }

    /// Runs the command.
    static func run(_ arguments: ParsedArguments) -> ExitCode {
        let console = Console.shared
        FFmpegLog.configure(verbose: arguments.has("verbose"))
        let quiet = arguments.has("quiet")
        do {
            let request = try request(from: arguments)
            let cancellation = SignalTrap.install()
            let progress = ProgressReporter(console: console, quiet: quiet)
            let report = try MakeJob.run(request, cancellation: cancellation) { event in progress.handle(event, request: request) }
            progress.finished(report, request: request)
            return .success
        } catch {
            console.error("slicevid: error: \(error.message)\n")
            return ExitCode(error.category)
        }
    }
}
