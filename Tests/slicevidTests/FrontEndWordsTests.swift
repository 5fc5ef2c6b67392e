// The command line's words stay in the command line: below it, a message, a help text or a page
// names a setting (`Setting`, worded by each front end) and never spells a flag (`--prune`) or a
// command line (`slicevid report merge …`), which a library user has never typed.

import Foundation
import Testing
@testable import SlicevidCLI

@Suite("no flag or command words below the command line")
struct FrontEndWordsTests {
    /// The package's root folder.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardizedFileURL

    /// Text that names the command line on purpose, by file and the text itself.
    static let kept: [(file: String, text: String)] = [
        // A page's generator mark, which recognises an earlier page to replace: written by every
        // slicevid since 0.4, so it cannot change.
        ("Sources/SliceReports/Page/ReportPage+HTML.swift", "slicevid report html"),
    ]

    /// The string literals of a Swift file, with their line numbers: quoted runs on a line, and
    /// every line of a `"""` literal. Comments are not literals.
    static func literals(of source: String) -> [(line: Int, text: String)] {
        var found: [(Int, String)] = []
        var inMultiline = false
        let quoted = /"((?:[^"\\]|\\.)*)"/
        for (index, line) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let delimiters = line.ranges(of: "\"\"\"").count
            if inMultiline {
                found.append((index + 1, String(line.split(separator: "\"\"\"", omittingEmptySubsequences: false)[0])))
                if delimiters % 2 == 1 { inMultiline = false }
                continue
            }
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("//") { continue }
            if delimiters % 2 == 1 {
                inMultiline = true
                found.append((index + 1, String(line.split(separator: "\"\"\"", omittingEmptySubsequences: false).last ?? "")))
                continue
            }
            found += line.matches(of: quoted).map { (index + 1, String($0.output.1)) }
        }
        return found
    }

    /// Every flag and command word in `text` that is slicevid's: `--NAME` or `-X` for one of
    /// its options, `slicevid COMMAND` for one of its commands (but `a slicevid report`, the
    /// file), `COMMAND --…`, and `report merge` / `report html`.
    static func frontEndWords(in text: String) throws -> [String] {
        let options = SlicevidTool.commands.flatMap(\.spec.options) + SlicevidTool.options + [LogFormat.option]
        let long = Set(options.map(\.name)), short = Set(options.compactMap(\.short))
        let commands = SlicevidTool.commands.map(\.name)
        var words: [String] = []
        // A flag starts a word: nothing of a word or a dash before it (Swift's Regex has no lookbehind).
        for match in text.matches(of: try Regex(#"(?:^|[^\w-])(--([a-z][a-z0-9]*(?:-[a-z0-9]+)*))"#)) {
            if let name = match.output[2].substring, long.contains(String(name)) { words.append(String(match.output[1].substring ?? "")) }
        }
        for match in text.matches(of: try Regex(#"(?:^|[^\w-])(-([a-zA-Z]))(?![\w-])"#)) {
            if let letter = match.output[2].substring?.first, short.contains(letter) { words.append(String(match.output[1].substring ?? "")) }
        }
        let names = commands.filter { $0 != "report" }.joined(separator: "|")
        let phrase = try Regex(#"\bslicevid (?:\#(names))\b|\breport (?:merge|html)\b|\b(?:\#(commands.joined(separator: "|"))) --?[a-z]"#)
        words += text.matches(of: phrase).map { String($0.output[0].substring ?? "") }
        return words
    }

    @Test("no string of Sources outside the command line spells one of slicevid's flags or commands")
    func noFrontEndWordsBelow() throws {
        let sources = Self.root.appendingPathComponent("Sources")
        var scanned = 0
        for case let file as URL in FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)! where file.pathExtension == "swift" {
            let relative = file.path.replacingOccurrences(of: Self.root.path + "/", with: "")
            guard !relative.hasPrefix("Sources/SlicevidCLI/"), !relative.hasPrefix("Sources/slicevid/") else { continue }
            scanned += 1
            for (line, text) in Self.literals(of: try String(contentsOf: file, encoding: .utf8)) {
                let words = try Self.frontEndWords(in: text).filter { word in !Self.kept.contains { $0.file == relative && text.contains($0.text) } }
                if !words.isEmpty { Issue.record("\(relative):\(line): \(words) in \"\(text)\"; name the setting and let the front end word it") }
            }
        }
        #expect(scanned > 200)
    }

    @Test("the scan finds what it is for, and leaves alone what only looks like it", arguments: [
        ("Not with --loudness.", ["--loudness"]),
        ("(orphans; batch --prune deletes them)", ["--prune", "batch --p"]),
        ("report merge needs reports: slicevid report merge a.json -o all.json", ["-o", "report merge", "report merge"]),
        ("'-' is for slicevid make", ["slicevid make"]),
        // Another program's option, a CSS property, a negative number, the report as a file.
        ("run it as --array=0-3", []),
        (":root{--bg:#f4f4f2}", []),
        ("true peak at most -1 dBTP", []),
        ("is not a slicevid report", []),
    ])
    func scanner(_ text: String, _ expected: [String]) throws {
        #expect(try Self.frontEndWords(in: text).sorted() == expected.sorted())
    }

    @Test("literals are read from code, multi-line strings included, and never from comments")
    func literalsOfSource() {
        let source = """
        // not "--force" here
        let a = "one --fps"
        let b = \"\"\"
            inside --slices
            \"\"\"
        """
        let texts = Self.literals(of: source).map(\.text)
        #expect(texts.contains("one --fps") && texts.contains { $0.contains("inside --slices") })
        #expect(!texts.contains { $0.contains("--force") })
    }
}
