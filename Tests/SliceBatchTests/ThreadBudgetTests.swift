// The thread budget, with the core count given rather than read from the 2-core test machine:
// jobs side by side share the cores, every encoder is opened with the count the budget gives
// (read back from the opened AVCodecContext, and from the settings x264 writes into its own
// stream), and that count — so the bytes — does not follow `--parallel`.

import Foundation
import ScratchFixtures
import SliceCampaign
import SliceKit
import SliceMedia
import SliceReports
import Testing
@testable import SliceBatch
@testable import SlicePipeline

@Suite("the thread budget")
struct ThreadBudgetTests {
    /// A manifest of `count` jobs of `size`, each with the given outputs (`{id}` in a path).
    private func manifest(_ scratch: Scratch, size: String, count: Int, outputs: [String]) throws -> Manifest {
        try scratch.still("a.png", index: 0)
        try scratch.still("b.png", index: 1)
        let path = try scratch.json("m.json", [
            "defaults": tinyDefaults.merging(["size": size, "slices": 16]) { $1 },
            "jobs": (0..<count).map { index in
                ["id": "j\(index)", "images": ["a.png", "b.png"], "outputs": outputs.map { $0.replacingOccurrences(of: "{id}", with: "j\(index)") }]
            },
        ])
        return try Manifest.load(path: path, presets: testPresets)
    }

    @Test("the shares, by cores and frame")
    func shares() throws {
        let sixteen = try ThreadBudget(cores: 16), two = try ThreadBudget(cores: 2)
        #expect(sixteen.renderThreads(sharedBy: 16) == 1 && sixteen.renderThreads(sharedBy: 3) == 5 && sixteen.renderThreads(sharedBy: 1) == 16)
        #expect(sixteen.encoderThreads(width: 640, height: 360) == 1)
        // 1.5 threads a core of a job's share, as x264 runs on a machine of its own.
        #expect(sixteen.encoderThreads(width: 1920, height: 1080) == 7)
        #expect(sixteen.encoderThreads(width: 3840, height: 2160) == 24)
        #expect(two.encoderThreads(width: 1920, height: 1080) == 3 && two.encoderThreads(width: 160, height: 90) == 1)
        #expect(try ThreadBudget(cores: 1).encoderThreads(width: 3840, height: 2160) == 1)
        #expect(try ThreadBudget(cores: 96).renderThreads(sharedBy: 1) == 64, "within the render threads accepted")
        let zero = try #require(throws: SlicevidError.self) { try ThreadBudget(cores: 0) }
        #expect(zero.category == .usage && zero.message == "the cores option: 0 is not a whole number 1–4096")
    }

