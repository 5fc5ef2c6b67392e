// The library as a Swift program outside the package sees it: only `import Slicevid`, only
// public API, used the way a service embeds it — async calls, events as an AsyncSequence, Task
// cancellation, several calls at once — and a batch through the library and through the
// command line taking the same lock, writing the same report and telling the same events.

import Foundation
import Slicevid
import Synchronization
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

    @Test("outputs are typed values from the request to the report: a file, a sequence's pattern, nothing")
    func typedDestinations() throws {
        let folder = try Scratch()
        defer { folder.remove() }
        var encoder = EncoderSettings()
        try encoder.set(.encoderPreset, to: "ultrafast")
        let frames = try Output.file(folder.path + "/frames/%03d.png")
        let pattern = try #require(FramePattern(folder.path + "/frames/%03d.png"))
        // A file named like a pattern is the sequence, parsed once; a file named "-" is a file,
        // never standard output.
        #expect(frames.destination == .frames(pattern) && frames.destination.path == folder.path + "/frames/%03d.png")
        #expect(throws: SlicevidError.self) { _ = try Output.file("-") }
        #expect(FramePattern("poster.png") == nil && FramePattern("a%d/b.png") == nil)
        let outputs = [try Output.file(folder.path + "/clip.mp4"), frames, try Output(.discard)]
        let request = try MakeRequest(outputs: outputs, spec: try Self.tinySpec(), encoder: encoder, renderThreads: 2)
        let plan = try Slicevid.plan(request)
        #expect(plan.destinations == outputs.map(\.destination))
        let told = Mutex<[Output.Destination]>([])
        let report = try Slicevid.make(request) { event in if case .started(_, let destinations) = event { told.withLock { $0 = destinations } } }
        #expect(report.outputs == outputs.map(\.destination) && told.withLock { $0 } == report.outputs)
        #expect(report.written.map(\.destination) == [.file(folder.path + "/clip.mp4"), .frames(pattern)])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path + "/frames").sorted() == (0..<6).map { String(format: "%03d.png", $0) })
    }

    @Test("calls run side by side, and cancelling a Task stops its render alone, leaving nothing")
    func concurrentCallsAndCancellation() async throws {
        let folder = try Scratch()
        defer { folder.remove() }
        let spec = try Self.tinySpec()
        // Hours of 720p at 240 fps: it can only end by being cancelled, however late a busy
        // test runner gets round to the Task that cancels it.
        var endless = spec
        for (field, value) in [(SpecField.duration, "3600"), (.fps, "240"), (.size, "1280x720")] { try endless.set(field, to: value) }
        var fast = EncoderSettings()
        fast.preset = "ultrafast"
        let first = try MakeRequest(outputs: [try .file(folder.path + "/a.mp4")], spec: spec, renderThreads: 1)
        let second = try MakeRequest(outputs: [try .file(folder.path + "/b.webm")], spec: spec, renderThreads: 1)

        // The Task iterating a run's events is cancelled: the run stops.
        let iterated = Slicevid.start(try MakeRequest(outputs: [try .file(folder.path + "/iterated.mp4")], spec: endless, encoder: fast,
                                                      renderThreads: 1))
        let listener = Task { for await _ in iterated {} }
        listener.cancel()
        // A Task awaiting a render is cancelled: the render stops.
        let awaiting = Task { try await Slicevid.make(try MakeRequest(outputs: [try .file(folder.path + "/awaited.mp4")], spec: endless,
                                                                      encoder: fast, renderThreads: 1)) }
        awaiting.cancel()

        async let a = Slicevid.make(first)
        async let b = Slicevid.make(second)
        let (made, other) = try await (a, b)
        #expect(made.frames == 6 && other.frames == 6)
        await listener.value
        var outcomes: [Result<MakeReport, any Error>] = [await awaiting.result]
        do throws(SlicevidError) {
            outcomes.append(.success(try await iterated.report))
        } catch {
            outcomes.append(.failure(error))
        }
        for outcome in outcomes {
            // Stopped by its caller, and said so: no signal was sent, so none is named.
            guard case .failure(let error as SlicevidError) = outcome, error.category == .cancelled else {
                Issue.record("a cancelled render did not stop as cancelled: \(outcome)")
                continue
            }
            #expect(error.message == "cancelled by the caller; no output was written", "\(error.message)")
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(left == ["a.mp4", "b.webm"], "\(left)")
    }

    @Test("the effect and the encoding are set through typed values, not strings")
    func typedSettings() async throws {
        let folder = try Scratch()
        defer { folder.remove() }
        var spec = try Self.tinySpec()
        spec.easing = try Easing(parsing: "ease-out-bounce")
        spec.direction = .horizontal
        spec.fit = .contain
        spec.focus = try #require(Focus(x: 0.25, y: 0.75))
        spec.background = try #require(RGBAColor(hex: "#102030"))
        spec.division = .width(pixels: 8)
        var encoder = EncoderSettings()
        encoder.crf = 30
        encoder.preset = "ultrafast"
        var poster = EncoderSettings()
        poster.sheet = nil
        poster.posterTime = 0
        let report = try await Slicevid.make(try MakeRequest(outputs: [try .file(folder.path + "/a.mp4"), try .file(folder.path + "/p.png", settings: poster)],
                                                           spec: spec, encoder: encoder))
        #expect(report.frames == 6 && report.written.count == 2)
        // The same request in the words of flags plans alike: the typed fields are those.
        var words = try Self.tinySpec()
        for (field, value) in [(SpecField.easing, "ease-out-bounce"), (.direction, "horizontal"), (.fit, "contain"), (.focus, "0.25,0.75"),
                               (.background, "#102030"), (.slices, "8px")] {
            try words.set(field, to: value)
        }
        #expect(words == spec)
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

    @Test("a batch its caller cancels reports the cancellation, never a signal nobody sent")
    func cancelledBatch() throws {
        let folder = try Scratch()
        defer { folder.remove() }
        let manifest = try folder.campaign()
        let cancellation = Cancellation()
        // Cancelled as the first job starts rendering: that job stops, the second never starts.
        let report = try Slicevid.batch(try BatchRequest(manifest: try Slicevid.manifest(at: manifest), parallel: 1,
                                                         reportFile: folder.path + "/r.json"), cancellation: cancellation) { event in
            if case .jobRendering = event { cancellation.cancel() }
        }
        #expect(report.outcome == .cancelled && report.signal == nil && report.isCancelled)
        #expect(report.jobs.map(\.status) == [.interrupted, .pending])
        #expect(report.jobs[0].error == "cancelled by the caller; no output was written", "\(report.jobs[0].error ?? "")")
        #expect(report.jobs[1].error == "not started: the run was cancelled by the caller", "\(report.jobs[1].error ?? "")")
        let file = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder.path + "/r.json"))) as? [String: Any])
        #expect(file["status"] as? String == "interrupted" && file["signal"] is NSNull, "\(file)")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/a.png"))
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

