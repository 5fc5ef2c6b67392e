// The bed through `make` and manifests: damaged, missing or unusable songs refused with their
// codes before anything renders, outputs without audio rendered and named once, manifests'
// `audio` layered like every other setting, and the bed's bytes and settings in the fingerprint.

import Foundation
import ScratchFixtures
import SliceKit
import SliceMedia
import Synchronization
import Testing
@testable import SliceCampaign
@testable import SlicePipeline

@Suite("MakeJob audio")
struct MakeJobAudioTests {
    /// A 16-bit stereo PCM WAV of `seconds` of a quiet sine, written byte by byte.
    @discardableResult
    static func wav(_ path: String, seconds: Double = 2, rate: Int = 48_000) throws -> String {
        let frames = Int(seconds * Double(rate))
        var data = Data()
        func le<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        data.append(contentsOf: "RIFF".utf8); le(UInt32(36 + frames * 4)); data.append(contentsOf: "WAVEfmt ".utf8)
        le(UInt32(16)); le(UInt16(1)); le(UInt16(2)); le(UInt32(rate)); le(UInt32(rate * 4)); le(UInt16(4)); le(UInt16(16))
        data.append(contentsOf: "data".utf8); le(UInt32(frames * 4))
        for i in 0..<frames {
            let sample = Int16(3000 * sin(Double(i) * 2 * .pi * 440 / Double(rate)))
            le(sample); le(sample)
        }
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }

    private func request(_ dir: String, audio: String?, outputs: [String] = ["a.mp4"]) throws -> MakeRequest {
        var request = try MakeRequest.parsing(spec: try MakeJobOutputsTests.tinySpec(), outputs: outputs.map { "\(dir)/\($0)" },
                                  encoder: EncoderSettings(preset: "ultrafast"), jobs: 2)
        request.audio = AudioSettings(file: audio)
        return request
    }

    /// Runs `request`, returning the error's category and message and whether rendering began.
    private func refusal(_ request: MakeRequest) -> (SlicevidError.Category, String, Bool)? {
        let started = Atomic(false)
        do {
            _ = try MakeJob.run(request) { event in if case .started = event { started.store(true, ordering: .relaxed) } }
            return nil
        } catch {
            return (error.category, error.message, started.load(ordering: .relaxed))
        }
    }

