// `slicevid probe FILE…`: what a media file holds, read back with libavformat/libavcodec.
// One line per file in the same `key=value` form as `make --dry-run`, so a pipeline can compare
// what it asked for with what it got.

import Foundation
import Slicevid

/// Describes existing media files.
struct ProbeCommand: ParsableCommand {
    static let spec = CommandSpec(
        name: "probe",
        abstract: "Describe media files: container, codec, profile, size, pixel format, colour tags, frames, duration.",
        usage: "slicevid probe [--json] FILE... (a PNG sequence as its pattern, e.g. frames/%05d.png)",
        options: [json],
        discussion: """
        Prints one line per file: FILE: container=… codec=… profile=… tag=… pix_fmt=… alpha=yes|no size=WxH
        fps=… frames=… duration=… color_primaries=… color_transfer=… color_space=… color_range=…
        in the words make --dry-run uses: container mp4, mov, webm, mkv, gif, png, jpeg, webp or y4m; the
        profile as FFmpeg names it, lower case; fps an exact fraction (30000/1001; a GIF's is its frames over
        its length). Values with spaces are quoted. Frames are counted by decoding the whole stream. Stills and
        image sequences carry no frame rate: their fps and duration are "none" (null in JSON). A file with sound adds
        audio=CODEC audio_rate=… audio_channels=… audio_duration=… for its first audio stream ("audio": null in JSON
        when it has none).
        \(ExitCode.helpLine([.success, .usage, .inputInvalid, .inputMissing]))
        """,
        positionals: [.path])

    /// `--json`.
    static let json = OptionSpec("json", help: "One JSON object per file, with the keys make --dry-run --json uses.")

    let arguments: ParsedArguments

    init(_ arguments: ParsedArguments) throws(SlicevidError) {
        self.arguments = arguments
    }

    func validate() throws(SlicevidError) {
        guard !arguments.positionals.isEmpty else {
            throw SlicevidError(.usage, "probe needs a file; usage: \(Self.spec.usage)")
        }
    }

    func run() -> ExitCode {
        for path in arguments.positionals {
            do {
                let probe = try Slicevid.probe(path)
                if arguments.has(Self.json) {
                    // JSON escapes every control character in its strings.
                    Console.shared.verbatim(FactsText.json(path, probe.facts, extra: ["tag": probe.tag ?? NSNull()]))
                } else {
                    Console.shared.output(Self.line(path, probe))
                }
            } catch {
                Console.shared.error("slicevid: error: \(error.message)\n")
                return ExitCode(error.category)
            }
        }
        return .success
    }

    /// `PATH: key=value …` for one file.
    static func line(_ path: String, _ probe: ProbeReport) -> String {
        FactsText.line(path, probe.facts.pairs(afterProfile: probe.tag.map { [("tag", $0)] } ?? []))
    }
}
