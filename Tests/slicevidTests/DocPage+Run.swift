// Running a documentation page as a reader would paste it: its `run` blocks line by line in a
// scratch folder, its `file` blocks written there, its `keys in` blocks compared with what the
// commands wrote.

import Foundation
import SliceCampaign
import Testing

extension DocPage {
    /// The environment a page's commands run in: the built slicevid first on PATH, the scratch
    /// folder as HOME, an editor that returns at once, and nothing a scheduler (every variable
    /// `--shard auto` reads) or a user's preset folder would add.
    static func environment(home: String) throws -> [String: String?] {
        let binaryFolder = URL(fileURLWithPath: try CLI.binary()).deletingLastPathComponent().path
        var environment: [String: String?] = ["PATH": binaryFolder + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
                                              "HOME": home, "EDITOR": "true", "SLICEVID_PRESETS": nil]
        for scheduler in Shard.schedulers {
            for variable in [scheduler.index, scheduler.count, scheduler.bounds?.first, scheduler.bounds?.last].compactMap({ $0 }) {
                environment[variable] = .some(nil)
            }
        }
        return environment
    }

    /// The commands of a `run` block: one per line, a line ending in `\` joined with the next,
    /// blank lines and comment lines left out.
    static func commands(of block: Block) -> [String] { numberedCommands(of: block).map(\.command) }

    /// The commands of a `run` block, each with the page line it starts on.
    static func numberedCommands(of block: Block) -> [(line: Int, command: String)] {
        var commands: [(line: Int, command: String)] = []
        var current = "", start = 0
        // A fenced block's first line is the one after its fence.
        let first = block.line + (block.fenced ? 1 : 0)
        for (offset, line) in block.lines.enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if current.isEmpty { start = first + offset }
            if trimmed.hasSuffix("\\") {
                current += trimmed.dropLast() + " "
                continue
            }
            current += trimmed
            if !current.isEmpty, !current.hasPrefix("#") { commands.append((start, current)) }
            current = ""
        }
        return commands
    }

    /// The exit code a command's comment promises (`# refused (exit 64)`); 0 without one.
    static func expectedStatus(of command: String) -> Int32 {
        command.firstMatch(of: /\(exit (\d+)\)\s*$/).flatMap { Int32($0.output.1) } ?? 0
    }

    /// Every key path of a JSON value: `jobs[].outputs[].fps` for a key inside an array.
    static func keyPaths(_ value: Any, under prefix: String = "") -> Set<String> {
        if let object = value as? [String: Any] {
            return object.reduce(into: Set<String>()) { paths, entry in
                let path = prefix.isEmpty ? entry.key : prefix + "." + entry.key
                paths.insert(path)
                paths.formUnion(keyPaths(entry.value, under: path))
            }
        }
        if let array = value as? [Any] {
            return array.reduce(into: Set<String>()) { $0.formUnion(keyPaths($1, under: prefix + "[]")) }
        }
        return []
    }

    /// Whether `tool` is a program on this machine's PATH.
    static func isInstalled(_ tool: String) -> Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").contains { folder in
            FileManager.default.isExecutableFile(atPath: "\(folder)/\(tool)")
        }
    }

    /// Runs the page's blocks from `first` on, top to bottom, in `folder`, recording an issue
    /// for every command that does not exit as promised and every file it should have written
    /// and did not. Stops at the first command that fails, as a reader pasting the page would.
    /// - Returns: the `run if TOOL` blocks not run because their tool is missing, each named by
    ///   its place and the tool.
    @discardableResult
    func run(in folder: String, from first: Int = 0) throws -> [String] {
        let environment = try Self.environment(home: folder)
        var skipped: [String] = []
        for block in blocks[first...] {
            switch block.marker {
            case .file(let name)?:
                // That a block of `examples/…` is the repository's file is checked without running
                // the page (DocsTests.examplesShownAreTheFiles).
                let target = folder + "/" + name
                if block.language == "json" {
                    _ = try #require(try? JSONSerialization.jsonObject(with: Data(block.text.utf8)),
                                     "\(place(block.line)): the JSON block for \(name) does not parse")
                }
                try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent,
                                                        withIntermediateDirectories: true)
                try writeFile(target, Data(block.text.utf8))
            case .keysIn(let name)?:
                let shown = try JSONSerialization.jsonObject(with: Data(block.text.utf8))
                let written = try #require(FileManager.default.contents(atPath: folder + "/" + name),
                                           "\(place(block.line)): no \(name) was written before this block")
                let missing = Self.keyPaths(shown).subtracting(Self.keyPaths(try JSONSerialization.jsonObject(with: written)))
                #expect(missing.isEmpty, "\(place(block.line)): keys shown that \(name) does not have: \(missing.sorted())")
            case .run?:
                for (line, command) in Self.numberedCommands(of: block) {
                    guard try run(command, in: folder, environment: environment, line: line) else { return skipped }
                }
            case .runIf(let tool)?:
                guard Self.isInstalled(tool) else {
                    skipped.append("\(place(block.line)) needs \(tool), which is not installed")
                    continue
                }
                for (line, command) in Self.numberedCommands(of: block) {
                    guard try run(command, in: folder, environment: environment, line: line) else { return skipped }
                }
            case .skip?, nil:
                break
            }
        }
        return skipped
    }

    /// Runs one command; returns whether it exited as its comment promises.
    private func run(_ command: String, in folder: String, environment: [String: String?], line: Int) throws -> Bool {
        let result = try CLI.run(["--norc", "--noprofile", "-o", "pipefail", "-c", command], in: folder,
                                 executable: "/bin/bash", timeout: 300, environment: environment)
        let expected = Self.expectedStatus(of: command)
        #expect(result.status == expected && !result.signalled,
                "\(place(line)): `\(command)` exited \(result.status), not \(expected)\n\(result.stderr)")
        guard result.status == expected else { return false }
        guard expected == 0, command.contains("slicevid make") else { return true }
        for output in ReadmeTests.outputs(of: command) {
            let target = folder + "/" + output
            if command.contains("--dry-run") {
                #expect(!FileManager.default.fileExists(atPath: target), "\(place(line)): --dry-run wrote \(output)")
            } else if output.contains("%") {
                let sequence = (target as NSString).deletingLastPathComponent
                let files = (try? FileManager.default.contentsOfDirectory(atPath: sequence)) ?? []
                #expect(files.contains { $0.hasSuffix(".png") }, "\(place(line)): `\(command)` wrote no frames")
            } else {
                let size = (try? FileManager.default.attributesOfItem(atPath: target)[.size] as? Int) ?? 0
                #expect(size > 0, "\(place(line)): `\(command)` did not write \(output)")
            }
        }
        return true
    }
}
