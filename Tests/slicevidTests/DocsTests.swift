// The documentation stays true: every command README.md and docs/*.md show runs (or says why it
// cannot), every manifest and preset they show is read by slicevid, every relative link leads to
// a file and a heading, and every page is reachable from the README.

import Foundation
import Testing

@Suite("docs", .timeLimit(.minutes(10)))
struct DocsTests {
    @Test("every code block carries the test comment the convention asks for")
    func blocksAreMarked() throws {
        var problems: [String] = []
        for page in try DocPage.all() {
            problems += page.problems
            for (index, block) in page.blocks.enumerated() {
                let place = page.place(block.line)
                if block.fenced, block.language == nil {
                    problems.append("\(place): a fence without a language (sh, json, text, …)")
                }
                switch block.marker {
                case nil:
                    if block.isShell || block.language == "json" {
                        problems.append("\(place): a \(block.language ?? "indented") block needs <!-- test: run --> or <!-- test: skip: REASON -->")
                    }
                case .run?, .runIf?:
                    if !block.isShell { problems.append("\(place): only sh blocks run") }
                    if DocPage.commands(of: block).isEmpty { problems.append("\(place): a run block without a command") }
                case .skip?:
                    break
                case .file(let name)?:
                    let usedLater = page.blocks[(index + 1)...].contains { $0.marker == .run && $0.text.contains(name) }
                    if !usedLater { problems.append("\(place): no run block after it uses \(name)") }
                case .keysIn?:
                    if block.language != "json" { problems.append("\(place): keys in applies to json blocks") }
                }
            }
        }
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test("a block marked `file examples/…` is the repository's file: the same JSON, or the same text character for character")
    func examplesShownAreTheFiles() throws {
        var problems: [String] = [], shown: [String] = []
        for page in try DocPage.all() {
            for block in page.blocks {
                guard case .file(let name)? = block.marker, name.hasPrefix("examples/") else { continue }
                shown.append(name)
                if let problem = DocPage.mismatch(block, repositoryFile: name) { problems.append("\(page.place(block.line)): \(problem)") }
            }
        }
        // The README's Slurm recipe and docs/batch.md's matrix at least.
        #expect(Set(shown).isSuperset(of: ["examples/slurm/campaign.sbatch", "examples/matrix.json"]), "\(shown)")
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test("every swift block compiles: its code is the body of a function in Tests/LibraryTests/DocSnippets.swift")
    func swiftSnippetsCompile() throws {
        let compiled = try String(contentsOfFile: DocPage.root + "/Tests/LibraryTests/DocSnippets.swift", encoding: .utf8)
        let lines = compiled.components(separatedBy: "\n")
        var problems: [String] = []
        var snippets = 0
        for page in try DocPage.all() {
            for block in page.blocks where block.language == "swift" {
                snippets += 1
                // `import` lines (and the blank line after them) belong at the file's top; the
                // rest, indented one level, must be a function's whole body: after its opening
                // line, before its closing brace.
                let imports = block.lines.filter { $0.hasPrefix("import ") }
                var body: [String] = [], afterImport = false
                for line in block.lines {
                    if line.hasPrefix("import ") {
                        afterImport = true
                    } else if !line.isEmpty || !(afterImport || body.isEmpty) {
                        afterImport = false
                        body.append(line.isEmpty ? "" : "    " + line)
                    }
                }
                for line in imports where !lines.contains(line) { problems.append("\(page.place(block.line)): DocSnippets.swift lacks \(line)") }
                let found = lines.indices.contains { start in
                    start > 0 && lines[start - 1].hasSuffix("{") && lines[start...].starts(with: body)
                        && lines.indices.contains(start + body.count) && lines[start + body.count] == "}"
                }
                if !found { problems.append("\(page.place(block.line)): the block is not a function body in Tests/LibraryTests/DocSnippets.swift") }
            }
        }
        #expect(snippets >= 2, "README.md and docs/library.md show Swift")
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test("every relative link leads to a file, and every #anchor to one of its headings")
    func linksResolve() throws {
        var problems: [String] = []
        var pages: [String: DocPage] = [:]
        for page in try DocPage.all() { pages[page.path] = page }
        for page in pages.values.sorted(by: { $0.path < $1.path }) {
            let folder = (page.path as NSString).deletingLastPathComponent
            for link in page.links where link.target.firstMatch(of: /^[a-z][a-z0-9+.-]*:/) == nil {
                let parts = link.target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let file = parts[0].isEmpty ? page.path : ((folder as NSString).appendingPathComponent(parts[0]) as NSString).standardizingPath
                guard FileManager.default.fileExists(atPath: DocPage.root + "/" + file) else {
                    problems.append("\(page.place(link.line)): \(link.target): no file \(file)")
                    continue
                }
                guard parts.count == 2 else { continue }
                let target = try pages[file] ?? (file.hasSuffix(".md") ? DocPage(path: file) : nil)
                if target?.anchors.contains(parts[1]) != true {
                    problems.append("\(page.place(link.line)): \(link.target): \(file) has no heading #\(parts[1]) (it has \(target?.anchors ?? []))")
                }
            }
        }
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test("every page in docs/ is linked from the README and from the index")
    func pagesAreLinked() throws {
        let readme = try DocPage(path: "README.md"), index = try DocPage(path: "docs/README.md")
        let fromReadme = Set(readme.links.map { $0.target.split(separator: "#").first.map(String.init) ?? "" })
        let fromIndex = Set(index.links.map { "docs/" + ($0.target.split(separator: "#").first.map(String.init) ?? "") })
        for page in try DocPage.docs() {
            #expect(fromReadme.contains(page.path), "README.md does not link \(page.path)")
            if page.path != index.path { #expect(fromIndex.contains(page.path), "docs/README.md does not link \(page.path)") }
        }
    }

    @Test("the README stays a newcomer's page: at most 350 lines")
    func readmeIsShort() throws {
        let readme = try DocPage(path: "README.md")
        #expect(readme.lines.count <= 350, "README.md has \(readme.lines.count) lines; the reference belongs in docs/")
    }

    @Test("each docs page's commands run top to bottom in a scratch folder", arguments: try DocPage.docs())
    func pageRuns(_ page: DocPage) throws {
        try withScratchFolder { folder in
            try DocPage.copyExamples(into: folder)
            let skipped = try page.run(in: folder)
            if !skipped.isEmpty {
                // Everything else on the page ran; the test says which blocks could not, and why.
                try Test.cancel("\(skipped.joined(separator: "; ")): not run")
            }
        }
    }
}
