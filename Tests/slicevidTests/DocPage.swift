// A Markdown page of the documentation as the docs tests read it: its code blocks with the
// `<!-- test: … -->` comment before each, its headings as GitHub anchors them, its links.
// The convention itself is described in docs/development.md ("Documentation that is tested").

import Foundation

/// One page of README.md or docs/*.md, split into what the docs tests check.
struct DocPage: CustomStringConvertible, Sendable {
    /// What the `<!-- test: … -->` comment before a block asks.
    enum Marker: Equatable, Sendable {
        /// Run each line in the page's scratch folder.
        case run
        /// Run it as `run` does when the tool (`jq`) is on PATH; otherwise the page's test
        /// says it skipped the block, and why.
        case runIf(tool: String)
        /// Shown, not run, for the reason given.
        case skip(reason: String)
        /// Write the block to this file in the page's scratch folder.
        case file(String)
        /// Every key path of the block is in this JSON file of the scratch folder.
        case keysIn(String)
    }

    /// A code block: fenced (with its language) or indented.
    struct Block: Sendable {
        /// Whether the block is fenced (rather than indented).
        var fenced: Bool
        /// The fence's language (`sh`, `json`, `text`, …); nil for an indented block or a fence
        /// without one.
        var language: String?
        /// The block's lines, without the fence and the indentation.
        var lines: [String]
        /// The 1-based line of the page the block starts on (its fence, or its first line).
        var line: Int
        /// The comment before it, if any.
        var marker: Marker?

        /// Whether the block holds commands: fenced as a shell, or indented.
        var isShell: Bool { !fenced || ["sh", "bash", "shell", "console"].contains(language ?? "") }
        var text: String { lines.joined(separator: "\n") + "\n" }
    }

    /// A link or picture target written `[text](target)` outside code.
    struct Link: Sendable {
        var target: String
        var line: Int
    }

    /// The page's path relative to the repository, e.g. `docs/batch.md`.
    let path: String
    let lines: [String]
    private(set) var blocks: [Block] = []
    /// The anchors GitHub gives the page's headings, in order.
    private(set) var anchors: [String] = []
    private(set) var links: [Link] = []
    /// Problems with the page's form: a comment that is not a known marker or stands before no
    /// block, a fence that is never closed.
    private(set) var problems: [String] = []

    var description: String { path }

    /// The repository's root folder (this file is in Tests/slicevidTests/).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../..").standardizedFileURL.path

    /// README.md followed by every docs/*.md, in name order.
    static func all() throws -> [DocPage] {
        try [DocPage(path: "README.md")] + docs()
    }

    /// Every docs/*.md, in name order.
    static func docs() throws -> [DocPage] {
        try FileManager.default.contentsOfDirectory(atPath: root + "/docs").filter { $0.hasSuffix(".md") }.sorted()
            .map { try DocPage(path: "docs/" + $0) }
    }

    /// Reads and splits the page at `path` (relative to the repository).
    init(path: String) throws {
        self.path = path
        lines = try String(contentsOfFile: Self.root + "/" + path, encoding: .utf8).components(separatedBy: "\n")
        parse()
    }

