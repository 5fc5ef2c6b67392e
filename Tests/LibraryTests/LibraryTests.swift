// The library as a Swift program outside the package sees it: only `import Slicevid`, only
// public API, used the way a service embeds it — async calls, events as an AsyncSequence, Task
// cancellation, several calls at once — and a batch through the library and through the
// command line taking the same lock, writing the same report and telling the same events.

import Foundation
import Slicevid
import Testing

@Suite("the Slicevid library")
struct LibraryTests {
    @Test("make renders the demo through the async API; its events arrive as a sequence")
    func make() async throws {
        let folder = try Scratch()
        defer { folder.remove() }
        var encoder = EncoderSettings()
        try encoder.set(.encoderPreset, to: "ultrafast")
        let request = try MakeRequest(outputs: [try .file(folder.path + "/clip.mp4"), try .file(folder.path + "/poster.png")],
                                      spec: try Self.tinySpec(), encoder: encoder, renderThreads: 2)
        let run = Slicevid.start(request)
        var started = 0, lastProgress = 0
        for await event in run {
            switch event {
            case .started: started += 1
            case .progress(let done, _): lastProgress = done
            default: break
            }
        }
        let report = try await run.report
        #expect(report.frames == 6 && report.written.map(\.path) == [folder.path + "/clip.mp4", folder.path + "/poster.png"])
        #expect(report.written[0].frames == 6 && report.written[1].frames == 1)
        for output in report.written {
            let size = try FileManager.default.attributesOfItem(atPath: output.path)[.size] as? Int
            #expect(size == output.bytes && output.bytes > 0, "\(output.path)")
        }
        #expect(started == 1 && lastProgress == 6)
    }

    @Test("calls run side by side, and cancelling one's Task stops it alone, leaving nothing")
    func concurrentCallsAndCancellation() async throws {
        let folder = try Scratch()
        defer { folder.remove() }
        let spec = try Self.tinySpec()
        // An hour at 60 fps: minutes of work, so it is still rendering when the test's Task,
        // however late the busy test runner schedules it, hears its first progress.
        var long = spec
        try long.set(.duration, to: "3600")
        try long.set(.fps, to: "60")
        let first = try MakeRequest(outputs: [try .file(folder.path + "/a.mp4")], spec: spec, renderThreads: 1)
        let second = try MakeRequest(outputs: [try .file(folder.path + "/b.webm")], spec: spec, renderThreads: 1)
        var fast = EncoderSettings()
        try fast.set(.encoderPreset, to: "ultrafast")
        let doomed = Slicevid.start(try MakeRequest(outputs: [try .file(folder.path + "/long.mp4")], spec: long, encoder: fast, renderThreads: 1))
        let stopping = Task {
            // Cancelled once the render is under way: the iteration's Task ending cancels it.
            for await event in doomed {
                if case .progress = event { withUnsafeCurrentTask { $0?.cancel() } }
            }
        }
        async let a = Slicevid.make(first)
        async let b = Slicevid.make(second)
        let (made, other) = try await (a, b)
        #expect(made.frames == 6 && other.frames == 6)
        await stopping.value
        do {
            _ = try await doomed.report
            Issue.record("a cancelled render finished")
        } catch {
            guard case .interrupted = error.category else { Issue.record("\(error)"); return }
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(left == ["a.mp4", "b.webm"], "\(left)")
    }

    @Test("errors carry the category that decides what to do, and name the setting without flags")
    func errors() async throws {
        var spec = TransitionSpec()
        #expect(throws: SpecError.self) { try spec.set(.fps, to: "0") }
        let request = try MakeRequest(stills: .pair(from: "/nonexistent/a.png", to: "/nonexistent/b.png"),
                                      outputs: [try .file("/nonexistent/out.mp4")], spec: spec)
        do {
            _ = try await Slicevid.make(request)
            Issue.record("a missing still was accepted")
        } catch {
            #expect(error.category == .inputMissing && error.message.contains("/nonexistent/a.png"), "\(error.message)")
        }
        // Built wrong, a request is refused at once, in the library's words rather than a flag's.
        let twice = try #require(throws: SlicevidError.self) {
            try MakeRequest(outputs: [try .file("/tmp/x.mp4"), try .file("/tmp/x.mp4")])
        }
        #expect(twice.category == .usage && twice.message == "output /tmp/x.mp4: given twice" && !twice.message.contains("-o"))
        let threads = try #require(throws: SlicevidError.self) { try MakeRequest(outputs: [try .file("/tmp/x.mp4")], renderThreads: 65) }
        #expect(threads.message == "the jobs option: 65 must be 1–64")
        #expect(throws: PresetError.self) { try Slicevid.preset("no-such-preset", environment: [:]) }
        #expect(Slicevid.builtInPresets.contains { $0.name == "spring" })
    }

