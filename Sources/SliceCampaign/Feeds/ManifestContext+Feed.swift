// A template's `rows` object read into a feed: the file (or standard input), its format,
// separator, key and ignored columns checked, and each feed read once per manifest.

import Glibc
import SliceKit
import SlicePipeline

extension ManifestContext {
    /// The feed a `rows` object names, read once per manifest however many templates name it.
    /// - Parameters:
    ///   - most: the most rows accepted (what the manifest's job limit leaves for this template).
    ///   - tooMany: the message for a row past `most`.
    mutating func feed(_ value: Any, reader: ManifestReader, most: Int, tooMany: String) throws(SlicevidError) -> Feed {
        let example = "{\"file\": \"products.csv\", \"key\": \"sku\"}"
        guard let spec = value as? [String: Any] else { throw reader.error("rows", "expected an object, e.g. \(example)") }
        try reader.refuseUnknownKeys(spec, accepted: JobTemplate.rowsKeys, in: "rows")
        guard let file = spec["file"] as? String, !file.isEmpty else {
            throw reader.error("rows.file", "expected the feed's path (a .csv or .jsonl file, or - for standard input), e.g. \(example)")
        }
        guard let key = spec["key"] as? String, !key.isEmpty else {
            throw reader.error("rows.key", "expected the column whose value tells rows apart, e.g. \(example)")
        }
        var format = Feed.Format.implied(by: file)
        if let given = spec["format"] {
            guard let name = given as? String, let chosen = Feed.Format(rawValue: name) else {
                throw reader.error("rows.format", "expected \"csv\" or \"jsonl\"")
            }
            format = chosen
        }
        var separator = file.lowercased().hasSuffix(".tsv") ? UInt8(ascii: "\t") : UInt8(ascii: ",")
        if let given = spec["separator"] {
            guard format == .csv else { throw reader.error("rows.separator", "only a CSV feed has a separator") }
            guard let text = given as? String, text.utf8.count == 1, let byte = text.utf8.first, CSVReader.separators.contains(byte) else {
                throw reader.error("rows.separator", "expected \",\", \";\" or \"\\t\" (a tab)")
            }
            separator = byte
        }
        var ignored: [String] = []
        if let given = spec["ignore"] {
            guard let names = given as? [Any], let strings = names as? [String], strings.count == names.count else {
                throw reader.error("rows.ignore", "expected an array of column names, e.g. [\"stock\", \"updated\"]")
            }
            guard !strings.contains(key) else { throw reader.error("rows.ignore", "the key \(InputText.quoted(key)) names the rows' jobs; it cannot be ignored") }
            ignored = strings
        }
        let cacheKey = "\(format.rawValue)|\(separator)|\(key)|\(ignored.joined(separator: "\u{0}"))|\(file == "-" ? "-" : absolute(file))"
        if let known = feeds[cacheKey] {
            guard known.rows.count <= most else { throw reader.error("rows", tooMany) }
            return known
        }
        let input: FeedInput
        if file == "-" {
            guard !readsStandardInput else {
                throw reader.error("rows.file", "- is standard input, which carries the manifest itself; give the feed as a file")
            }
            guard !standardInputTaken else {
                throw reader.error("rows", "standard input can carry one feed; the other \"rows\" must read the same (with the same key, format and separator) or a file")
            }
            standardInputTaken = true
            let cancellation = self.cancellation
            input = FeedInput(descriptor: STDIN_FILENO) { cancellation?.isCancelled == true }
        } else {
            do {
                input = try FeedInput(path: absolute(file))
            } catch {
                throw SlicevidError(.inputMissing, ErrorText("\(reader.manifest): \(reader.place.map { "\($0): " } ?? "")rows: \(InputText.excerpt(file)): \(error.reason)"))
            }
        }
        let name = file == "-" ? "-" : InputText.excerpt(file)
        var feed: Feed
        do throws(FeedError) {
            feed = try Feed.read(name: name, format: format, separator: separator, key: key, most: most, tooMany: tooMany, input: input)
        } catch where error.isInterrupted {
            let signal = cancellation?.signal ?? SIGINT
            throw SlicevidError(.interrupted(signal: signal), ErrorText("\(reader.manifest): interrupted by \(signalName(signal)) while reading the feed on standard input; nothing was rendered"))
        } catch {
            throw reader.error("rows", "\(file == "-" ? Manifest.standardInputName : name)\(error.line == nil ? ": " : ":")\(error)")
        }
        if let unknown = ignored.first(where: { !feed.columns.contains($0) }) {
            throw reader.error("rows.ignore", "\(InputText.quoted(unknown)) is not a column of \(feed.shownName); its columns: \(feed.columns.joined(separator: ", "))")
        }
        feed = feed.ignoring(ignored)
        feeds[cacheKey] = feed
        return feed
    }
}