    /// The repository's examples/ copied into `folder` as a checkout has them: the sample
    /// manifests, feeds, layouts, logos, scripts and scheduler recipes, not what a run made of
    /// them (stills, outputs, hidden sidecars and locks, reports).
    static func copyExamples(into folder: String) throws {
        let examples = root + "/examples"
        for name in try FileManager.default.subpathsOfDirectory(atPath: examples).sorted() {
            let file = (name as NSString).lastPathComponent
            guard !name.split(separator: "/").contains(where: { $0.hasPrefix(".") }), !file.hasPrefix("report"),
                  ["json", "sh", "sbatch", "yaml", "csv", "svg"].contains((file as NSString).pathExtension) || file == "crontab" else { continue }
            let target = folder + "/examples/" + name
            try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: examples + "/" + name, toPath: target)
        }
    }

    /// Why `block` is not the repository's file `name` (`examples/slurm/campaign.sbatch`), or
    /// nil when it is: a JSON block must be the same JSON (its layout may differ), any other
    /// block the same text, character for character, final newline included (a CSV's CRLF read as LF).
    static func mismatch(_ block: Block, repositoryFile name: String) -> String? {
        guard let data = FileManager.default.contents(atPath: root + "/" + name) else { return "the repository has no \(name)" }
        if block.language == "json" {
            guard let shown = try? JSONSerialization.jsonObject(with: Data(block.text.utf8)) else { return "the JSON block does not parse" }
            let real = try? JSONSerialization.jsonObject(with: data)
            return (shown as? NSObject)?.isEqual(real) == true ? nil : "the block is not the JSON of \(name)"
        }
        // A CSV's CRLF line ends (RFC 4180's) cannot be shown in a page: they compare as line ends.
        var text = String(decoding: data, as: UTF8.self)
        if name.hasSuffix(".csv") { text = text.replacingOccurrences(of: "\r\n", with: "\n") }
        guard block.text != text else { return nil }
        // Both end with the empty line after the final newline (the block always has one).
        let shown = block.lines + [""], real = text.components(separatedBy: "\n")
        let first = zip(shown, real).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(shown.count, real.count)
        let shownLine = first < shown.count ? shown[first].debugDescription : "nothing more"
        let realLine = first < real.count ? real[first].debugDescription : "nothing more"
        return "the block differs from \(name) at its line \(first + 1): shown \(shownLine), the file has \(realLine)"
    }

    /// Where a problem is: `docs/batch.md:12`.
    func place(_ line: Int) -> String { "\(path):\(line)" }

    private mutating func parse() {
        var pending: (marker: Marker, line: Int)?
        var inList = false
        var previousBlank = true
        var index = 0
        var slugs: [String: Int] = [:]

        func attach(_ block: Block) -> Block {
            var block = block
            block.marker = pending?.marker
            pending = nil
            return block
        }

        while index < lines.count {
            let line = lines[index]
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            let indent = line.prefix { $0 == " " }.count

            if let fence = Self.fence(trimmed), indent < 4 || inList {
                // A fenced block: up to the closing fence of the same character, at least as long.
                let start = index
                var content: [String] = []
                index += 1
                while index < lines.count, !Self.closes(lines[index], fence: fence.fence) {
                    content.append(String(lines[index].dropFirst(min(indent, lines[index].prefix { $0 == " " }.count))))
                    index += 1
                }
                if index == lines.count { problems.append("\(place(start + 1)): a fence that is never closed") }
                blocks.append(attach(Block(fenced: true, language: fence.language, lines: content, line: start + 1)))
                index += 1
                previousBlank = false
                continue
            }
            if trimmed.isEmpty {
                previousBlank = true
                index += 1
                continue
            }
            if indent >= 4, previousBlank, !inList {
                // An indented block: indented or blank lines, trailing blanks not included.
                let start = index
                var content: [String] = []
                while index < lines.count, lines[index].hasPrefix("    ") || lines[index].trimmingCharacters(in: .whitespaces).isEmpty {
                    content.append(String(lines[index].dropFirst(min(4, lines[index].count))))
                    index += 1
                }
                while content.last?.trimmingCharacters(in: .whitespaces).isEmpty == true { content.removeLast() }
                blocks.append(attach(Block(fenced: false, language: nil, lines: content, line: start + 1)))
                previousBlank = false
                continue
            }
            if trimmed.hasPrefix("<!-- test:") {
                if let pending { problems.append("\(place(pending.line)): a test comment before no code block") }
                if let marker = Self.marker(trimmed) {
                    pending = (marker, index + 1)
                } else {
                    problems.append("\(place(index + 1)): not a test comment the docs tests know: \(trimmed)")
                }
                index += 1
                continue
            }
            // Any other text ends what a test comment could stand before.
            if let pending, !trimmed.hasPrefix("<!--") {
                problems.append("\(place(pending.line)): a test comment before no code block")
            }
            if !trimmed.hasPrefix("<!--") { pending = nil }
            if trimmed.hasPrefix("#"), let heading = Self.heading(trimmed) {
                let slug = Self.slug(heading)
                let seen = slugs[slug, default: 0]
                anchors.append(seen == 0 ? slug : "\(slug)-\(seen)")
                slugs[slug] = seen + 1
                inList = false
            } else if trimmed.wholeMatch(of: /([-*+]|\d+\.)(\s.*)?/) != nil {
                inList = true
            } else if indent == 0 {
                inList = false
            }
            links += Self.links(in: line).map { Link(target: $0, line: index + 1) }
            previousBlank = false
            index += 1
        }
        if let pending { problems.append("\(place(pending.line)): a test comment before no code block") }
    }

    /// The fence a line opens (three or more backticks or tildes) and its language.
    private static func fence(_ trimmed: String) -> (fence: String, language: String?)? {
        guard let match = trimmed.wholeMatch(of: /(`{3,}|~{3,})\s*([^\s`]*).*/) else { return nil }
        let language = String(match.output.2)
        return (String(match.output.1), language.isEmpty ? nil : language)
    }

    private static func closes(_ line: String, fence: String) -> Bool {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        return trimmed.count >= fence.count && trimmed.allSatisfy { $0 == fence.first }
    }

    /// `<!-- test: run -->`, `<!-- test: run if TOOL -->`, `<!-- test: skip: REASON -->`, `<!-- test: file NAME -->`,
    /// `<!-- test: keys in NAME -->`.
    static func marker(_ comment: String) -> Marker? {
        guard let match = comment.wholeMatch(of: /<!--\s*test:\s*(.*?)\s*-->/) else { return nil }
        let body = String(match.output.1)
        if body == "run" { return .run }
        if let tool = body.wholeMatch(of: /run if\s+([A-Za-z0-9_.-]+)/) { return .runIf(tool: String(tool.output.1)) }
        if let skip = body.wholeMatch(of: /skip:\s*(\S.*)/) { return .skip(reason: String(skip.output.1)) }
        if let file = body.wholeMatch(of: /file\s+(\S+)/) { return .file(String(file.output.1)) }
        if let keys = body.wholeMatch(of: /keys in\s+(\S+)/) { return .keysIn(String(keys.output.1)) }
        return nil
    }

    /// A heading's text (`## Re-runs: only what changed` → `Re-runs: only what changed`).
    private static func heading(_ trimmed: String) -> String? {
        guard let match = trimmed.wholeMatch(of: /#{1,6}\s+(.*?)\s*#*/) else { return nil }
        return String(match.output.1)
    }

    /// The anchor GitHub makes of a heading: its text without link syntax, in lower case, with
    /// every character that is not a letter, mark, number, `_`, `-` or space dropped, and each
    /// space made a `-`.
    static func slug(_ heading: String) -> String {
        let text = heading.replacing(/!?\[([^\]]*)\]\([^)]*\)/) { String($0.output.1) }.lowercased()
        let kept = text.unicodeScalars.filter { scalar in
            switch scalar.properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                 .nonspacingMark, .spacingMark, .enclosingMark,
                 .decimalNumber, .letterNumber, .otherNumber, .connectorPunctuation:
                return true
            default:
                return scalar == "-" || scalar == " "
            }
        }
        return String(kept).replacingOccurrences(of: " ", with: "-")
    }

    /// The targets of `[text](target)` and `![alt](target)` on a line, code spans left out.
    static func links(in line: String) -> [String] {
        let prose = line.replacing(/`[^`]*`/, with: "")
        return prose.matches(of: /\]\(([^)\s]+)(?:\s+"[^"]*")?\)/).map { String($0.output.1) }
    }
}
