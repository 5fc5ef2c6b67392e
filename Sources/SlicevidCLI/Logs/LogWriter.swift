// How `make` and `batch` print their events, in the format `--log-format` asks for: a redrawn
// status line on a terminal, timestamped lines for cron and CI, or JSON lines for log shippers.
// One event is always one line, and every line goes through Console, so none interleave.

import Foundation
import Slicevid

/// The `--log-format` values.
enum LogFormat: String, CaseIterable {
    /// `progress` on a terminal, `plain` otherwise.
    case auto
    /// A redrawn progress line (terminals).
    case progress
    /// One line per event, ISO-8601 UTC timestamp first.
    case plain
    /// One JSON object per event and line.
    case json

    /// `--log-format FORMAT`, shared by `make` and `batch`.
    static let option = OptionSpec("log-format", value: "FORMAT", kind: .choices(LogFormat.allCases.map(\.rawValue)),
                                   help: "auto (progress on a terminal, plain otherwise), progress (a redrawn line), plain (lines with ISO-8601 UTC timestamps) or json (one JSON object per event and line).")

    /// The format a command line asks for, read from its words before they are parsed: a
    /// command line that cannot be parsed (an unknown flag, a bad --shard) is still told so
    /// in the format asked for. `auto` when none or no format is named.
    static func sniff(_ words: [String]) -> LogFormat {
        var asked: String?
        for (index, word) in words.enumerated() {
            if word == "--" { break }
            if word == "--log-format", index + 1 < words.count { asked = words[index + 1] }
            if word.hasPrefix("--log-format=") { asked = String(word.dropFirst("--log-format=".count)) }
        }
        return asked.flatMap(LogFormat.init(rawValue:)) ?? .auto
    }

    /// The format `arguments` ask for (`auto` when none).
    /// - Throws: `SlicevidError(.usage)` naming `--log-format` and the accepted values.
    static func parse(_ arguments: ParsedArguments) throws(SlicevidError) -> LogFormat {
        let text = arguments.value(option) ?? LogFormat.auto.rawValue
        guard let format = LogFormat(rawValue: text) else {
            throw SlicevidError(.usage, "--log-format: \(InputText.quoted(text)) is not valid; accepted: \(allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return format
    }
}

/// Writes one command's log lines in one format.
final class LogWriter: Sendable {
    let console: Console
    /// The format in use: never `.auto`, which is resolved from whether stderr is a terminal.
    let format: LogFormat
    /// `-q`: only errors and failures (and a batch's summary) are printed, in every format.
    let quiet: Bool
    /// How errors name settings and outputs.
    let wording: FlagWording

    init(console: Console, format: LogFormat, quiet: Bool, wording: FlagWording = FlagWording()) {
        self.console = console
        self.format = format == .auto ? (console.isTerminal ? .progress : .plain) : format
        self.quiet = quiet
        self.wording = wording
    }

    /// A plain event line: `slicevid: text`, timestamped unless it is for a terminal. Nothing
    /// in the JSON format (whose callers emit objects instead).
    func line(_ text: String) {
        guard format != .json else { return }
        let stamp = format == .plain ? LogWriter.timestamp() + " " : ""
        console.error("\(stamp)slicevid: \(text)\n")
    }

    /// A JSON line with the event's fields and the time.
    func emit(_ fields: [String: Any]) {
        var fields = fields
        fields["time"] = LogWriter.timestamp()
        guard let data = try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys, .withoutEscapingSlashes]) else { return }
        // JSON escapes C0 controls but lets DEL, C1 controls and line separators through raw.
        console.error(JSONText.escapingInvisibles(String(decoding: data, as: UTF8.self)) + "\n")
    }

    /// The error that ends a run: an `error` event in JSON, else `slicevid: error: …`.
    func error(_ error: SlicevidError) {
        if format == .json {
            emit(["event": "error", "error": error.message(wording), "exit": Int(ExitCode(error.category).rawValue)])
        } else {
            console.error("slicevid: error: \(error.message(wording))\n")
        }
    }

    /// Redraws the status line (progress format only), cut to the terminal's width.
    func status(_ text: String, force: Bool = false) {
        guard format == .progress, !quiet else { return }
        console.status(text, force: force)
    }

    /// Now, as ISO-8601 UTC with milliseconds.
    static func timestamp() -> String {
        Date().ISO8601Format(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    /// `1.4 MB`, `12.0 KB`, `512 B`.
    static func size(_ bytes: Int) -> String { UnitText.bytes(bytes) }

    /// `2.03 s`.
    static func seconds(_ value: Double) -> String { UnitText.seconds(value) }

    /// `ETA 12 s`, `ETA 2 min 5 s` from work done since `start`; nil until there is enough to
    /// measure (a tenth of the work or a second).
    static func eta(done: Double, total: Double, since start: ContinuousClock.Instant) -> String? {
        let elapsed = (ContinuousClock.now - start).seconds
        guard done > 0, total > done, elapsed >= 1 || done >= total / 10 else { return nil }
        let left = Int((elapsed / done * (total - done)).rounded(.up))
        return left >= 60 ? "ETA \(left / 60) min \(left % 60) s" : "ETA \(left) s"
    }

    /// `[#####-----]`, `width` marks wide.
    static func bar(_ done: Int, _ total: Int, width: Int) -> String {
        let filled = total == 0 ? 0 : min(width, done * width / total)
        return "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "]"
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
