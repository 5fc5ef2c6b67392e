// Options that several commands take and read the same way (swift-argument-parser's
// "options group"): declared once, parsed once.

import Foundation
import Slicevid

/// Declarations and parsing shared by `make` and `batch`.
enum SharedOptions {
    /// `-h, --help`, which every command takes (`CommandSpec` adds it).
    static let help = OptionSpec("help", short: "h", help: "Show this help.")

    /// `-v, --verbose`.
    static let verbose = OptionSpec("verbose", short: "v", help: "Also print FFmpeg's own warnings and errors.")

    /// `-j, --jobs N`.
    static let jobs = OptionSpec("jobs", short: "j", value: "N",
                                 help: "Render threads, \(MakeRequest.renderThreadsRange.lowerBound)–\(MakeRequest.renderThreadsRange.upperBound) (default: the number of cores, at most \(MakeRequest.renderThreadsRange.upperBound)). Output is identical for any value.")

    /// The `--jobs` value, or the cores (at most the most accepted) when it is not given.
    /// - Throws: `SlicevidError(.usage)` naming `--jobs` and the accepted range.
    static func jobs(from arguments: ParsedArguments) throws(SlicevidError) -> Int {
        try arguments.value(jobs).map(renderThreads) ?? MakeRequest.defaultRenderThreads
    }

    /// A `--jobs` value, checked.
    /// - Throws: `SlicevidError(.usage)` naming `--jobs` and the accepted range.
    static func renderThreads(_ text: String) throws(SlicevidError) -> Int {
        guard let value = Int(text), MakeRequest.renderThreadsRange.contains(value) else {
            throw SlicevidError(.usage, "--jobs: \(InputText.quoted(text)) is not a whole number \(MakeRequest.renderThreadsRange.lowerBound)–\(MakeRequest.renderThreadsRange.upperBound)")
        }
        return value
    }
}
