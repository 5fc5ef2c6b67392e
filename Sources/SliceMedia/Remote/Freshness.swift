// How long a cached response may be used without asking its server again (RFC 9111 §4.2):
// `Cache-Control: max-age` (else `Expires` less `Date`) is its lifetime, counted from when the
// server made it (the response's age: `Age`, the transfer's time, and the server's `Date`).
// `no-cache` and `no-store` mean ask every time; no lifetime is guessed from `Last-Modified`
// (RFC 9111 §4.2.2 allows one; slicevid does not), so a server that says nothing is asked each
// run with a conditional request, as before. `must-revalidate` needs nothing of its own: a
// stale copy is always revalidated, and a failed revalidation fails the job.

/// The lifetime a response was given, and the moment it counts from.
package struct Freshness: Sendable, Equatable {
    /// Seconds since 1970 at which the response was new (its corrected initial age before the
    /// transfer ended).
    package var since: Int64
    /// Seconds it stays fresh.
    package var lifetime: Int64

    /// The longest lifetime taken: larger `max-age` values are this (RFC 9111 §1.2.2).
    static let longest: Int64 = 2_147_483_648

    /// Whether a copy is fresh at `now` (seconds since 1970): younger than its lifetime, and
    /// not from the future (a clock set back makes every copy stale).
    package func isFresh(at now: Int64) -> Bool {
        now >= since && now - since < lifetime
    }

    /// The lifetime `cacheControl` and `expires` give, in seconds: nil when the response must be
    /// revalidated each time (`no-cache`, `no-store`) or names no lifetime.
    /// - Parameters:
    ///   - cacheControl: the response's Cache-Control, its lines joined by commas.
    ///   - expires: Expires, seconds since 1970; -2 when it was not a date (already expired).
    ///   - date: Date, seconds since 1970, or the transfer's end when the server sent none.
    static func lifetime(cacheControl: String?, expires: Int64?, date: Int64) -> Int64? {
        var maxAge: Int64?
        for directive in (cacheControl ?? "").split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1)
            let name = parts.first.map { $0.trimmingSpaces.lowercased() } ?? ""
            var value = parts.count > 1 ? parts[1].trimmingSpaces : ""
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
            switch name {
            case "no-cache", "no-store":
                return nil
            case "max-age":
                // A max-age that is not a number makes the response stale (RFC 9111 §4.2.1).
                guard !value.isEmpty, value.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return 0 }
                let seconds = value.utf8.count > 10 ? longest : min(Int64(value) ?? longest, longest)
                // Two max-ages: the shorter holds.
                maxAge = min(maxAge ?? seconds, seconds)
            default:
                continue
            }
        }
        if let maxAge { return maxAge }
        guard let expires else { return nil }
        return expires < 0 ? 0 : max(0, expires - date)
    }

    /// The freshness of a response that arrived at `responseTime` (asked at `requestTime`),
    /// with `lifetime` seconds, the server's `date` and `age` when it sent them.
    static func counting(lifetime: Int64, date: Int64?, age: Int64?, requestTime: Int64, responseTime: Int64) -> Freshness {
        let apparentAge = max(0, responseTime - (date ?? responseTime))
        let correctedAge = min(age ?? 0, longest) + max(0, responseTime - requestTime)
        return Freshness(since: responseTime - max(apparentAge, correctedAge), lifetime: lifetime)
    }
}

private extension Substring {
    var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}

/// A response's headers that bear on its freshness, and when it was asked for and came.
struct CacheHeaders: Equatable {
    var cacheControl: String?
    /// Seconds since 1970; Expires is -2 when it was not a date.
    var expires: Int64?
    var date: Int64?
    var age: Int64?
    var requestTime: Int64
    var responseTime: Int64

    /// The response's freshness: its own lifetime, else (a 304 that named none) the one the
    /// stored response had, `stored`, counted from now (RFC 9111 §4.3.4); nil when it is to be
    /// revalidated each time.
    func freshness(stored: Int64? = nil) -> Freshness? {
        let lifetime = cacheControl == nil && expires == nil
            ? stored
            : Freshness.lifetime(cacheControl: cacheControl, expires: expires, date: date ?? responseTime)
        guard let lifetime, lifetime > 0 else { return nil }
        return Freshness.counting(lifetime: lifetime, date: date, age: age, requestTime: requestTime, responseTime: responseTime)
    }
}
