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

    /// `--cache DIR`, `--offline`, `--revalidate`, `--ca-file FILE` and the `--fetch-…` bounds
    /// (SharedOptions+Fetch): how stills, songs, layouts, fonts and images given as URLs are fetched.
    static let cache = OptionSpec("cache", value: "DIR", kind: .path, help: "Keep fetched URLs (stills, songs, layouts, fonts, images) in DIR, shared by every run and shard (default: $XDG_CACHE_HOME/slicevid, else ~/.cache/slicevid). Unchanged files are revalidated (ETag, Last-Modified) and not transferred again; one its server called fresh (Cache-Control max-age, Expires) is not asked about until that ends.")
    static let offline = OptionSpec("offline", help: "Make no request: take URLs from the cache only; a URL not cached fails its job (66).")
    static let revalidate = OptionSpec("revalidate", help: "Ask the server about every cached URL, even one it called fresh (Cache-Control max-age, Expires).")
    static let caFile = OptionSpec("ca-file", value: "FILE", kind: .path, help: "Verify https servers against the CAs in FILE (PEM) instead of the system's, for a private PKI.")
    static let remote = [cache, offline, revalidate, caFile] + fetchBounds

    /// The remote options given.
    /// - Throws: `SlicevidError`: `.usage` for `--offline` with `--revalidate` or a fetch bound
    ///   not accepted; `.inputMissing` for a `--ca-file` that is not a readable file.
    static func remote(from arguments: ParsedArguments) throws(SlicevidError) -> RemoteOptions {
        if arguments.has(offline) && arguments.has(revalidate) {
            throw SlicevidError(.usage, "--offline makes no request and --revalidate asks about every URL; give one")
        }
        let caFile = arguments.value(SharedOptions.caFile)
        if let caFile, !FileManager.default.isReadableFile(atPath: caFile) {
            throw SlicevidError(.inputMissing, "--ca-file: \(InputText.quoted(caFile)) is not a readable file; give a PEM file of CA certificates")
        }
        var options = RemoteOptions(cacheFolder: arguments.value(cache), offline: arguments.has(offline), caFile: caFile)
        try applyFetchBounds(arguments, to: &options)
        options.revalidate = arguments.has(revalidate)
        return options
    }

    /// `-j, --jobs N`.
    static let jobs = OptionSpec("jobs", short: "j", value: "N",
                                 help: "Render threads, \(MakeRequest.renderThreadsRange.lowerBound)–\(MakeRequest.renderThreadsRange.upperBound) (default: the number of cores, or $\(coresVariable), at most \(MakeRequest.renderThreadsRange.upperBound)). Output is identical for any value.")

    /// The `--jobs` value, or the cores of `threads` (at most the most accepted) when it is not
    /// given.
    /// - Throws: `SlicevidError(.usage)` naming `--jobs` and the accepted range.
    static func jobs(from arguments: ParsedArguments, threads: ThreadBudget) throws(SlicevidError) -> Int {
        try arguments.value(jobs).map(renderThreads) ?? threads.renderThreads(sharedBy: 1)
    }

    /// The environment variable that tells slicevid how many cores to share out, when the
    /// machine's count is not what it may use (a container's CPU quota), or to make a farm of
    /// machines of different sizes write the same bytes.
    static let coresVariable = "SLICEVID_CORES"

    /// The cores `make` and `batch` share out: `$SLICEVID_CORES` when set (and not empty), else
    /// the processors this process may run on.
    /// - Throws: `SlicevidError(.usage)` naming the variable and what it accepts.
    static func threads(environment: [String: String] = ProcessInfo.processInfo.environment) throws(SlicevidError) -> ThreadBudget {
        guard let text = environment[coresVariable], !text.isEmpty else { return .machine }
        guard let cores = Int(text), ThreadBudget.coresRange.contains(cores) else {
            throw SlicevidError(.usage, "\(coresVariable): \(InputText.quoted(text)) is not a whole number \(ThreadBudget.coresRange.lowerBound)–\(ThreadBudget.coresRange.upperBound)")
        }
        return try ThreadBudget(cores: cores)
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