extension LibraryTests {
    /// In a process of its own: this test process is shared with the CLI's tests, which set a
    /// decode helper for themselves.
    @Test("an SVG is refused as unavailable in one line until a decode helper is set up; then it renders")
    func decodeHelper() async {
        await #expect(processExitsWith: .success) {
            let folder = try! Scratch()
            defer { folder.remove() }
            let svg = folder.path + "/card.svg"
            try! "<svg xmlns='http://www.w3.org/2000/svg' width='64' height='36'><rect width='64' height='36' fill='#c33'/></svg>"
                .write(toFile: svg, atomically: true, encoding: .utf8)
            let request = try! MakeRequest(stills: .pair(from: svg, to: svg), outputs: [try! .file(folder.path + "/clip.mp4")],
                                           spec: try! Self.tinySpec())
            guard Slicevid.decodeHelper == nil else { exit(2) }
            do throws(SlicevidError) {
                _ = try Slicevid.make(request)
                exit(3)  // decoded in this process
            } catch {
                guard error.category == .unavailable, !error.message.contains("\n"), error.message.hasPrefix(svg + ": is SVG"),
                      error.message.contains("Slicevid.decodeHelper") else { exit(4) }
            }
            Slicevid.decodeHelper = Scratch.binary
            guard (try? Slicevid.make(request))?.frames == 6 else { exit(5) }
        }
    }

    /// In a process of its own, as a service embedding slicevid: its standard error stays its
    /// own while slicevid decodes a JPEG XL still (libjxl prints to descriptor 2, so slicevid
    /// once pointed that descriptor at /dev/null for the length of a decode).
    @Test("an embedding program's standard error survives a JPEG XL decode", .enabled(if: Scratch.ffmpegWritesJPEGXL))
    func stderrSurvivesJPEGXL() async {
        await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let folder = try! Scratch()
            defer { folder.remove() }
            for (name, colour) in [("a", "red"), ("b", "blue")] {
                let made = try! folder.run("/usr/bin/ffmpeg", ["-loglevel", "error", "-f", "lavfi", "-i", "color=\(colour):s=64x36",
                                                                "-frames:v", "1", folder.path + "/\(name).jxl"])
                guard made == 0 else { exit(2) }
            }
            Slicevid.decodeHelper = Scratch.binary
            // The service logs from a thread of its own while slicevid decodes and renders, and
            // watches where its descriptor 2 points.
            let running = Atomic<Bool>(true), written = Atomic<Int>(0), silenced = Atomic<Bool>(false)
            let logger = Thread {
                while running.load(ordering: .relaxed) {
                    if (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/2")) == "/dev/null" {
                        silenced.store(true, ordering: .relaxed)
                    }
                    FileHandle.standardError.write(Data("service log line\n".utf8))
                    written.add(1, ordering: .relaxed)
                }
            }
            logger.start()
            let request = try! MakeRequest(stills: .pair(from: folder.path + "/a.jxl", to: folder.path + "/b.jxl"),
                                           outputs: [try! .file(folder.path + "/clip.mp4")], spec: try! Self.tinySpec())
            let frames = (try? Slicevid.make(request))?.frames
            running.store(false, ordering: .relaxed)
            while !logger.isFinished { sched_yield() }
            FileHandle.standardError.write(Data("written \(written.load(ordering: .relaxed))\n".utf8))
            guard frames == 6 else { exit(3) }
            guard !silenced.load(ordering: .relaxed) else { exit(4) }
        }.map { result in
            // Every line the service wrote arrived.
            let text = String(decoding: result.standardErrorContent, as: UTF8.self)
            let arrived = text.components(separatedBy: "service log line\n").count - 1
            let claimed = text.split(separator: "\n").last.flatMap { $0.hasPrefix("written ") ? Int($0.dropFirst(8)) : nil }
            #expect(claimed != nil && arrived == claimed, "wrote \(claimed ?? -1) lines, \(arrived) arrived")
        }
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

    /// Whether the ffmpeg CLI here writes JPEG XL (libjxl), to make the stills a test needs.
    static var ffmpegWritesJPEGXL: Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        process.arguments = ["-hide_banner", "-h", "encoder=libjxl"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text.contains("libjxl")
    }

    /// Runs `executable` with `arguments` here; its exit status.
    func run(_ executable: String, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: path)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
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
