// How remote inputs are fetched and kept: the cache folder, offline use, the CA file for a
// private PKI, and every bound a transfer is held to. The command line's `--cache`,
// `--offline` and `--ca-file` set the first three; the bounds have defaults a library caller
// may change.

import Foundation

/// What a remote input is used as: each kind has its own size cap.
public enum RemoteKind: String, Sendable, CaseIterable {
    case still, song, font, layoutImage = "layout image"
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
    /// The most bytes one input of each kind may have (100 MB each by default), enforced while
    /// the body arrives.
    public var maxBytes: [RemoteKind: Int] = Dictionary(uniqueKeysWithValues: RemoteKind.allCases.map { ($0, 100_000_000) })
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

    public init(cacheFolder: String? = nil, offline: Bool = false, caFile: String? = nil) {
        self.cacheFolder = cacheFolder
        self.offline = offline
        self.caFile = caFile
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
