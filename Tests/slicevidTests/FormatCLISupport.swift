// Runs the built `slicevid` binary for the format, probe and dry-run tests: a subprocess in a
// scratch folder, with its status, stdout and stderr.

import Foundation
import SliceMedia
import Testing

/// What one run of the binary did.
struct FormatRun: CustomStringConvertible {
    var status: Int32
    var stdout: String
    var stderr: String
    var description: String { "status \(status), stderr: \(stderr.debugDescription)" }
    /// Whether stderr is exactly one line, as every error report must be.
    var stderrIsOneLine: Bool { stderr.hasSuffix("\n") && !stderr.dropLast().contains("\n") }
}

enum FormatCLI {
    /// Flags for a tiny clip: 64x36, 10 fps, 0.2 s hold, 0.3 s move (6 frames), fastest encoders.
    static let tiny = ["--size", "64x36", "--fps", "10", "--hold", "0.2", "--duration", "0.3", "--slices", "16",
                       "--encoder-preset", "ultrafast"]

    /// `slicevid` beside the test executable (SwiftPM builds both into the same folder).
    static func binary() throws -> String {
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let candidate = URL(fileURLWithPath: executable).deletingLastPathComponent().path + "/slicevid"
        guard FileManager.default.isExecutableFile(atPath: candidate) else {
            throw FormatCLIError("no slicevid binary at \(candidate); build with: swift build --build-tests")
        }
        return candidate
    }

    /// Runs `slicevid arguments` in `folder`; stdout goes to `stdoutPath` when given (e.g. /dev/full).
    static func run(_ arguments: [String], in folder: String, stdoutPath: String? = nil) throws -> FormatRun {
        let logs = folder + "/../" + ".logs-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: logs, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: logs) }
        FileManager.default.createFile(atPath: logs + "/out", contents: nil)
        FileManager.default.createFile(atPath: logs + "/err", contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try binary())
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        process.standardInput = FileHandle.nullDevice
        guard let out = FileHandle(forWritingAtPath: stdoutPath ?? logs + "/out"),
              let err = FileHandle(forWritingAtPath: logs + "/err") else { throw FormatCLIError("cannot open the logs") }
        defer { try? out.close(); try? err.close() }
        process.standardOutput = out
        process.standardError = err
        try process.run()
        process.waitUntilExit()
        return FormatRun(status: process.terminationStatus,
                         stdout: stdoutPath == nil ? (try String(contentsOfFile: logs + "/out", encoding: .utf8)) : "",
                         stderr: try String(contentsOfFile: logs + "/err", encoding: .utf8))
    }

    /// Runs `body` in a fresh folder (inside a parent that also holds the logs), removed afterwards.
    static func inScratch<R>(_ body: (String) throws -> R) throws -> R {
        FFmpegLog.configure(verbose: false)
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("slicevid-formats-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: parent + "/work", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: parent) }
        return try body(parent + "/work")
    }

    /// Every file under `folder` with its bytes, hidden ones included.
    static func snapshot(_ folder: String) -> [String: Data] {
        var files: [String: Data] = [:]
        for sub in (try? FileManager.default.subpathsOfDirectory(atPath: folder)) ?? [] {
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: folder + "/" + sub, isDirectory: &isFolder)
            files[sub] = isFolder.boolValue ? Data("folder".utf8) : FileManager.default.contents(atPath: folder + "/" + sub)
        }
        return files
    }

    /// `key=value` pairs of a probe or dry-run line (after `PATH: `), quotes removed.
    static func fields(_ line: Substring) -> [String: String] {
        guard let colon = line.range(of: ": ") else { return [:] }
        var fields: [String: String] = [:]
        var rest = line[colon.upperBound...]
        while let equals = rest.firstIndex(of: "=") {
            let key = String(rest[..<equals]).trimmingCharacters(in: .whitespaces)
            rest = rest[rest.index(after: equals)...]
            let value: Substring
            if rest.first == "\"", let close = rest.dropFirst().firstIndex(of: "\"") {
                value = rest[rest.index(after: rest.startIndex)..<close]
                rest = rest[rest.index(after: close)...]
            } else {
                let end = rest.firstIndex(of: " ") ?? rest.endIndex
                value = rest[..<end]
                rest = rest[end...]
            }
            fields[key] = String(value)
        }
        return fields
    }
}

struct FormatCLIError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
