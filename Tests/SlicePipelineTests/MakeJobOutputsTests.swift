// One render, many outputs: the lossless ones hold identical frames, a failure part-way leaves
// nothing behind and old outputs untouched, and impossible requests are refused before anything
// is created.

import Foundation
import SliceKit
import SliceMedia
import Synchronization
import Testing
@testable import SlicePipeline

@Suite("MakeJob outputs")
struct MakeJobOutputsTests {
    /// A 64x36 clip: 0.2 s hold and a 0.4 s move at 10 fps is 7 frames.
    static func tinySpec(background: String = "#000000", fps: Int = 10, duration: Double = 0.4) throws -> TransitionSpec {
        var spec = TransitionSpec()
        spec.width = 64
        spec.height = 36
        spec.frameRate = FrameRate(fps)
        spec.hold = 0.2
        spec.duration = duration
        spec.strips = 16
        try spec.set(.background, to: background)
        return spec
    }

    static func folder() throws -> String {
        let path = NSTemporaryDirectory() + "slicevid-outputs-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path + "/seq", withIntermediateDirectories: true)
        return path
    }

    /// Every file under `folder` with its bytes (hidden ones included).
    static func snapshot(_ folder: String) -> [String: Data] {
        var files: [String: Data] = [:]
        for sub in (try? FileManager.default.subpathsOfDirectory(atPath: folder)) ?? [] {
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: folder + "/" + sub, isDirectory: &isFolder)
            if !isFolder.boolValue { files[sub] = FileManager.default.contents(atPath: folder + "/" + sub) }
        }
        return files
    }

    /// Mean absolute difference over every sample of two same-shaped images.
    static func meanError(_ a: PlanarImage, _ b: PlanarImage) -> Double {
        var total = 0, count = 0
        for (pa, pb) in zip(a.planes, b.planes) {
            for y in 0..<pa.height { for x in 0..<pa.width { total += abs(Int(pa.row(y)[x]) - Int(pb.row(y)[x])) } }
            count += pa.width * pa.height
        }
        return Double(total) / Double(count)
    }

    @Test("the fan-out writes identical frames to every lossless output, and the poster is the last")
    func fanOutIsIdentical() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let spec = try Self.tinySpec()
        let outputs = ["master.mkv", "seq/%03d.png", "promo.mp4", "promo.webm", "preview.gif", "poster.png"].map { "\(dir)/\($0)" }
        let report = try MakeJob.run(try .parsing(spec: spec, outputs: outputs, encoder: EncoderSettings(preset: "ultrafast"), jobs: 2))
        #expect(report.frames == 7)
        let master = try MediaReader.frames(path: "\(dir)/master.mkv", layout: .gbrp)
        let sequence = try MediaReader.frames(path: "\(dir)/seq/%03d.png", layout: .gbrp)
        #expect(master.count == 7 && sequence.count == 7)
        for (index, (a, b)) in zip(master, sequence).enumerated() {
            #expect(a.hasSamePixels(as: b), "frame \(index)")
        }
        let destination = DemoCards.destination(width: 64, height: 36).planar(.gbrp)
        #expect(sequence.last?.hasSamePixels(as: destination) == true)
        #expect(try MediaReader.frames(path: "\(dir)/poster.png", layout: .gbrp).first?.hasSamePixels(as: destination) == true)
        let mp4 = try MediaReader.frames(path: "\(dir)/promo.mp4", layout: .gbrp)
        let webm = try MediaReader.frames(path: "\(dir)/promo.webm", layout: .gbrp)
        #expect(mp4.count == 7 && webm.count == 7)
        for (lossy, exact) in zip(mp4 + webm, sequence + sequence) {
            let error = Self.meanError(lossy, exact)
            #expect(error < 8, "mean error \(error)")
        }
        let gif = try MediaReader.info(path: "\(dir)/preview.gif")
        #expect(gif.frameCount == 7 && gif.width == 64)
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: dir)) == ["master.mkv", "seq", "promo.mp4", "promo.webm", "preview.gif", "poster.png"])
    }

    @Test("a transparent background: gaps are transparent in every output that keeps alpha, identically")
    func transparentFanOut() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let spec = try Self.tinySpec(background: "transparent")
        let outputs = ["master.mkv", "seq/%03d.png", "overlay.webm", "overlay.mov", "overlay.gif"].map { "\(dir)/\($0)" }
        _ = try MakeJob.run(try .parsing(spec: spec, outputs: outputs, encoder: EncoderSettings(preset: "ultrafast"), jobs: 2))
        let master = try MediaReader.frames(path: "\(dir)/master.mkv", layout: .gbrap)
        let sequence = try MediaReader.frames(path: "\(dir)/seq/%03d.png", layout: .gbrap)
        #expect(master.count == 7)
        for (a, b) in zip(master, sequence) { #expect(a.hasSamePixels(as: b)) }
        // Mid-transition some pixels are gaps (alpha 0), the rest strips (alpha 255); nothing in between.
        let alpha = sequence[3].planes[3]
        var values = Set<UInt8>()
        for y in 0..<alpha.height { for x in 0..<alpha.width { values.insert(alpha.row(y)[x]) } }
        #expect(values == [0, 255])
        let webm = try MediaReader.info(path: "\(dir)/overlay.webm")
        #expect(webm.hasAlpha && webm.pixelFormat == "yuva420p")
        let webmAlpha = try MediaReader.frames(path: "\(dir)/overlay.webm", layout: .yuva420p)[3].planes[3]
        var agree = 0
        for y in 0..<alpha.height { for x in 0..<alpha.width where (webmAlpha.row(y)[x] >= 128) == (alpha.row(y)[x] >= 128) { agree += 1 } }
        #expect(Double(agree) / Double(alpha.width * alpha.height) > 0.97)
        #expect(try MediaReader.info(path: "\(dir)/overlay.mov").hasAlpha)
        #expect(try MediaReader.info(path: "\(dir)/overlay.gif").frameCount == 7)
    }

    @Test("an output failing part-way stops the run: no temporary file is left, old outputs are untouched")
    func failureMidWay() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data("an earlier clip".utf8).write(to: URL(fileURLWithPath: "\(dir)/promo.mp4"))
        try Data("an earlier frame".utf8).write(to: URL(fileURLWithPath: "\(dir)/seq/000.png"))
        let before = Self.snapshot(dir)
        let spec = try Self.tinySpec(fps: 30, duration: 1.0)
        let outputs = ["promo.mp4", "seq/%03d.png", "promo.webm", "preview.gif", "master.mkv"].map { "\(dir)/\($0)" }
        // Two frames in, the sequence's temporary folder disappears (as on a full or failing
        // disk): the image2 muxer cannot open the next frame's file, a real write failure. It is
        // moved away in one rename: deleting it file by file races with the writer adding files.
        let sabotaged = Atomic<Bool>(false)
        let graveyard = NSTemporaryDirectory() + "slicevid-gone-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: graveyard) }
        let request = try MakeRequest.parsing(spec: spec, outputs: outputs, encoder: EncoderSettings(preset: "ultrafast"), force: true, jobs: 1)
        let error = try #require(throws: SlicevidError.self) {
            _ = try MakeJob.run(request) { event in
                guard case .progress(let done, _) = event, done >= 2, !sabotaged.exchange(true, ordering: .relaxed) else { return }
                let hidden = (try? FileManager.default.contentsOfDirectory(atPath: "\(dir)/seq"))?.filter { $0.hasPrefix(".slicevid-") } ?? []
                for name in hidden { rename("\(dir)/seq/\(name)", graveyard) }
            }
        }
        let didSabotage = sabotaged.load(ordering: .relaxed)
        #expect(didSabotage)
        #expect(error.category == .outputFailed)
        #expect(error.message.contains("seq/%03d.png"), "\(error)")
        #expect(Self.snapshot(dir) == before, "left: \(Self.snapshot(dir).keys.sorted())")
    }

    /// A request that must be refused before anything is created.
    struct Refusal: Sendable, CustomTestStringConvertible {
        let label: String
        let outputs: [String]
        var background = "#000000"
        var encoder = EncoderSettings()
        var missing: Set<String> = []
        let category: SlicevidError.Category
        let mentions: [String]
        var testDescription: String { label }
    }

    static let refusals: [Refusal] = [
        Refusal(label: "alpha in MP4/H.264", outputs: ["ok.webm", "promo.mp4"], background: "transparent",
                category: .usage, mentions: ["promo.mp4", "transparent", ".webm"]),
        Refusal(label: "a lossless GIF", outputs: ["ok.mp4", "a.gif:crf=0"], category: .usage, mentions: ["a.gif", "crf=0", "lossless"]),
        Refusal(label: "crf out of range for VP9", outputs: ["ok.mp4", "a.webm:crf=70"], category: .usage, mentions: ["a.webm", "0–63"]),
        Refusal(label: "crf out of range for H.264 from the flag", outputs: ["a.webm", "promo.mp4"], encoder: EncoderSettings(crf: 55),
                category: .usage, mentions: ["promo.mp4", "crf 55", "0–51"]),
        Refusal(label: "crf and bitrate together", outputs: ["promo.mp4"], encoder: EncoderSettings(crf: 20, bitrate: 2_000_000),
                category: .usage, mentions: ["crf and bitrate"]),
        Refusal(label: "crf and bitrate for one output", outputs: ["promo.mp4:crf=20:bitrate=2M"], category: .usage, mentions: ["promo.mp4", "give one"]),
        Refusal(label: "a pixel format H.264 cannot take", outputs: ["ok.webm", "promo.mp4:pix-fmt=yuva420p"],
                category: .usage, mentions: ["promo.mp4", "yuva420p", "yuv420p"]),
        Refusal(label: "a flag no output can use", outputs: ["a.gif", "poster.png"], encoder: EncoderSettings(crf: 20),
                category: .usage, mentions: ["crf applies to none of the outputs"]),
        Refusal(label: "a codec WebM does not carry", outputs: ["a.webm:codec=hevc"], category: .usage, mentions: ["a.webm", "vp9, av1"]),
        Refusal(label: "a poster after the end", outputs: ["poster.png:poster-at=5"], category: .usage, mentions: ["poster.png", "past the end"]),
        Refusal(label: "AV1 with neither encoder", outputs: ["ok.mp4", "a.webm:codec=av1"], missing: ["libsvtav1", "libaom-av1"],
                category: .unavailable, mentions: ["a.webm", "AV1", "libvpx-vp9"]),
        Refusal(label: "H.264 missing", outputs: ["promo.mp4"], missing: ["libx264"], category: .unavailable, mentions: ["libx264", "libx265"]),
        Refusal(label: "an output that exists", outputs: ["ok.mp4", "promo.webm"], category: .outputBlocked, mentions: ["promo.webm", "pass the force option to replace it"]),
    ]

    @Test("impossible requests are refused before anything is created or touched", arguments: refusals)
    func refused(_ refusal: Refusal) throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data("an earlier clip".utf8).write(to: URL(fileURLWithPath: "\(dir)/promo.webm"))
        let before = Self.snapshot(dir)
        let spec = try Self.tinySpec(background: refusal.background)
        // Refused when the request is built (an output's own options) or when it is planned.
        func request() throws(SlicevidError) -> MakeRequest {
            var request = try MakeRequest.parsing(spec: spec, outputs: refusal.outputs.map { "\(dir)/\($0)" }, encoder: refusal.encoder, jobs: 1)
            request.catalog = EncoderCatalog(missing: refusal.missing)
            return request
        }
        let error = try #require(throws: SlicevidError.self) { _ = try MakeJob.run(try request()) }
        #expect(error.category == refusal.category, "\(error)")
        for word in refusal.mentions { #expect(error.message.contains(word), "\(error) should mention \(word)") }
        #expect(!error.message.contains("\n"))
        #expect(Self.snapshot(dir) == before)
        // The dry run refuses the same way.
        #expect(throws: SlicevidError.self) { _ = try MakeJob.plan(try request()) }
    }

    @Test("tuning flags no output has are unused, not errors: scripts pass one flag set to every run")
    func unusedTuningFlags() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let tuning = EncoderSettings(preset: "ultrafast", gifFrameRate: FrameRate(10), gifWidth: 320, posterTime: 0.1)
        let plan = try MakeJob.plan(try .parsing(spec: try Self.tinySpec(), outputs: ["\(dir)/seq/%03d.png", "\(dir)/a.y4m"], encoder: tuning))
        #expect(plan.outputs.allSatisfy { $0.ignored[.encoderPreset] != nil })
    }

    @Test("planning creates nothing, not even a sequence's temporary folder")
    func planIsSideEffectFree() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let plan = try MakeJob.plan(try .parsing(spec: try Self.tinySpec(), outputs: ["seq/%03d.png", "a.gif", "null"].map { $0 == "null" ? $0 : "\(dir)/\($0)" }))
        #expect(plan.outputs.map(\.codec) == [.png, .gif])
        #expect(plan.destinations.last == .discard && plan.renderLayouts == [.gbrp] && plan.clip.frameCount == 7)
        #expect(Self.snapshot(dir).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/seq").isEmpty)
    }
}
