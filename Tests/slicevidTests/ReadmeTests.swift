// The README's Use block is a tutorial a new user pastes line by line into an empty folder: each
// line must work after the ones before it, with the built slicevid on PATH. The README's other
// blocks (the batch tour) go on in the same folder, from the stills the Use block made.

import Foundation
import Testing

@Suite("README")
struct ReadmeTests {
    /// The first indented block under "## Use", one command per line.
    static func useBlock() throws -> [String] {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../README.md").standardizedFileURL.path
        let text = try String(contentsOfFile: readme, encoding: .utf8)
        let lines = text.components(separatedBy: "\n")
        let heading = try #require(lines.firstIndex(of: "## Use"), "README.md has no '## Use' section")
        let block = lines[(heading + 1)...].drop { !$0.hasPrefix("    ") }.prefix { $0.hasPrefix("    ") || $0.isEmpty }
        return block.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// The outputs a `slicevid make` line names with `-o` (options after the path dropped).
    static func outputs(of line: String) -> [String] {
        line.matches(of: /(?:^|\s)-o\s+(\S+)/).map { match in
            let path = String(match.output.1)
            // `12:30.mp4` never appears in the docs; a colon there starts the options.
            return path.split(separator: ":").first.map(String.init) ?? path
        }.filter { $0 != "-" && $0 != "null" }
    }

    @Test("the README's Slurm recipe is examples/slurm/campaign.sbatch, character for character, the file make cluster-check submits")
    func slurmRecipeIsTheFile() throws {
        let name = "examples/slurm/campaign.sbatch"
        let page = try DocPage(path: "README.md")
        let block = try #require(page.blocks.first { $0.marker == .file(name) }, "README.md shows no block marked <!-- test: file \(name) -->")
        let mismatch = DocPage.mismatch(block, repositoryFile: name)
        #expect(mismatch == nil, "\(page.place(block.line)): \(mismatch ?? "")")
        let check = try String(contentsOfFile: DocPage.root + "/packaging/cluster-check.sh", encoding: .utf8)
        #expect(check.contains("recipe=$here/\(name)\n") && check.contains(" \"$recipe\"\n"), "cluster-check.sh no longer submits \(name) itself")
    }

    @Test("the Use block, then the rest of the README, runs top to bottom in a folder holding only examples/")
    func useBlockRuns() throws {
        let lines = try Self.useBlock()
        #expect(lines.count >= 10, "\(lines)")
        // It starts from nothing: the first render uses the built-in demo cards.
        #expect(lines.first { $0.hasPrefix("slicevid make") }?.hasPrefix("slicevid make --preset ") == true, "\(lines)")
        // No line writes an output another line already wrote (that would need --force).
        let written = lines.filter { !$0.contains("--dry-run") }.flatMap(Self.outputs)
        #expect(written.count == Set(written).count, "an output is written twice: \(written)")
        // The block the docs tests see under "## Use" is that block, and it is run.
        let page = try DocPage(path: "README.md")
        let heading = try #require(page.lines.firstIndex(of: "## Use"))
        let block = try #require(page.blocks.first { $0.line > heading + 1 })
        #expect(!block.fenced && block.marker == .run && DocPage.commands(of: block) == lines, "\(block)")
        try withScratchFolder { folder in
            // A checkout's examples/ (the feed tour uses them).
            try DocPage.copyExamples(into: folder)
            try page.run(in: folder)
        }
    }
}
