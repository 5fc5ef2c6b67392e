// A path written in a remote layout or brand file is resolved against that file's URL, as a
// browser resolves a link (RFC 3986 §5.2: `logo.png`, `../fonts/a.ttf`, `/brand/a.png`), so a
// layout fetched from a server names only what that server (or another URL) holds: never a file
// on the machine that reads it.

extension RemoteURL {
    /// `reference` resolved against this URL: an http(s) URL as it is; `//host/p` with this
    /// scheme; `/p` on this URL's origin; anything else beside this URL's last path part, `.`
    /// and `..` parts removed (`..` never above the root). Placeholders (`{brand}`) are kept.
    /// - Returns: nil for a reference with another scheme (`file:`, `data:`, `ftp://`).
    package func resolving(_ reference: String) -> String? {
        if RemoteURL.isRemote(reference) { return reference }
        let firstPart = reference.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard !firstPart.contains(":") else { return nil }
        guard let separator = text.range(of: "://") else { return nil }
        let scheme = text[..<separator.lowerBound]
        if reference.hasPrefix("//") { return scheme + ":" + reference }
        let rest = text[separator.upperBound...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        let origin = text[..<authorityEnd]
        let ownPath = rest[authorityEnd...].prefix { $0 != "?" && $0 != "#" }
        let queryStart = reference.firstIndex { $0 == "?" || $0 == "#" } ?? reference.endIndex
        let referencePath = reference[..<queryStart]
        let merged: String
        if referencePath.hasPrefix("/") {
            merged = String(referencePath)
        } else {
            let folder = ownPath.lastIndex(of: "/").map { ownPath[...$0] } ?? "/"
            merged = String(folder) + referencePath
        }
        return origin + RemoteURL.removingDotParts(merged) + reference[queryStart...]
    }

    /// `/a/./b/../c` → `/a/c`; `..` at the root stays at the root.
    static func removingDotParts(_ path: String) -> String {
        var parts: [Substring] = []
        let written = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        for (index, part) in written.enumerated() {
            let isLast = index == written.count - 1
            switch part {
            case ".": if isLast { parts.append("") }
            case "..":
                if !parts.isEmpty { parts.removeLast() }
                if isLast { parts.append("") }
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }
}
