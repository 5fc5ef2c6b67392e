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
        let request = try MakeRequest(outputs: [try .file(folder + "/clip.mp4"), try .file(folder + "/poster.png")], spec: spec, encoder: encoder,
                                      renderThreads: 2)
        let events = EventLog()
        let report = try Slicevid.make(request) { events.append($0) }

        #expect(report.frames == 6 && report.written.map(\.path) == [folder + "/clip.mp4", folder + "/poster.png"])
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
        let request = try MakeRequest(stills: .pair(from: "/nonexistent/a.png", to: "/nonexistent/b.png"), outputs: [try .file("/nonexistent/out.mp4")],
                                      spec: spec)
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
        _ = try Slicevid.make(try MakeRequest(outputs: [try .file(folder + "/s0.png")], spec: try Self.tinySpec(), encoder: first))
        _ = try Slicevid.make(try MakeRequest(outputs: [try .file(folder + "/s1.png")], spec: try Self.tinySpec()))
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
