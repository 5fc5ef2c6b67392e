// `batch --parallel N`: several jobs at once write exactly the bytes one job at a time writes,
// run after run; the log stays one line per event; quiet runs print only what failed and the
// summary, in every format.

import Foundation
import SliceMedia
import Testing

@Suite("batch --parallel", .serialized, .timeLimit(.minutes(10)))
struct BatchParallelTests {
    /// Four jobs of several formats each, 160x90 so x264 and libvpx run threaded.
    private func campaign(_ folder: CampaignFolder) throws -> String {
        try folder.campaign(jobs: (0..<4).map { index in
            ["id": "job\(index)", "images": ["s\(index % 3).png", "s\((index + 1) % 3).png"], "seed": index,
             "outputs": ["out/job\(index).mp4", "out/job\(index).webm", "out/job\(index).gif", "out/job\(index).mkv:codec=h264"]]
        }, defaults: ["size": "160x90", "fps": 15, "hold": 0.2, "duration": 0.6, "slices": 12, "encoder-preset": "fast"])
    }

    /// Every output's bytes, by file name.
    private func outputs(_ folder: CampaignFolder) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in folder.files("out") where !name.hasPrefix(".") {
            files[name] = try Data(contentsOf: URL(fileURLWithPath: folder.path + "/out/" + name))
        }
        return files
    }

    @Test("four jobs at once, three times, write the bytes one job at a time writes")
    func byteIdenticalToOneAtATime() throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        let manifest = try campaign(folder)
        let single = try BatchCLI.run(["batch", manifest, "--parallel", "1", "-j", "1"], in: folder.path)
        #expect(single.status == 0, "\(single.stderr)")
        let reference = try outputs(folder)
        #expect(reference.count == 16)
        for run in 0..<3 {
            let parallel = try BatchCLI.run(["batch", manifest, "--parallel", "4", "--force"], in: folder.path)
            #expect(parallel.status == 0, "\(parallel.stderr)")
            #expect(parallel.stderr.contains(", 4 at a time"), "\(parallel.stderr)")
            let files = try outputs(folder)
            for (name, bytes) in reference {
                #expect(files[name] == bytes, "run \(run): \(name) differs from the one-at-a-time render")
            }
        }
        // And they are what they say: every job's MP4 decodes to its frames.
        for index in 0..<4 { #expect(try MediaReader.info(path: folder.path + "/out/job\(index).mp4").frameCount == 13) }
    }

    @Test("events from jobs side by side stay whole lines, each job's own")
    func logLinesStayWhole() throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        let manifest = try folder.campaign(jobs: (0..<6).map { ["id": "j\($0)", "images": ["s0.png", "s1.png"], "outputs": ["out/j\($0).mp4"]] })
        let plain = try BatchCLI.run(["batch", manifest, "--parallel", "3"], in: folder.path)
        #expect(plain.status == 0, "\(plain.stderr)")
        let lines = plain.stderr.split(separator: "\n")
        #expect(lines.allSatisfy { $0.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z slicevid: .+/) != nil }, "\(plain.stderr)")
        for index in 0..<6 {
            #expect(lines.filter { $0.contains("] j\(index): rendering (new output ") }.count == 1, "\(plain.stderr)")
            #expect(lines.filter { $0.contains("] j\(index): rendered, clip 0.60 s, took ") }.count == 1, "\(plain.stderr)")
        }
        let json = try BatchCLI.run(["batch", manifest, "--parallel", "3", "--force", "--log-format", "json"], in: folder.path)
        let events = try json.stderr.split(separator: "\n").map { line in
            try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        }
        #expect(events.filter { $0["event"] as? String == "job-finished" }.count == 6)
        #expect(events.first?["parallel"] as? Int == 3)
        let reasons = events.first { $0["event"] as? String == "job-rendering" }?["reasons"] as? [[String: Any]]
        #expect(reasons?.first?["kind"] as? String == "forced", "\(json.stderr)")
    }

    @Test("-q prints only failures and the summary, in every format", arguments: ["plain", "json", "progress"])
    func quiet(format: String) throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        let manifest = try folder.campaign(jobs: [
            ["id": "fine", "images": ["s0.png", "s1.png"], "outputs": ["out/fine.mp4"]],
            ["id": "broken", "images": ["s0.png", "corrupt.png"], "outputs": ["out/broken.mp4"]],
        ])
        let run = try BatchCLI.run(["batch", manifest, "-q", "--log-format", format], in: folder.path)
        #expect(run.status == 1, "\(run.stderr)")
        let lines = run.stderr.split(separator: "\n")
        if format == "json" {
            let events = try lines.map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
            #expect(events.map { $0["event"] as? String } == ["job-finished", "batch-finished"], "\(run.stderr)")
            #expect(events[0]["job"] as? String == "broken" && events[0]["status"] as? String == "failed")
        } else {
            #expect(lines.count == 2, "\(run.stderr)")
            #expect(lines[0].contains("1 rendered, 1 failed, took ") && lines[1].contains("failed: job 'broken': "), "\(run.stderr)")
        }
    }

    @Test("by default small frames render side by side, one job per core")
    func defaultParallel() throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        let jobs: [[String: Any]] = (0..<3).map { ["id": "j\($0)", "images": ["s0.png", "s1.png"], "outputs": ["out/j\($0).mp4"]] }
        let run = try BatchCLI.run(["batch", try folder.campaign(jobs: jobs)], in: folder.path)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("3 jobs, \(min(3, ProcessInfo.processInfo.activeProcessorCount)) at a time"), "\(run.stderr)")
        let bad = try BatchCLI.run(["batch", try folder.campaign(jobs: jobs), "--parallel", "0"], in: folder.path)
        #expect(bad.status == 64 && bad.stderr.contains("--parallel: '0' is not a whole number 1–64"), "\(bad.stderr)")
    }
}