    @Test("jobs side by side by default: one per core for small frames, few for large ones, fewer for two encodes each")
    func defaultParallel() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        func jobs(_ size: String, _ count: Int, _ outputs: [String] = ["{id}.mp4"]) throws -> [ManifestJob] {
            try manifest(scratch, size: size, count: count, outputs: outputs).jobs
        }
        func parallel(_ jobs: [ManifestJob], cores: Int) throws -> Int {
            BatchRequest.defaultParallel(for: jobs, threads: try ThreadBudget(cores: cores))
        }
        let small = try jobs("640x360", 16)
        #expect(try parallel(small, cores: 2) == 2 && parallel(small, cores: 16) == 16)
        #expect(try parallel(small, cores: 32) == 16, "never more than the jobs")
        #expect(try parallel(jobs("1280x720", 2), cores: 2) == 2)
        let hd = try jobs("1920x1080", 40)
        #expect(try parallel(hd, cores: 2) == 1 && parallel(hd, cores: 8) == 2)
        // 16 cores: three 1080p jobs side by side, not sixteen.
        #expect(try parallel(hd, cores: 16) == 3 && parallel(hd, cores: 32) == 3)
        // An MP4 and a WebM: each job encodes its frame twice; posters and GIFs hold little.
        #expect(try parallel(jobs("1920x1080", 40, ["{id}.mp4", "{id}.webm", "{id}.png", "{id}.gif"]), cores: 16) == 2)
        #expect(try parallel(jobs("1920x1080", 40, ["{id}.mp4", "{id}.png", "{id}.gif"]), cores: 16) == 3)
        #expect(try parallel(jobs("3840x2160", 4), cores: 8) == 1 && parallel(jobs("3840x2160", 4), cores: 32) == 2)
        #expect(try parallel([], cores: 8) == 1 && parallel(small, cores: 1) == 1)
    }

    @Test("16 cores, --parallel 16: each job renders on 1 thread and opens its encoders with 1 thread")
    func sixteenCoresSixteenJobs() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let request = try BatchRequest(manifest: try manifest(scratch, size: "640x360", count: 16, outputs: ["{id}.mp4", "{id}.webm", "{id}.mkv"]),
                                       parallel: 16, version: "test", threads: try ThreadBudget(cores: 16))
        #expect(request.parallel == 16 && request.renderThreads == 1)
        let job = try request.selectedJobs[0].request(renderThreads: request.renderThreads, threads: request.threads)
        let plans = try MakeJob.plan(job).outputs
        #expect(plans.map(\.encoder) == ["libx264", "libvpx-vp9", "ffv1"])
        for plan in plans {
            #expect(plan.threads == 1, "\(plan.encoder)")
            let writer = try VideoWriter(plan: plan, path: scratch.path + "/open-" + URL(fileURLWithPath: plan.path).lastPathComponent,
                                         inputLayout: plan.renderLayout)
            #expect(writer.encoderThreadCount == 1, "\(plan.encoder) was opened with \(writer.encoderThreadCount) threads")
        }
    }

    @Test("16 cores: a 1080p output's encoders get 7 threads whatever --parallel is, and x264 says it used them")
    func sixteenCoresAt1080p() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let manifest = try manifest(scratch, size: "1920x1080", count: 16, outputs: ["{id}.mp4", "{id}-hevc.mp4:codec=hevc"])
        for parallel in [1, 3, 16] {
            let request = try BatchRequest(manifest: manifest, parallel: parallel, version: "test", threads: try ThreadBudget(cores: 16))
            #expect(request.renderThreads == 16 / parallel)
            let job = try request.selectedJobs[0].request(renderThreads: request.renderThreads, threads: request.threads)
            #expect(try MakeJob.plan(job).outputs.map(\.threads) == [7, 7], "--parallel \(parallel)")
        }
        let job = try BatchRequest(manifest: manifest, parallel: 16, version: "test", threads: try ThreadBudget(cores: 16))
            .selectedJobs[0].request(threads: try ThreadBudget(cores: 16))
        let plans = try MakeJob.plan(job).outputs
        // x264 writes the settings it ran with into its stream: `threads=7`.
        let h264 = scratch.path + "/one.mp4"
        let writer = try VideoWriter(plan: plans[0], path: h264, inputLayout: plans[0].renderLayout)
        #expect(writer.encoderThreadCount == 7)
        let frame = PlanarImage(width: 1920, height: 1080, layout: plans[0].renderLayout)
        for _ in 0..<2 { try writer.write(frame) }
        try writer.finish()
        let stream = String(decoding: try Data(contentsOf: URL(fileURLWithPath: h264)), as: UTF8.self)
        #expect(stream.contains(" threads=7 "), "x264's settings in its stream name no threads=7")
        // x265 takes the count as its worker pool, and frame threads as x265 would pick for it.
        let hevc = try VideoWriter(plan: plans[1], path: scratch.path + "/one-hevc.mp4", inputLayout: plans[1].renderLayout)
        #expect(plans[1].threadParameters.map { "\($0.0)=\($0.1)" } == ["pools=7"] && hevc.encoderThreadCount == 2)
    }

    @Test("with the cores given, --parallel 1 and 2 write the same bytes: encoder threads do not follow --parallel")
    func bytesDoNotFollowParallel() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        // 1280x720 on 16 cores: three encoder threads each, so x264 and libvpx run threaded.
        let manifest = try manifest(scratch, size: "1280x720", count: 2, outputs: ["out{id}/{id}.mp4", "out{id}/{id}.webm"])
        var runs: [[String: Data]] = []
        for parallel in [1, 2] {
            let request = try BatchRequest(manifest: manifest, force: true, parallel: parallel, version: "test", threads: try ThreadBudget(cores: 16))
            let report = BatchRun.run(request, cancellation: Cancellation())
            #expect(report.count(.rendered) == 2, "\(report.jobs.map { $0.error ?? "" })")
            var files: [String: Data] = [:]
            for job in ["j0", "j1"] {
                for name in scratch.files(in: "out" + job) where !name.hasPrefix(".") {
                    files[name] = try Data(contentsOf: URL(fileURLWithPath: scratch.path + "/out\(job)/" + name))
                }
            }
            runs.append(files)
        }
        #expect(runs[0].count == 4 && runs[0] == runs[1], "\(runs.map { $0.keys.sorted() })")
        let stream = String(decoding: try #require(runs[0]["j0.mp4"]), as: UTF8.self)
        #expect(stream.contains(" threads=3 "), "x264 ran with the budget's three threads")
    }
}
