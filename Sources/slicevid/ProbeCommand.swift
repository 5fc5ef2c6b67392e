// `slicevid probe FILE…`: what a media file holds, read back with libavformat/libavcodec.
// One line per file in the same `key=value` form as `make --dry-run`, so a pipeline can compare
// what it asked for with what it got.

import Foundation
import SliceMedia
import SlicePipeline

/// Describes existing media files.
enum ProbeCommand {
    static let spec = CommandSpec(
        name: "probe",
        abstract: "Describe media files: container, codec, profile, size, pixel format, colour tags, frames, duration.",
        usage: "slicevid probe FILE... (a PNG sequence as its pattern, e.g. frames/%05d.png)",
        options: [OptionSpec("help", short: "h", help: "Show this help.")],
        discussion: """
        Prints one line per file: FILE: container=… codec=… profile=… tag=… pix_fmt=… alpha=yes|no size=WxH
        fps=… frames=… duration=… color_primaries=… color_transfer=… color_space=… color_range=…
        Values with spaces are quoted. Frames are counted by decoding the whole stream. Stills and
        image sequences carry no frame rate: their fps and duration are "none".
        Exit codes: 0 ok, 64 usage, 65 not readable media, 66 file missing.
        """,
        positionals: [.path])

    static func run(_ arguments: ParsedArguments) -> ExitCode {
        guard !arguments.positionals.isEmpty else {
            Console.shared.error("slicevid: error: probe needs a file; usage: \(spec.usage)\n")
            return .usage
        }
        FFmpegLog.configure(verbose: false)
        for path in arguments.positionals {
            // A sequence pattern names files that exist only once expanded.
            if !path.contains("%") && !FileManager.default.fileExists(atPath: path) {
                Console.shared.error("slicevid: error: \(path): no such file\n")
                return .inputMissing
            }
            do {
                Console.shared.output(line(path, try MediaReader.info(path: path)))
            } catch {
                Console.shared.error("slicevid: error: \(SlicevidError(error).message)\n")
                return ExitCode(SlicevidError(error).category)
            }
        }
        return .success
    }

    /// `PATH: key=value …` for one file.
    static func line(_ path: String, _ info: MediaInfo) -> String {
        // A still or an image sequence carries no frame rate: the 25 fps libavformat reports
        // for one is its own assumption, and a pipeline comparing rates must not be told it.
        let timeless = ["image2", "image2pipe"].contains(info.containerName) || info.containerName.hasSuffix("_pipe")
        var pairs: [(String, String)] = [("container", info.containerName), ("codec", info.codecName)]
        if let profile = info.profileName { pairs.append(("profile", profile)) }
        if !info.codecTag.isEmpty { pairs.append(("tag", info.codecTag)) }
        pairs += [
            ("pix_fmt", info.pixelFormat),
            ("alpha", info.hasAlpha ? "yes" : "no"),
            ("size", "\(info.width)x\(info.height)"),
            ("fps", timeless ? "none" : String(format: "%.3f", info.frameRate)),
            ("frames", String(info.frameCount)),
            ("duration", timeless ? "none" : String(format: "%.3f", info.duration)),
            ("color_primaries", info.colorPrimaries),
            ("color_transfer", info.colorTransfer),
            ("color_space", info.colorSpace),
            ("color_range", info.colorRange),
        ]
        let fields = pairs.map { key, value in value.contains(" ") ? "\(key)=\"\(value)\"" : "\(key)=\(value)" }
        return "\(path): " + fields.joined(separator: " ") + "\n"
    }
}
