// "Did you mean": a mistyped flag or command is answered with the nearest one that exists,
// when one is near enough to be what was meant (`--slice` → `--slices`, `bacth` → `batch`).

/// Finds what a mistyped word most likely meant.
enum Suggestion {
    /// `; did you mean '--slices'?` for the nearest of `candidates`, or an empty string when
    /// none is close: within two edits (one for words of up to four letters), or the start of
    /// exactly one candidate.
    static func phrase(for word: String, among candidates: [String]) -> String {
        nearest(to: word, among: candidates).map { "; did you mean '\($0)'?" } ?? ""
    }

    static func nearest(to word: String, among candidates: [String]) -> String? {
        let typed = Array(word.lowercased())
        guard typed.count >= 3, typed.count <= 64 else { return nil }
        let limit = typed.count <= 4 ? 1 : 2
        let scored = candidates.map { ($0, distance(typed, Array($0.lowercased()))) }.filter { $0.1 <= limit }
        if let best = scored.min(by: { $0.1 < $1.1 }) { return best.0 }
        let extended = candidates.filter { $0.count > word.count + 1 && $0.hasPrefix(word) && word.count >= 3 }
        return extended.count == 1 ? extended[0] : nil
    }

    /// Damerau–Levenshtein distance (optimal string alignment): a swap of two neighbours is
    /// one edit, as typing mistakes usually are.
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [Int](repeating: 0, count: b.count + 1)
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previous2[j - 2] + 1)
                }
            }
            previous2 = previous
            previous = current
        }
        return previous[b.count]
    }
}
