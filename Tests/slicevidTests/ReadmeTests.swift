// The README's Use block is a tutorial a new user pastes line by line into an empty folder: each
// line must work after the ones before it, with the built slicevid on PATH.

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
            // `12:30.mp4` never appears in the README; a colon there starts the options.
            return path.split(separator: ":").first.map(String.init) ?? path
        }.filter { $0 != "-" && $0 != "null" }
    }

    @Test("the Use block runs top to bottom in an empty folder, every line exiting 0")
    func useBlockRuns() throws {
        let lines = try Self.useBlock()
        #expect(lines.count >= 10, "\(lines)")
        // It starts from nothing: the first render uses the built-in demo cards.
        #expect(lines.first { $0.hasPrefix("slicevid make") }?.hasPrefix("slicevid make --preset ") == true, "\(lines)")
        // No line writes an output another line already wrote (that would need --force).
        let written = lines.filter { !$0.contains("--dry-run") }.flatMap(Self.outputs)
        #expect(written.count == Set(written).count, "an output is written twice: \(written)")
        let binaryFolder = URL(fileURLWithPath: try CLI.binary()).deletingLastPathComponent().path
        let path = binaryFolder + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        try withScratchFolder { folder in
            for line in lines {
                let result = try CLI.run(["--norc", "--noprofile", "-o", "pipefail", "-c", line], in: folder, executable: "/bin/bash",
                                         timeout: 300, environment: ["PATH": path, "SLICEVID_PRESETS": nil])
                #expect(result.status == 0, "\(line)\n\(result)")
                guard result.status == 0 else { break }
                for output in Self.outputs(of: line) {
                    let target = folder + "/" + output
                    if line.contains("--dry-run") {
                        #expect(!FileManager.default.fileExists(atPath: target), "--dry-run wrote \(output)")
                    } else if output.contains("%") {
                        let sequence = (output as NSString).deletingLastPathComponent
                        let files = try FileManager.default.contentsOfDirectory(atPath: folder + "/" + sequence)
                        #expect(files.contains { $0.hasSuffix(".png") }, "\(line) wrote no frames")
                    } else {
                        let size = (try FileManager.default.attributesOfItem(atPath: target)[.size] as? Int) ?? 0
                        #expect(size > 0, "\(line) did not write \(output)")
                    }
                }
            }
        }
    }
}
