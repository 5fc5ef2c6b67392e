// How remote inputs are fetched and kept: the cache folder, offline use, the CA file for a
// private PKI, and every bound a transfer is held to. The command line's `--cache`,
// `--offline` and `--ca-file` set the first three, its `--fetch-…` flags the bounds.

import Foundation

/// What a remote input is used as: each kind has its own size cap.
public enum RemoteKind: String, Sendable, CaseIterable {
    case still, song, font, layoutImage = "layout image", layout

    /// The most bytes one input of this kind has by default: 64 MB for a font (within the 64 MiB
    /// a font file may hold, `FontContainer`), 16 MB for a layout or brand file (within the
    /// 16 MiB a settings file may, `SettingsFile`), else 100 MB.
    public var defaultMaxBytes: Int {
        switch self {
        case .font: 64_000_000
        case .layout: 16_000_000
        case .still, .song, .layoutImage: 100_000_000
        }
    }
}

/// How remote inputs (`https://…` where a path is accepted) are fetched and cached.
public struct RemoteOptions: Sendable, Equatable {
    /// The cache folder; nil for `$XDG_CACHE_HOME/slicevid`, else `~/.cache/slicevid`.
    public var cacheFolder: String?
    /// Use only what the cache holds: no request is made, and an input not cached fails its job.
    public var offline = false
    /// Ask the server about every cached input each run, even one it said is still fresh
    /// (`Cache-Control: max-age`, `Expires`); by default a fresh copy is used without a request.
    public var revalidate = false
    /// A PEM bundle of CAs to verify servers against instead of the system's (a private PKI).
    public var caFile: String?
    /// The most bytes one input of each kind may have (`RemoteKind.defaultMaxBytes`: 100 MB for
    /// stills, songs and layout images, 64 MB for fonts, 16 MB for layouts and brand files),
    /// enforced while the body arrives.
    public var maxBytes: [RemoteKind: Int] = Dictionary(uniqueKeysWithValues: RemoteKind.allCases.map { ($0, $0.defaultMaxBytes) })
    /// Time to connect (TCP and TLS).
    public var connectTimeout: Duration = .seconds(15)
    /// Time without a byte of the response after which a transfer is given up.
    public var stallTimeout: Duration = .seconds(30)
    /// Redirects followed at most.
    public var maxRedirects = 5
    /// Transfers of one input at most: the first and its retries, after a timeout, a reset, a
    /// 5xx, 408 or 429.
    public var attempts = 4
    /// The wait before the first retry, doubled before each next one; a server's `Retry-After`
    /// is waited when it asks for longer.
    public var retryDelay: Duration = .milliseconds(500)
    /// The longest wait before a retry; a `Retry-After` asking for more ends the attempts.
    public var longestRetryWait: Duration = .seconds(60)
    /// Transfers to one host (scheme, host and port) at once.
    public var perHost = 4

    /// The bounds a front end accepts for each setting (the command line's fetch flags): wide
    /// enough for a slow CDN or a private one, never a wait or a size without end.
    /// `connectTimeout` in whole seconds.
    public static let connectSecondsRange = 1...600
    /// `stallTimeout` in whole seconds (libcurl measures a stall in seconds).
    public static let stallSecondsRange = 1...3600
    /// Each `maxBytes`: a byte to 100 GB.
    public static let maxBytesRange = 1...100_000_000_000
    /// `maxRedirects`: none to 20.
    public static let redirectsRange = 0...20
    /// `attempts`: the first transfer alone to 10.
    public static let attemptsRange = 1...10
    /// `perHost`.
    public static let perHostRange = 1...64

    public init(cacheFolder: String? = nil, offline: Bool = false, caFile: String? = nil) {
        self.cacheFolder = cacheFolder
        self.offline = offline
        self.caFile = caFile
    }

    /// These options as a transfer uses them: each bound brought within its range, so a
    /// library caller's value cannot turn into no bound at all (a negative redirect count is
    /// libcurl's "without end") or overflow the arithmetic that converts it (a connect timeout
    /// of `Int64.max` seconds in milliseconds). A connect timeout keeps its milliseconds.
    package var bounded: RemoteOptions {
        func clamp(_ value: Int, _ range: ClosedRange<Int>) -> Int { min(max(value, range.lowerBound), range.upperBound) }
        var options = self
        options.connectTimeout = min(max(connectTimeout, .milliseconds(1)), .seconds(Self.connectSecondsRange.upperBound))
        options.stallTimeout = min(max(stallTimeout, .seconds(Self.stallSecondsRange.lowerBound)), .seconds(Self.stallSecondsRange.upperBound))
        for kind in RemoteKind.allCases { options.maxBytes[kind] = clamp(maxBytes[kind] ?? RemoteOptions().maxBytes[kind] ?? 1, Self.maxBytesRange) }
        options.maxRedirects = clamp(maxRedirects, Self.redirectsRange)
        options.attempts = clamp(attempts, Self.attemptsRange)
        options.perHost = clamp(perHost, Self.perHostRange)
        options.longestRetryWait = min(max(longestRetryWait, .zero), .seconds(3600))
        options.retryDelay = min(max(retryDelay, .zero), options.longestRetryWait)
        return options
    }

    /// The cache folder used: `cacheFolder`, else `$XDG_CACHE_HOME/slicevid` when that is an
    /// absolute path, else `$HOME/.cache/slicevid`; nil when none can be named.
    package func folder(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let cacheFolder { return cacheFolder }
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return xdg + "/slicevid" }
        if let home = environment["HOME"], home.hasPrefix("/") { return home + "/.cache/slicevid" }
        return nil
    }
}
