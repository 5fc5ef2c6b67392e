// The library as a Swift program outside the package sees it: only `import Slicevid`, only
// public API. A clip made through it is decoded (by the ffprobe-free route a client has: the
// written facts) and a preset and a batch run as the CLI's would.

import Foundation
import Slicevid
import Testing

@Suite("the Slicevid library")
struct LibraryTests {
    @Test("make renders the demo through the public API, reporting what it wrote")
    func make() throws {
        let folder = NSTemporaryDirectory() + "slicevid-library-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: folder) }

        let spec = try Self.tinySpec()
        var encoder = EncoderSettings()
        try encoder.set(.encoderPreset, to: "ultrafast")
        let request = MakeRequest(spec: spec, outputs: [folder + "/clip.mp4", folder + "/poster.png"], encoder: encoder, jobs: 2)
        let events = EventLog()
        let report = try Slicevid.make(request) { events.append($0) }

        #expect(report.frames == 6 && report.written.map(\.path) == request.outputs)
        #expect(report.written[0].frames == 6 && report.written[1].frames == 1)
        for output in report.written {
            let size = try FileManager.default.attributesOfItem(atPath: output.path)[.size] as? Int
            #expect(size == output.bytes && output.bytes > 0, "\(output.path)")
        }
        #expect(events.started == 1 && events.lastProgress == 6)
    }

    /// The spring preset at 64x36, 10 fps: six frames.
    static func tinySpec() throws -> TransitionSpec {
        var spec = try Slicevid.preset("spring").spec
        for (field, value) in [(SpecField.size, "64x36"), (.fps, "10"), (.hold, "0.2"), (.duration, "0.3"), (.slices, "16")] {
            try spec.set(field, to: value)
        }
        return spec
    }

    @Test("errors carry the category that decides what to do, and name the field")
    func errors() throws {
        var spec = TransitionSpec()
        #expect(throws: SpecError.self) { try spec.set(.fps, to: "0") }
        let request = MakeRequest(spec: spec, from: "/nonexistent/a.png", to: "/nonexistent/b.png", outputs: ["/nonexistent/out.mp4"])
        do {
            _ = try Slicevid.make(request)
            Issue.record("a missing still was accepted")
        } catch {
            #expect(error.category == .inputMissing && error.message.contains("/nonexistent/a.png"), "\(error.message)")
        }
        #expect(throws: PresetError.self) { try Slicevid.preset("no-such-preset", environment: [:]) }
        #expect(Slicevid.builtInPresets.contains { $0.name == "spring" })
    }

    @Test("batch runs a manifest's jobs and reports each")
    func batch() throws {
        let folder = NSTemporaryDirectory() + "slicevid-library-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // Two stills: the demo's first and last frames, as posters.
        var first = EncoderSettings()
        try first.set(.posterAt, to: "0")
        _ = try Slicevid.make(MakeRequest(spec: try Self.tinySpec(), outputs: [folder + "/s0.png"], encoder: first))
        _ = try Slicevid.make(MakeRequest(spec: try Self.tinySpec(), outputs: [folder + "/s1.png"]))
        let manifest = """
            {"defaults": {"size": "64x36", "fps": 10, "hold": 0.2, "duration": 0.3, "slices": 16},
             "jobs": [{"id": "a", "images": ["s0.png", "s1.png"], "outputs": ["a.png"]},
                      {"id": "b", "images": ["s1.png", "s0.png"], "outputs": ["b.png"]}]}
            """
        try manifest.write(toFile: folder + "/m.json", atomically: true, encoding: .utf8)
        let report = try Slicevid.batch(manifest: folder + "/m.json")
        #expect(report.outcome == .success, "\(report.jobs.map { "\($0.id) \($0.status) \($0.error ?? "")" })")
        #expect(report.jobs.map(\.id) == ["a", "b"] && report.count(.rendered) == 2)
        #expect(FileManager.default.fileExists(atPath: folder + "/a.png") && FileManager.default.fileExists(atPath: folder + "/b.png"))
        // A second run finds both up to date.
        #expect(try Slicevid.batch(manifest: folder + "/m.json").count(.skipped) == 2)
    }
}

extension LibraryTests {
    /// In a process of its own: this test process is shared with the CLI's tests, which set a
    /// decode helper for themselves.
    @Test("an SVG is refused as unavailable in one line until a decode helper is set up; then it renders")
    func decodeHelper() async {
        await #expect(processExitsWith: .success) {
            let folder = NSTemporaryDirectory() + "slicevid-library-\(UUID().uuidString)"
            try! FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let svg = folder + "/card.svg"
            try! "<svg xmlns='http://www.w3.org/2000/svg' width='64' height='36'><rect width='64' height='36' fill='#c33'/></svg>"
                .write(toFile: svg, atomically: true, encoding: .utf8)
            let request = MakeRequest(spec: try! Self.tinySpec(), from: svg, to: svg, outputs: [folder + "/clip.mp4"])
            guard Slicevid.decodeHelper == nil else { exit(2) }
            do throws(SlicevidError) {
                _ = try Slicevid.make(request)
                exit(3)  // decoded in this process
            } catch {
                guard error.category == .unavailable, !error.message.contains("\n"), error.message.hasPrefix(svg + ": is SVG"),
                      error.message.contains("Slicevid.decodeHelper") else { exit(4) }
            }
            // The slicevid built beside this test bundle.
            let bundle = try! FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
            Slicevid.decodeHelper = URL(fileURLWithPath: bundle).deletingLastPathComponent().appendingPathComponent("slicevid").path
            guard (try? Slicevid.make(request))?.frames == 6 else { exit(5) }
        }
    }
}

/// What a render told its caller.
final class EventLog: @unchecked Sendable {
    // @unchecked: every access holds `lock`.
    private let lock = NSLock()
    private var events: [MakeEvent] = []

    func append(_ event: MakeEvent) { lock.withLock { events.append(event) } }

    var started: Int { lock.withLock { events.filter { if case .started = $0 { true } else { false } }.count } }
    var lastProgress: Int? {
        lock.withLock { events.compactMap { if case .progress(let done, _) = $0 { done } else { nil } }.max() }
    }
}
