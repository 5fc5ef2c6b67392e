// Options that several commands take and read the same way (swift-argument-parser's
// "options group"): declared once, parsed once.

import Foundation
import SliceKit
import SlicePipeline

/// Declarations and parsing shared by `make` and `batch`.
enum SharedOptions {
    /// `-h, --help`, which every command takes (`CommandSpec` adds it).
    static let help = OptionSpec("help", short: "h", help: "Show this help.")

    /// `-v, --verbose`.
    static let verbose = OptionSpec("verbose", short: "v", help: "Also print FFmpeg's own warnings and errors.")

    /// `-j, --jobs N`.
    static let jobs = OptionSpec("jobs", short: "j", value: "N",
                                 help: "Render threads, \(MakeRequest.jobsRange.lowerBound)–\(MakeRequest.jobsRange.upperBound) (default: the number of cores). Output is identical for any value.")

    /// The `--jobs` value, or the number of cores when it is not given.
    /// - Throws: `SlicevidError(.usage)` naming `--jobs` and the accepted range.
    static func jobs(from arguments: ParsedArguments) throws(SlicevidError) -> Int {
        guard let text = arguments.value("jobs") else { return ProcessInfo.processInfo.activeProcessorCount }
        guard let value = Int(text), MakeRequest.jobsRange.contains(value) else {
            throw SlicevidError(.usage, "--jobs: \(InputText.quoted(text)) is not a whole number \(MakeRequest.jobsRange.lowerBound)–\(MakeRequest.jobsRange.upperBound)")
        }
        return value
    }
}
