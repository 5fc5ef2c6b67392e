// The bounds a URL's transfer is held to, as flags `make` and `batch` share: each read strictly
// into `RemoteOptions` (a whole number in its range, a size with its unit), a bad value one line
// naming the flag and what it accepts (64).

import Slicevid

extension SharedOptions {
    private static var defaults: RemoteOptions { RemoteOptions() }

    static let connectTimeout = OptionSpec("fetch-connect-timeout", value: "SECONDS", help: "Give up connecting to a URL's server (TCP and TLS) after SECONDS, a whole number \(range(RemoteOptions.connectSecondsRange)) (default \(defaults.connectTimeout.components.seconds)); a timeout is retried (--fetch-attempts).")
    static let stallTimeout = OptionSpec("fetch-stall-timeout", value: "SECONDS", help: "Give up a transfer after SECONDS without a byte of the response, a whole number \(range(RemoteOptions.stallSecondsRange)) (default \(defaults.stallTimeout.components.seconds)); retried as a timeout is.")
    static let maxSize = OptionSpec("fetch-max-size", value: "[KIND=]SIZE", repeatable: true, help: "Refuse a URL's body over SIZE: bytes, or a whole number of kB, MB, GB (powers of 1000) or KiB, MiB, GiB (defaults: \(kindDefaults)). KIND=SIZE bounds one kind of input only: \(kindWords.joined(separator: ", ")); repeat for several. Enforced while the body arrives; a body over it fails its job (65).")
    static let redirects = OptionSpec("fetch-redirects", value: "N", help: "Follow at most N redirects, \(range(RemoteOptions.redirectsRange)) (default \(defaults.maxRedirects)); more fail the job, as a loop would.")
    static let attempts = OptionSpec("fetch-attempts", value: "N", help: "Transfer a URL at most N times, \(range(RemoteOptions.attemptsRange)), the first included (default \(defaults.attempts)): after a timeout, a reset, HTTP 5xx, 408 or 429, with doubling waits or the server's Retry-After. 1 never retries.")
    static let perHost = OptionSpec("fetch-per-host", value: "N", help: "Run at most N transfers to one server (scheme, host and port) at once, \(range(RemoteOptions.perHostRange)) (default \(defaults.perHost)).")
    static let fetchBounds = [connectTimeout, stallTimeout, maxSize, redirects, attempts, perHost]

    /// Each kind's default cap, as help says it: "still 100MB, …, layout 16MB".
    static var kindDefaults: String {
        RemoteKind.allCases.map { "\(word($0)) \(ByteSize.text(defaults.maxBytes[$0] ?? 0))" }.joined(separator: ", ")
    }

    /// The words `--fetch-max-size` takes before `=`, one per kind of remote input.
    static var kindWords: [String] { RemoteKind.allCases.map(word) }

    private static func word(_ kind: RemoteKind) -> String { kind.rawValue.replacingOccurrences(of: " ", with: "-") }

    private static func range(_ range: ClosedRange<Int>) -> String { "\(range.lowerBound)–\(range.upperBound)" }

    /// `options` with the fetch flags given applied.
    /// - Throws: `SlicevidError(.usage)` naming the flag, the value and what it accepts.
    static func applyFetchBounds(_ arguments: ParsedArguments, to options: inout RemoteOptions) throws(SlicevidError) {
        func whole(_ option: OptionSpec, _ accepted: ClosedRange<Int>) throws(SlicevidError) -> Int? {
            guard let text = arguments.value(option) else { return nil }
            guard let value = Int(text), accepted.contains(value) else {
                throw SlicevidError(.usage, "--\(option.name): \(InputText.quoted(text)) is not a whole number \(range(accepted))")
            }
            return value
        }
        if let seconds = try whole(connectTimeout, RemoteOptions.connectSecondsRange) { options.connectTimeout = .seconds(seconds) }
        if let seconds = try whole(stallTimeout, RemoteOptions.stallSecondsRange) { options.stallTimeout = .seconds(seconds) }
        if let count = try whole(redirects, RemoteOptions.redirectsRange) { options.maxRedirects = count }
        if let count = try whole(attempts, RemoteOptions.attemptsRange) { options.attempts = count }
        if let count = try whole(perHost, RemoteOptions.perHostRange) { options.perHost = count }
        // In the order given: a later value for a kind replaces an earlier one.
        for text in arguments.all(maxSize) {
            let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            let kinds: [RemoteKind]
            if parts.count == 2 {
                guard let kind = RemoteKind.allCases.first(where: { word($0) == parts[0] }) else {
                    throw SlicevidError(.usage, "--fetch-max-size: \(InputText.quoted(parts[0])) is not a kind of input; give one of \(kindWords.joined(separator: ", ")), or SIZE alone for every kind")
                }
                kinds = [kind]
            } else {
                kinds = RemoteKind.allCases
            }
            guard let bytes = ByteSize.parse(parts[parts.count - 1]), RemoteOptions.maxBytesRange.contains(bytes) else {
                throw SlicevidError(.usage, "--fetch-max-size: \(InputText.quoted(parts[parts.count - 1])) is not a size \(ByteSize.text(RemoteOptions.maxBytesRange.lowerBound))–\(ByteSize.text(RemoteOptions.maxBytesRange.upperBound)); give bytes or a whole number with kB, MB, GB, KiB, MiB or GiB (50MB)")
            }
            for kind in kinds { options.maxBytes[kind] = bytes }
        }
    }
}

/// A size as `--fetch-max-size` spells it: `1048576`, `512kB`, `100MB`, `2GiB`.
enum ByteSize {
    /// The units, case as written, with what each multiplies by.
    private static let units: [(String, Int)] = [("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10), ("GB", 1_000_000_000), ("MB", 1_000_000), ("kB", 1000), ("B", 1)]

    /// The bytes `text` says: digits alone, or digits and a unit; nil for anything else (a
    /// sign, a fraction, spaces, an unknown unit, a product past `Int`).
    static func parse(_ text: String) -> Int? {
        let unit = units.first { text.hasSuffix($0.0) } ?? ("", 1)
        let digits = text.dropLast(unit.0.count)
        guard !digits.isEmpty, digits.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }), let number = Int(digits) else { return nil }
        let (bytes, overflow) = number.multipliedReportingOverflow(by: unit.1)
        return overflow ? nil : bytes
    }

    /// `100MB` for 100 000 000, `1B` for 1: the largest SI unit that divides it.
    static func text(_ bytes: Int) -> String {
        for (name, factor) in [("GB", 1_000_000_000), ("MB", 1_000_000), ("kB", 1000)] where bytes >= factor && bytes % factor == 0 {
            return "\(bytes / factor)\(name)"
        }
        return "\(bytes)B"
    }
}
