// An input given as an http(s) URL rather than a path (a feed's `image_link`, a CDN export), and
// the one way it is shown: without the credentials a URL may carry (`user:pass@`, `token=`,
// `sig=`, S3's and GCS's signed-URL parameters), so a signed URL never reaches a log, a report
// or the morning page.

/// An `http://` or `https://` URL where a file path is accepted.
package struct RemoteURL: Sendable, Hashable, CustomStringConvertible {
    /// The URL as written: what is fetched.
    package let text: String

    /// `text` when it is an http or https URL (the scheme in any case); nil for a path.
    package init?(_ text: String) {
        guard RemoteURL.isRemote(text) else { return nil }
        self.text = text
        description = RemoteURL.redact(text)
    }

    /// Whether `text` names a remote input (starts with `http://` or `https://`, any case).
    package static func isRemote(_ text: String) -> Bool {
        let head = text.prefix(8).lowercased()
        return head.hasPrefix("http://") || head.hasPrefix("https://")
    }

    /// The URL as every message shows it: the credentials it carries replaced (see `redact`);
    /// made once, as a run names and keys a URL many times.
    package let description: String

    /// The URL's scheme and authority without credentials, lower-cased (`https://cdn.example:8443`):
    /// what the per-host limit counts by.
    package var origin: String {
        let (scheme, rest) = RemoteURL.splitScheme(text)
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let host = authority.split(separator: "@", omittingEmptySubsequences: false).last ?? authority
        return (scheme + "://" + host).lowercased()
    }

    /// Query parameters that carry a credential, by lower-cased name; and prefixes of names
    /// that do (`X-Amz-Signature`, `X-Amz-Credential`, `X-Goog-Signature`, …).
    static let secretNames: Set<String> = ["token", "access_token", "id_token", "sig", "signature", "key", "api_key", "apikey",
                                           "password", "passwd", "secret", "auth", "credential"]
    static let secretPrefixes = ["x-amz-", "x-goog-"]

    /// The word a credential's value is replaced with.
    package static let hidden = "REDACTED"

    /// `text` with its credentials hidden: a userinfo (`user:pass@`) dropped, and the value of
    /// each query parameter named like a credential replaced by `REDACTED`; the fragment
    /// (which a server never sees) dropped. Other text is returned as it is.
    package static func redact(_ text: String) -> String {
        guard isRemote(text) else { return text }
        let (scheme, rest) = splitScheme(text)
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        var tail = rest[authorityEnd...]
        if let hash = tail.firstIndex(of: "#") { tail = tail[..<hash] }
        guard let question = tail.firstIndex(of: "?") else { return scheme + "://" + authority + tail }
        let parameters = tail[tail.index(after: question)...].split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
            let name = pair[..<equals].removingPercentEscapes.lowercased()
            guard secretNames.contains(name) || secretPrefixes.contains(where: name.hasPrefix) else { return String(pair) }
            return pair[..<equals] + "=" + hidden
        }
        return scheme + "://" + authority + tail[..<question] + "?" + parameters.joined(separator: "&")
    }

    /// `text` (a message, a curl error) with every http(s) URL in it redacted: a URL ends at
    /// white space, a quote or an angle bracket, without the punctuation that ends a sentence.
    package static func scrub(_ text: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let start = rest.firstRange(of: "http", options: true) {
            result += rest[..<start.lowerBound]
            let candidate = rest[start.lowerBound...]
            guard isRemote(String(candidate.prefix(8))) else {
                result += candidate.prefix(4)
                rest = candidate.dropFirst(4)
                continue
            }
            var end = candidate.firstIndex { $0.isWhitespace || "\"'<>`".contains($0) } ?? candidate.endIndex
            // Punctuation after a URL (`…/a.jpg: HTTP 404`, `(…/a.jpg)`) belongs to the sentence.
            while end > candidate.startIndex, ":;,.)]".contains(candidate[candidate.index(before: end)]) { end = candidate.index(before: end) }
            result += redact(String(candidate[..<end]))
            rest = candidate[end...]
        }
        return result + rest
    }

    private static func splitScheme(_ text: String) -> (scheme: String, rest: Substring) {
        guard let range = text.range(of: "://") else { return ("", Substring(text)) }
        return (String(text[..<range.lowerBound]), text[range.upperBound...])
    }
}

private extension Substring {
    /// The text with `%XX` escapes decoded (as bytes, then UTF-8); malformed escapes kept.
    var removingPercentEscapes: String {
        var bytes: [UInt8] = []
        var iterator = utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%"), let high = iterator.next() else {
                bytes.append(byte)
                continue
            }
            guard let low = iterator.next() else {
                bytes += [byte, high]
                continue
            }
            if let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16) {
                bytes.append(value)
            } else {
                bytes += [byte, high, low]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    func firstRange(of word: String, options caseInsensitive: Bool) -> Range<Index>? {
        var index = startIndex
        while index < endIndex {
            if self[index...].prefix(word.count).lowercased() == word { return index..<self.index(index, offsetBy: word.count) }
            index = self.index(after: index)
        }
        return nil
    }
}
