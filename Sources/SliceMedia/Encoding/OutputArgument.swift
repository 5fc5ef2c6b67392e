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
        let (path, options) = OutputArgument.split(text)
        try self.init(path: String(path), options: options ?? "")
    }

    /// Where `text`'s options begin: the path before them, and the options after their colon
    /// (nil when it has none). A manifest splits an output's template with it before filling
    /// its placeholders, so options come from the manifest's own text, never from a value.
    package static func split(_ text: String) -> (path: Substring, options: Substring?) {
        let nameStart = text.lastIndex(of: "/").map { text.index(after: $0) } ?? text.startIndex
        guard let colon = text[nameStart...].firstIndex(of: ":") else { return (text[...], nil) }
        let options = text[text.index(after: colon)...]
        let parts = options.split(separator: ":", omittingEmptySubsequences: false)
        let allOptions = parts.allSatisfy { part in
            guard let equals = part.firstIndex(of: "=") else { return false }
            let key = String(part[..<equals])
            return key == OutputArgument.audioKey || OutputOption(key: key) != nil
        }
        return allOptions ? (text[..<colon], options) : (text[...], nil)
    }

    /// `path` with the options `options` gives (`crf=32:preset=6`, without the leading colon;
    /// empty for none).
    /// - Throws: `OutputArgumentError` naming the output, as `init(parsing:)`.
    package init(path: String, options: Substring) throws(OutputArgumentError) {
        var pairs: [(OutputOption?, String)] = []
        if !options.isEmpty {
            for part in options.split(separator: ":", omittingEmptySubsequences: false) {
                guard let equals = part.firstIndex(of: "=") else {
                    throw OutputArgumentError(path: path, message: "\(InputText.quoted(part)) is not an option; options are KEY=VALUE")
                }
                let key = String(part[..<equals]), value = String(part[part.index(after: equals)...])
                // `audio` is a key here but not an encoding option: `--audio` names the song.
                if key == OutputArgument.audioKey { pairs.append((nil, value)); continue }
                guard let option = OutputOption(key: key) else {
                    throw OutputArgumentError(path: path, message: "\(InputText.quoted(key)) is not an output option")
                }
                pairs.append((option, value))
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
