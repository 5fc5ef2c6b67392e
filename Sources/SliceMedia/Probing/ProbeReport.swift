// What `probe` reads back from one media file: the facts `make --dry-run` predicts, key for key,
// and the stream's tag, which only a written file has.

/// One media file read back: its first video stream (or picture) and its first audio stream.
public struct ProbeReport: Sendable, Equatable {
    /// The file as it was named.
    public let path: String
    /// What it holds, in the words `make --dry-run` uses.
    public let facts: MediaFacts
    /// The stream's four-character code (`avc1`, `hvc1`, `apch`); nil when the container has none.
    public let tag: String?

    /// The report of the file at `path`, from what `MediaReader` read back from it.
    package init(path: String, info: MediaInfo) {
        self.path = path
        facts = info.facts(path: path)
        tag = info.codecTag.isEmpty ? nil : info.codecTag
    }
}