    @Test("Bad songs are refused with their codes, naming the file, before anything renders, leaving nothing")
    func refusals() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let text = try scratch.text("notes.mp3", "not a song")
        let good = try Self.wav(scratch.path + "/good.wav")
        let truncated = try Self.wav(scratch.path + "/cut.wav")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: truncated))
        try bytes.prefix(bytes.count * 6 / 10 + 1).write(to: URL(fileURLWithPath: truncated))
        try FileManager.default.createDirectory(atPath: scratch.path + "/out", withIntermediateDirectories: true)
        let out = scratch.path + "/out"

        var late = try request(out, audio: good)
        late.audio.start = 5
        var twice = try request(out, audio: good)
        (twice.audio.loudness, twice.audio.volume) = (-14, -3)
        // A named pipe would block a reader forever: refused by what it is, without opening it to read.
        let fifo = scratch.path + "/pipe.mp3"
        try #require(mkfifo(fifo, 0o600) == 0)
        let cases: [(MakeRequest, SlicevidError.Category, String)] = [
            (try request(out, audio: scratch.path + "/none.mp3"), .inputMissing, "none.mp3"),
            (try request(out, audio: fifo), .inputMissing, "pipe.mp3: is a named pipe (FIFO)"),
            (try request(out, audio: text), .inputInvalid, "notes.mp3"),
            (try request(out, audio: truncated), .inputInvalid, "cut.wav"),
            (try request(out, audio: good + ":stream=3"), .inputInvalid, "good.wav"),
            (late, .usage, "audio-start 5 is past the end"),
            (twice, .usage, "loudness and volume"),
        ]
        for (request, category, named) in cases {
            var request = request
            if let file = request.audio.file, file.hasSuffix(":stream=3") { try request.audio.set(.audio, to: file) }
            let refused = refusal(request)
            #expect(refused?.0 == category, "\(named): \(String(describing: refused))")
            #expect(refused?.1.contains(named) == true, "\(String(describing: refused))")
            #expect(refused?.2 == false, "\(named): rendering began")
            #expect(scratch.files(in: "out").isEmpty, "\(named): \(scratch.files(in: "out"))")
        }
    }

    @Test("Outputs that carry no audio render without it and are named once; audio=none leaves one out")
    func withoutAudio() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let song = try Self.wav(scratch.path + "/song.wav")
        let told = Mutex<[[Output.Destination]]>([])
        let request = try request(scratch.path, audio: song, outputs: ["a.gif", "a.png", "a.mp4", "b.mp4:audio=none"])
        _ = try MakeJob.run(request) { event in if case .withoutAudio(let outputs) = event { told.withLock { $0.append(outputs) } } }
        #expect(told.withLock { $0 } == [[.file(scratch.path + "/a.gif"), .file(scratch.path + "/a.png")]])
        #expect(try MediaReader.info(path: scratch.path + "/a.mp4").audio?.codec == "aac")
        #expect(try MediaReader.info(path: scratch.path + "/b.mp4").audio == nil)
        #expect(try MediaReader.info(path: scratch.path + "/a.gif").audio == nil)
    }

    @Test("A manifest's audio is a path, none, or an object, layered over the defaults and checked by field")
    func manifests() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.still("a.png", index: 0)
        try scratch.still("b.png", index: 1)
        try Self.wav(scratch.path + "/song.wav")
        func load(_ defaults: Any?, _ jobs: [Any?]) throws(SlicevidError) -> Manifest {
            var top = tinyDefaults
            if let defaults { top["audio"] = defaults }
            let entries: [[String: Any]] = jobs.enumerated().map { index, audio in
                var job: [String: Any] = ["id": "j\(index)", "images": ["a.png", "b.png"], "outputs": ["j\(index).mp4"]]
                if let audio { job["audio"] = audio }
                return job
            }
            do {
                return try Manifest.load(path: scratch.json("m.json", ["defaults": top, "jobs": entries]), presets: testPresets)
            } catch let error as SlicevidError {
                throw error
            } catch {
                throw SlicevidError(.usage, "\(error)")
            }
        }
        let manifest = try load(["file": "song.wav", "fade-out": 1, "loudness": -16], [nil, ["start": 0.5, "loop": true], "none"])
        let jobs = manifest.jobs
        #expect(jobs[0].audio.file == scratch.path + "/song.wav" && jobs[0].audio.fadeOut == 1 && jobs[0].audio.loudness == -16)
        #expect(jobs[1].audio.file == jobs[0].audio.file && jobs[1].audio.start == 0.5 && jobs[1].audio.loop && jobs[1].audio.fadeOut == 1)
        #expect(jobs[2].audio.file == nil)
        for (bad, field) in [(["start": -1] as Any, "audio.start"), (["fade-in": "1"], "audio.fade-in"), (["sound": 1], "audio.sound"),
                             (["loop": 1], "audio.loop"), (3, "audio")] {
            #expect(throws: SlicevidError.self) { try load(nil, [bad]) }
            do {
                _ = try load(nil, [bad])
            } catch {
                #expect(error.category == .usage && error.message.contains(field), "\(error.message)")
            }
        }
    }

    @Test("The bed's bytes and every setting are in the fingerprint; no bed, no line")
    func fingerprint() throws {
        let sequence = SequenceSpec(base: TransitionSpec(), imageCount: 2)
        let plain = Fingerprint(sequence: sequence, imageHashes: ["aa", "bb"], version: "1")
        #expect(!plain.lines.contains { $0.hasPrefix("audio") })
        var settings = AudioSettings(file: "/x/song.mp3")
        let base = Fingerprint(sequence: sequence, imageHashes: ["aa", "bb"], version: "1", audio: (settings, "f00d")).value
        #expect(base != plain.value)
        var moved = settings
        moved.file = "/elsewhere/song.mp3"
        #expect(Fingerprint(sequence: sequence, imageHashes: ["aa", "bb"], version: "1", audio: (moved, "f00d")).value == base)
        var variants = [Fingerprint(sequence: sequence, imageHashes: ["aa", "bb"], version: "1", audio: (settings, "beef")).value]
        for change in [{ (s: inout AudioSettings) in s.start = 1 }, { $0.loop = true }, { $0.fadeIn = 1 }, { $0.fadeOut = 0 },
                       { $0.loudness = -14 }, { $0.volume = 2 }, { $0.stream = 1 }] {
            var changed = settings
            change(&changed)
            variants.append(Fingerprint(sequence: sequence, imageHashes: ["aa", "bb"], version: "1", audio: (changed, "f00d")).value)
        }
        #expect(Set(variants + [base]).count == variants.count + 1)
        settings.loop = false
    }
}
