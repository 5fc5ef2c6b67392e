// One `-o` value: a path, optionally followed by options for that output alone, such as
// `promo.webm:crf=32:preset=6` or `clip.mp4:codec=hevc`. Options win over the run-wide flags.

import SliceKit

/// A parsed `-o` value.
package struct OutputArgument: Sendable, Equatable {
    /// The path (or pattern, `-`, `null`) to write.
    package let path: String
    /// The options given after the path.
    package let settings: EncoderSettings

    /// Splits `text` into a path and its options.
    ///
    /// Options start at a colon in the file name when everything after it is `KEY=VALUE` pairs
    /// separated by colons, with keys from `OutputOption` (or `preset`). Anything else is part of
    /// the path, so a file called `12:30.mp4` is still a file.
    /// - Throws: `OutputArgumentError` naming the output, for an option given twice, a value not
    ///   of its option's form, or both a crf and a bitrate.
    package init(parsing text: String) throws(OutputArgumentError) {
        let nameStart = text.lastIndex(of: "/").map { text.index(after: $0) } ?? text.startIndex
        var path = text
        var pairs: [(OutputOption?, String)] = []
        if let colon = text[nameStart...].firstIndex(of: ":") {
            let parts = text[text.index(after: colon)...].split(separator: ":", omittingEmptySubsequences: false)
            // `audio` is a key here but not an encoding option: `--audio` names the song.
            let parsed = parts.map { part -> (OutputOption?, String)? in
                guard let equals = part.firstIndex(of: "=") else { return nil }
                let key = String(part[..<equals]), value = String(part[part.index(after: equals)...])
                if key == OutputArgument.audioKey { return (nil, value) }
                guard let option = OutputOption(key: key) else { return nil }
                return (option, value)
            }
            if !parsed.isEmpty, parsed.allSatisfy({ $0 != nil }) {
                path = String(text[..<colon])
                pairs = parsed.compactMap { $0 }
            }
        }
        var settings = EncoderSettings()
        for (option, value) in pairs {
            guard let option else {
                guard value == "none" else {
                    throw OutputArgumentError(path: path, message: "audio: \(InputText.quoted(value)) is not valid; expected none (the bed itself is \(setting: AudioOption.audio.setting) FILE)")
                }
                if settings.silent { throw OutputArgumentError(path: path, message: "audio is given twice") }
                settings.silent = true
                continue
            }
            if settings.has(option) { throw OutputArgumentError(path: path, message: "\(option.rawValue) is given twice") }
            do {
                try settings.set(option, to: value)
            } catch {
                throw OutputArgumentError(path: path, message: "\(option.rawValue): \(error.message)")
            }
        }
        if settings.crf != nil && settings.bitrate != nil {
            throw OutputArgumentError(path: path, message: "crf and bitrate are two ways to set quality; give one")
        }
        self.path = path
        self.settings = settings
    }
}

extension OutputArgument {
    /// The per-output key that leaves the music bed out: `audio=none`.
    static let audioKey = "audio"
}

/// A `-o` value whose options are malformed.
package struct OutputArgumentError: Error, Sendable, Equatable, CustomStringConvertible {
    package let path: String
    package let message: ErrorText
    /// The line, naming the output.
    package var text: ErrorText { "\(output: path): \(message)" }
    package var description: String { text.description }
}
