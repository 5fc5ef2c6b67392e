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
        let name = file == "-" ? "-" : InputText.excerpt(file)
        if file == "-" {
            guard !readsStandardInput else {
                throw reader.error("rows.file", "- is standard input, which carries the manifest itself; give the feed as a file")
            }
            guard !standardInputTaken else {
                throw reader.error("rows", "standard input can carry one feed; the other \"rows\" must read the same (with the same key, format and separator) or a file")
            }
            standardInputTaken = true
        }
        var feed: Feed
        do throws(FeedError) {
            if file == "-" {
                let cancellation = self.cancellation
                let input = FeedInput(descriptor: STDIN_FILENO) { cancellation?.isCancelled == true }
                feed = try Feed.read(name: name, format: format, separator: separator, key: key, most: most, tooMany: tooMany, input: input)
            } else {
                feed = try readFile(absolute(file), name: name, format: format, separator: separator, key: key, most: most, tooMany: tooMany)
            }
        } catch where error.isInterrupted {
            let signal = cancellation?.signal ?? SIGINT
            throw SlicevidError(.interrupted(signal: signal), ErrorText("\(reader.manifest): interrupted by \(signalName(signal)) while reading the feed on standard input; nothing was rendered"))
        } catch where error.isMissing || error.isChanged {
            // Not there, not readable, or never one version: the input is missing (66).
            throw SlicevidError(.inputMissing, ErrorText("\(reader.manifest): \(reader.place.map { "\($0): " } ?? "")rows: \(name): \(error.reason)"))
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

    /// A feed file read whole as one version: read once more if it changed while it was read
    /// (an export rewriting it beside a nightly run; noted in `unsettledFeeds`), refused if it
    /// changes again; and the same version for every job template of the manifest that reads it.
    /// - Throws: `FeedError`: the feed's own problems, `isMissing`, or `isChanged` for a file
    ///   that changed during both reads or since another template read it.
    private mutating func readFile(_ path: String, name: String, format: Feed.Format, separator: UInt8, key: String, most: Int,
                                   tooMany: String) throws(FeedError) -> Feed {
        var attempt = 1
        while true {
            let input = try FeedInput(path: path)
            do throws(FeedError) {
                let feed = try Feed.read(name: name, format: format, separator: separator, key: key, most: most, tooMany: tooMany, input: input)
                if let first = feedVersions[path], first != input.opened {
                    var error = FeedError("changed since another job template read it")
                    error.isChanged = true
                    throw error
                }
                feedVersions[path] = input.opened
                // Read whole the second time, yet what the first read saw was no export's end:
                // the second may be an export cut short as well, so it renders but prunes nothing.
                if attempt > 1 { unsettledFeeds.append(name) }
                return feed
            } catch {
                // A problem found in bytes that changed under the reader may be the change itself.
                guard error.isChanged || input.hasChanged else { throw error }
                guard feedVersions[path] == nil else {
                    var mixed = FeedError("changed while the manifest was read (another job template read an earlier version); nothing was rendered or pruned; run again once it is written")
                    mixed.isChanged = true
                    throw mixed
                }
                guard attempt == 1 else {
                    var twice = FeedError("changed while it was read, twice (its size, times or file differ between the start and the end of each read); nothing was rendered or pruned; run again once it is written")
                    twice.isChanged = true
                    throw twice
                }
                attempt += 1
            }
        }
    }
}