    @Test("batch runs a manifest's jobs, writes its report and tells its events, as slicevid batch does")
    func batch() async throws {
        let folder = try Scratch()
        defer { folder.remove() }
        let manifest = try folder.campaign()
        let run = Slicevid.start(try BatchRequest(manifest: try Slicevid.manifest(at: manifest), reportFile: folder.path + "/library.json"))
        var finished: [String: JobStatus] = [:]
        var ended = 0
        for await event in run {
            if case .jobFinished(let result, _, _) = event { finished[result.id] = result.status }
            if case .finished = event { ended += 1 }
        }
        let report = try await run.report
        #expect(report.outcome == .success, "\(report.jobs.map { "\($0.id) \($0.status) \($0.error ?? "")" })")
        #expect(report.jobs.map(\.id) == ["a", "b"] && report.count(.rendered) == 2 && ended == 1)
        #expect(finished == ["a": .rendered, "b": .rendered] && report.reportFile == folder.path + "/library.json")

        // The command line on the same manifest: the same report (up to the clock) and the
        // same events, now that both runs find every job up to date.
        let cli = try folder.slicevid(["batch", manifest, "--report", folder.path + "/cli.json", "--log-format", "json"])
        #expect(cli.status == 0, "\(cli.stderr)")
        let again = try await Slicevid.batch(try BatchRequest(manifest: try Slicevid.manifest(at: manifest),
                                                              reportFile: folder.path + "/library.json"))
        #expect(again.count(.skipped) == 2)
        let (library, command) = (try Self.timeless(folder.path + "/library.json"), try Self.timeless(folder.path + "/cli.json"))
        #expect(library == command, "library: \(library)\ncli: \(command)")
        let cliFinished = cli.stderr.split(separator: "\n").compactMap { line -> (String, String)? in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  object["event"] as? String == "job-finished" else { return nil }
            return (object["job"] as? String ?? "", object["status"] as? String ?? "")
        }
        #expect(Dictionary(uniqueKeysWithValues: cliFinished) == ["a": "skipped", "b": "skipped"])
    }

    @Test("the library and the command line take the same lock: each is refused while the other renders")
    func sameLock() throws {
        let folder = try Scratch()
        defer { folder.remove() }
        let manifest = try folder.campaign()
        // The library holds the lock while its first event is being heard: the command line
        // meets it then, whatever the machine's speed.
        let heard = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let running = Thread {
            _ = try? Slicevid.batch(try BatchRequest(manifest: try Slicevid.manifest(at: manifest), force: true)) { event in
                if case .started = event {
                    heard.signal()
                    release.wait()
                }
            }
            heard.signal()
        }
        running.start()
        heard.wait()
        let refused = try folder.slicevid(["batch", manifest])
        release.signal()
        heard.wait()
        #expect(refused.status == 75 && refused.stderr.contains("is rendering it"), "\(refused.stderr)")

        // The command line frozen mid-run: the library is refused with .busy.
        let process = try folder.start(["batch", manifest, "--force", "--log-format", "json"])
        try folder.waitForLine(process, containing: "\"batch-started\"")
        kill(process.processIdentifier, SIGSTOP)
        defer {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        do {
            _ = try Slicevid.batch(try BatchRequest(manifest: try Slicevid.manifest(at: manifest)))
            Issue.record("the library ran while the command line held the lock")
        } catch {
            #expect(error.category == .busy, "\(error)")
        }
    }

    /// A report without what depends on the clock.
    static func timeless(_ path: String) throws -> NSDictionary {
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        object["started"] = nil
        object["seconds"] = nil
        object["jobs"] = (object["jobs"] as? [[String: Any]])?.map { job in job.filter { $0.key != "seconds" } }
        return object as NSDictionary
    }

    /// The spring preset at 64x36, 10 fps: six frames.
    static func tinySpec() throws -> TransitionSpec {
        var spec = try Slicevid.preset("spring").spec
        for (field, value) in [(SpecField.size, "64x36"), (.fps, "10"), (.hold, "0.2"), (.duration, "0.3"), (.slices, "16")] {
            try spec.set(field, to: value)
        }
        return spec
    }
}

/// A folder of the test's own, and the built `slicevid` to run in it.
struct Scratch {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "slicevid-library-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }

    /// A two-job manifest over the demo's first and last frames, made through the library.
    func campaign() throws -> String {
        var first = EncoderSettings()
        try first.set(.posterAt, to: "0")
        let spec = try LibraryTests.tinySpec()
        _ = try Slicevid.make(try MakeRequest(outputs: [try .file(path + "/s0.png")], spec: spec, encoder: first))
        _ = try Slicevid.make(try MakeRequest(outputs: [try .file(path + "/s1.png")], spec: spec))
        let manifest = """
            {"defaults": {"size": "64x36", "fps": 10, "hold": 0.2, "duration": 0.3, "slices": 16},
             "jobs": [{"id": "a", "images": ["s0.png", "s1.png"], "outputs": ["a.png"]},
                      {"id": "b", "images": ["s1.png", "s0.png"], "outputs": ["b.png"]}]}
            """
        try manifest.write(toFile: path + "/m.json", atomically: true, encoding: .utf8)
        return path + "/m.json"
    }

    /// The debug build's binary, beside this test bundle.
    static var binary: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../.build/debug/slicevid")
            .standardizedFileURL.path
    }

    /// Starts `slicevid arguments` here, its stderr piped.
    func start(_ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Scratch.binary)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: path)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = Pipe()
        try process.run()
        return process
    }

    /// Runs `slicevid arguments` here to its end.
    func slicevid(_ arguments: [String]) throws -> (status: Int32, stderr: String) {
        let process = try start(arguments)
        let error = (process.standardError as! Pipe).fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: error, as: UTF8.self))
    }

    /// Reads `process`'s stderr until a line holding `text` has come.
    func waitForLine(_ process: Process, containing text: String) throws {
        let reader = (process.standardError as! Pipe).fileHandleForReading
        var seen = ""
        while !seen.contains(text) {
            let chunk = reader.availableData
            guard !chunk.isEmpty else { throw CancellationError() }
            seen += String(decoding: chunk, as: UTF8.self)
        }
    }
}
