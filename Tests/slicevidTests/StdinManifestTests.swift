// `slicevid batch -` reads the manifest from standard input: relative paths resolve against the
// working folder, errors name `stdin`, the lock is `.stdin.lock` in the working folder, and the
// report names the manifest `-`.

import Foundation
import Testing

@Suite("batch - (manifest on stdin)", .serialized)
struct StdinManifestTests {
    /// Runs `slicevid arguments` in `folder` with `input` on its standard input.
    private func run(_ arguments: [String], input: String, in folder: String) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try CLI.binary())
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        let stdin = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardError = stderr
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        try stdin.fileHandleForWriting.write(contentsOf: Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let errors = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: errors, as: UTF8.self))
    }

    private func manifest(_ jobs: [[String: Any]]) throws -> String {
        let defaults: [String: Any] = ["size": "64x36", "fps": 10, "hold": 0.2, "duration": 0.3, "slices": 8, "encoder-preset": "ultrafast"]
        return String(decoding: try JSONSerialization.data(withJSONObject: ["defaults": defaults, "jobs": jobs]), as: UTF8.self)
    }

    @Test("paths resolve against the working folder and the lock and report say stdin")
    func rendersFromTheWorkingFolder() throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        let text = try manifest([["id": "piped", "images": ["s0.png", "s1.png"], "outputs": ["piped/{id}.mp4"]]])
        let result = try run(["batch", "-", "--report", "report.json"], input: text, in: folder.path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FileManager.default.attributesOfItem(atPath: folder.path + "/piped/piped.mp4")[.size] as? Int ?? 0 > 0)
        #expect(FileManager.default.fileExists(atPath: folder.path + "/.stdin.lock"), "the lock lives in the working folder")
        let report = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder.path + "/report.json"))) as? [String: Any])
        #expect(report["manifest"] as? String == "-")
        #expect(result.stderr.contains("slicevid: batch stdin: 1 job"), "\(result.stderr)")
        #expect(result.stderr.contains("slicevid: [1/1] piped: created folder \(folder.path)/piped\n"), "\(result.stderr)")
        // Piped again, it is up to date like any manifest.
        let again = try run(["batch", "-"], input: text, in: folder.path)
        #expect(again.status == 0 && again.stderr.contains("piped: up to date, skipped"), "\(again.stderr)")
        let plan = try run(["batch", "-", "--plan"], input: text, in: folder.path)
        #expect(plan.status == 0 && plan.stderr.contains("slicevid: stdin: job 'piped': up to date"), "\(plan.stderr)")
    }

    @Test("a bad manifest on stdin is refused naming stdin")
    func badManifest() throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        let broken = try run(["batch", "-"], input: "{\"jobs\": [}", in: folder.path)
        #expect(broken.status == 64 && broken.stderr.hasPrefix("slicevid: error: stdin: line 1, column 11: "), "\(broken.stderr)")
        let empty = try run(["batch", "-"], input: "", in: folder.path)
        #expect(empty.status == 64 && empty.stderr.hasPrefix("slicevid: error: stdin: "), "\(empty.stderr)")
        let job = try run(["batch", "-"], input: try manifest([["id": "x", "images": ["s0.png"], "outputs": "x.mp4"]]), in: folder.path)
        #expect(job.status == 64 && job.stderr.hasPrefix("slicevid: error: stdin: job 'x': images: has 1 image"), "\(job.stderr)")
    }
}
