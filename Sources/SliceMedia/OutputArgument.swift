// One `-o` value: a path, optionally followed by options for that output alone, such as
// `promo.webm:crf=32:preset=6` or `clip.mp4:codec=hevc`. Options win over the run-wide flags.

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
        var pairs: [(OutputOption, String)] = []
        if let colon = text[nameStart...].firstIndex(of: ":") {
            let parts = text[text.index(after: colon)...].split(separator: ":", omittingEmptySubsequences: false)
            let parsed = parts.map { part -> (OutputOption, String)? in
                guard let equals = part.firstIndex(of: "="), let option = OutputOption(key: String(part[..<equals])) else { return nil }
                return (option, String(part[part.index(after: equals)...]))
            }
            if !parsed.isEmpty, parsed.allSatisfy({ $0 != nil }) {
                path = String(text[..<colon])
                pairs = parsed.compactMap { $0 }
            }
        }
        var settings = EncoderSettings()
        for (option, value) in pairs {
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

/// A `-o` value whose options are malformed.
package struct OutputArgumentError: Error, Sendable, Equatable, CustomStringConvertible {
    package let path: String
    package let message: String
    package var description: String { "-o \(path): \(message)" }
}
