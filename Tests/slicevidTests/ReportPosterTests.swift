// `batch --report index.html`: the JSON report goes beside the page, and each job that asks for no
// picture of its own gets a small poster made by the run, in index.files: the last frame, kept
// while up to date, remade when missing, never replacing a file slicevid did not write, never
// changing the job's own outputs; an orphan, pruned with --prune, once its job has left the
// manifest or writes a picture of its own.

import Foundation
import Glibc
import SliceKit
import SliceMedia
import Testing

@Suite(.serialized, .timeLimit(.minutes(10))) struct ReportPosterTests {
    /// Job a writes a video only (960x540, so its poster is scaled down), b a video and its own
    /// poster, c fails on a corrupt still; p ends on a pattern in a video with full chroma (so the
    /// layout its frames are drawn in shows in its poster's bytes).
    private func campaign(_ folder: CampaignFolder, jobs names: [String] = ["a", "b", "c"]) throws -> String {
        let all: [String: [String: Any]] = [
            "a": ["id": "a", "images": ["s0.png", "s1.png"], "size": "960x540", "outputs": ["out/a.mp4"]],
            "b": ["id": "b", "images": ["s1.png", "s2.png"], "outputs": ["out/b.mp4", "out/b.jpg"]],
            "c": ["id": "c", "images": ["s0.png", "corrupt.png"], "outputs": ["out/c.mp4"]],
            "p": ["id": "p", "images": ["s0.png", "pattern.png"], "size": "960x540", "outputs": ["out/p.mp4:pix-fmt=yuv444p"]],
        ]
        if names.contains("p") {
            // Red and blue stripes a pixel wide: 4:2:0 chroma would blur them.
            var pattern = RGBAImage(width: 64, height: 36, color: RGBAColor(red: 255, green: 0, blue: 0))
            for y in 0..<36 { for x in stride(from: 1, to: 64, by: 2) { pattern.pixels.replaceSubrange(4 * (y * 64 + x)..<(4 * (y * 64 + x) + 3), with: [0, 0, 255]) } }
            try StillWriter.write(pattern, to: folder.path + "/pattern.png", format: .png)
        }
        return try folder.campaign(jobs: names.map { all[$0]! })
    }

    private func object(_ path: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    }

    private func jobs(_ path: String) throws -> [String: [String: Any]] {
        let jobs = try #require(try object(path)["jobs"] as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: jobs.map { ($0["id"] as? String ?? "", $0) })
    }

    private func stamp(_ path: String) -> [Int] {
        var status = stat()
        guard stat(path, &status) == 0 else { return [] }
        return [Int(status.st_ino), Int(status.st_mtim.tv_sec), Int(status.st_mtim.tv_nsec)]
    }

    /// The poster's size and the colour at its centre.
    private func picture(_ path: String) throws -> (width: Int, height: Int, centre: RGBAColor) {
        let info = try MediaReader.info(path: path)
        let image = try StillDecoder.load(path: path, width: info.width, height: info.height, fit: .cover, background: RGBAColor(red: 0, green: 0, blue: 0))
        let at = 4 * ((image.height / 2) * image.width + image.width / 2)
        return (image.width, image.height, RGBAColor(red: image.pixels[at], green: image.pixels[at + 1], blue: image.pixels[at + 2]))
    }

    private func close(_ a: RGBAColor, _ b: RGBAColor, within: Int = 6) -> Bool {
        abs(Int(a.red) - Int(b.red)) <= within && abs(Int(a.green) - Int(b.green)) <= within && abs(Int(a.blue) - Int(b.blue)) <= within
    }

    /// The colour CampaignFolder gives still `index`.
    private func colour(_ index: Int) -> RGBAColor {
        RGBAColor(red: UInt8(index * 70 % 256), green: UInt8(200 - index * 25 % 200), blue: UInt8(index * 37 % 256))
    }

    @Test func aPageRunWritesTheReportBesideItAndAPosterOfTheLastFrameForJobsWithoutAPicture() throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        let manifest = try campaign(folder)
        let run = try BatchCLI.run(["batch", manifest, "--report", "index.html"], in: folder.path)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains("report written to index.json") && run.stderr.contains("page written to index.html"), "\(run.stderr)")
        // The machine-readable report, beside the page.
        let report = try object(folder.path + "/index.json")
        #expect(report["schema"] as? Int == 3)
        let jobs = try jobs(folder.path + "/index.json")
        let poster = folder.path + "/index.files/a.jpg"
        #expect(jobs["a"]?["poster"] as? String == poster)
        #expect(jobs["b"]?["poster"] is NSNull && jobs["c"]?["poster"] is NSNull)
        #expect(jobs.values.allSatisfy { $0["poster_error"] is NSNull })
        // Only a's poster, with its sidecar; b shows its own, c failed.
        #expect(folder.files("index.files") == [".a.jpg.slicevid.json", "a.jpg"])
        // The last frame (the destination still), scaled to 480 on its long side.
        let shown = try picture(poster)
        #expect(shown.width == 480 && shown.height == 270)
        #expect(close(shown.centre, colour(1)), "\(shown.centre)")
        let sidecar = try object(folder.path + "/index.files/.a.jpg.slicevid.json")
        #expect(sidecar["job"] as? String == "a" && sidecar["manifest"] as? String == manifest, "\(sidecar)")
        // The page shows both pictures, linked relative to it.
        let page = try String(contentsOfFile: folder.path + "/index.html", encoding: .utf8)
        #expect(page.contains("<img src=\"index.files/a.jpg\"") && page.contains("<img src=\"out/b.jpg\""))
        #expect(page.hasPrefix("<!DOCTYPE html>") && !page.contains("<script"))
        // The page of the report made afterwards is the run's page, byte for byte.
        let again = try CLI.run(["report", "html", "index.json", "-o", "again.html"], in: folder.path)
        #expect(again.status == 0, "\(again)")
        #expect(again.stderr == "slicevid: report html: 3 jobs: 1 failed, 2 rendered; 2 pictures, 1 placeholder; wrote again.html\n", "\(again)")
        #expect(FileManager.default.contents(atPath: folder.path + "/again.html") == FileManager.default.contents(atPath: folder.path + "/index.html"))
        #expect(folder.files(".").filter { $0.contains(".slicevid-") }.isEmpty && folder.files("index.files").count == 2)
    }

    @Test func aReRunKeepsThePosterRemakesAMissingOneWithoutRenderingTheJobAndAChangeReplacesIt() throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        let manifest = try campaign(folder, jobs: ["p"])
        #expect(try BatchCLI.run(["batch", manifest, "--report", "index.html"], in: folder.path).status == 0)
        let poster = folder.path + "/index.files/p.jpg", video = folder.path + "/out/p.mp4"
        let (posterStamp, videoStamp) = (stamp(poster), stamp(video))
        // Up to date: neither is written again, and the page still shows the poster.
        let skipped = try BatchCLI.run(["batch", manifest, "--report", "index.html"], in: folder.path)
        #expect(skipped.status == 0 && skipped.stderr.contains("1 skipped"), "\(skipped.stderr)")
        #expect(stamp(poster) == posterStamp && stamp(video) == videoStamp)
        #expect(try jobs(folder.path + "/index.json")["p"]?["poster"] as? String == poster)
        #expect(try String(contentsOfFile: folder.path + "/index.html", encoding: .utf8).contains("<img src=\"index.files/p.jpg\""))
        // A poster deleted since is made again, the same picture byte for byte (its frames drawn
        // again, in the layout of the job's outputs); the job itself stays skipped.
        let bytes = try SHA256.hex(ofFileAt: poster)
        #expect(unlink(poster) == 0)
        let remade = try BatchCLI.run(["batch", manifest, "--report", "index.html"], in: folder.path)
        #expect(remade.status == 0 && remade.stderr.contains("1 skipped"), "\(remade.stderr)")
        #expect(stamp(video) == videoStamp)
        #expect(try SHA256.hex(ofFileAt: poster) == bytes)
        // Another destination still: the job renders, and its poster (slicevid's) is replaced.
        try folder.still("pattern.png", index: 2)
        #expect(try BatchCLI.run(["batch", manifest, "--report", "index.html"], in: folder.path).status == 0)
        #expect(close(try picture(poster).centre, colour(2)))
        #expect(folder.files("index.files") == [".p.jpg.slicevid.json", "p.jpg"])
    }

    @Test func aFileSlicevidDidNotWriteAtAPosterPathIsKeptAndTheJobStillSucceeds() throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        let manifest = try campaign(folder, jobs: ["a"])
        try FileManager.default.createDirectory(atPath: folder.path + "/index.files", withIntermediateDirectories: true)
        let mine = try folder.write("index.files/a.jpg", "my own picture")
        let run = try BatchCLI.run(["batch", manifest, "--report", "index.html"], in: folder.path)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("a: rendered") && run.stderr.contains("no poster for the page") && run.stderr.contains("not written by slicevid"), "\(run.stderr)")
        #expect(FileManager.default.contents(atPath: mine) == Data("my own picture".utf8))
        let job = try #require(try jobs(folder.path + "/index.json")["a"])
        #expect(job["status"] as? String == "rendered" && job["poster"] is NSNull)
        #expect((job["poster_error"] as? String)?.contains("a.jpg") == true)
        let page = try String(contentsOfFile: folder.path + "/index.html", encoding: .utf8)
        #expect(!page.contains("<img ") && page.contains("no poster: "))
        // --force replaces it, as it replaces any output.
        #expect(try BatchCLI.run(["batch", manifest, "--report", "index.html", "--force"], in: folder.path).status == 0)
        #expect(try picture(mine).width == 480)
    }

    @Test func postersChangeNoOutputOfTheJobAndArePrunedOnceTheirJobNoLongerWantsThem() throws {
        let plain = try CampaignFolder(), paged = try CampaignFolder()
        defer { plain.remove(); paged.remove() }
        // A template, so the manifest's orphans are looked for in all of out/, the posters' folder included.
        func jobs(_ names: [String]) -> [[String: Any]] {
            [["id": "{n}", "matrix": ["n": names], "images": ["s0.png", "{n}.png"], "outputs": ["out/{id}.mp4", "out/{id}.webm"]]]
        }
        for folder in [plain, paged] {
            try folder.still("a.png", index: 1)
            try folder.still("b.png", index: 2)
        }
        let manifest = try paged.campaign(jobs: jobs(["a", "b"]))
        _ = try plain.campaign(jobs: jobs(["a", "b"]))
        // The page and its posters inside the folder the manifest writes to.
        #expect(try BatchCLI.run(["batch", manifest, "--report", "out/index.html"], in: paged.path).status == 0)
        #expect(try BatchCLI.run(["batch", plain.path + "/campaign.json", "--report", "report.json"], in: plain.path).status == 0)
        #expect(paged.files("out/index.files") == [".a.jpg.slicevid.json", ".b.jpg.slicevid.json", "a.jpg", "b.jpg"])
        for name in ["a.mp4", "a.webm", "b.mp4", "b.webm"] {
            #expect(try SHA256.hex(ofFileAt: paged.path + "/out/" + name) == SHA256.hex(ofFileAt: plain.path + "/out/" + name), "\(name)")
            #expect(try object(paged.path + "/out/.\(name).slicevid.json")["fingerprint"] as? String
                    == object(plain.path + "/out/.\(name).slicevid.json")["fingerprint"] as? String, "\(name)")
        }
        // Job a leaves the manifest: its outputs and its poster are orphans. A run says so and
        // deletes nothing; --prune deletes them with their sidecars.
        _ = try paged.campaign(jobs: jobs(["b"]))
        let told = try BatchCLI.run(["batch", manifest, "--report", "out/index.html"], in: paged.path)
        #expect(told.status == 0, "\(told.stderr)")
        #expect(told.stderr.contains("out/index.files/a.jpg was written for job 'a', no longer in the manifest; --prune deletes it"), "\(told.stderr)")
        let orphans = try #require(try object(paged.path + "/out/index.json")["orphans"] as? [[String: Any]])
        #expect(orphans.map { $0["path"] as? String } == ["a.mp4", "a.webm", "index.files/a.jpg"].map { paged.path + "/out/" + $0 })
        #expect(paged.files("out/index.files") == [".a.jpg.slicevid.json", ".b.jpg.slicevid.json", "a.jpg", "b.jpg"])
        // Three of five outputs: past the brake's quarter, so the limit is lifted; posters are what is tested.
        let pruned = try BatchCLI.run(["batch", manifest, "--report", "out/index.html", "--prune", "--prune-max", "100%"], in: paged.path)
        #expect(pruned.status == 0, "\(pruned.stderr)")
        #expect(pruned.stderr.contains("pruned \(paged.path)/out/a.mp4") && pruned.stderr.contains("pruned \(paged.path)/out/index.files/a.jpg"), "\(pruned.stderr)")
        #expect(paged.files("out/index.files") == [".b.jpg.slicevid.json", "b.jpg"])
        // Job b now writes a poster of its own, which the page shows: the page's poster of b is
        // an orphan of a job still in the manifest, and said so. A poster edited since it was
        // written is kept.
        _ = try paged.campaign(jobs: [["id": "{n}", "matrix": ["n": ["b"]], "images": ["s0.png", "{n}.png"], "outputs": ["out/{id}.mp4", "out/{id}.jpg"]]])
        let listed = try BatchCLI.run(["batch", manifest, "--report", "out/index.html"], in: paged.path)
        #expect(listed.stderr.contains("out/index.files/b.jpg was written for job 'b', which no longer makes it; --prune deletes it"), "\(listed.stderr)")
        try Data("edited".utf8).write(to: URL(fileURLWithPath: paged.path + "/out/index.files/b.jpg"))
        let kept = try BatchCLI.run(["batch", manifest, "--report", "out/index.html", "--prune", "--prune-max", "100%"], in: paged.path)
        #expect(kept.status == 0, "\(kept.stderr)")
        #expect(kept.stderr.contains("out/index.files/b.jpg was written for job 'b', which no longer makes it, but is kept"), "\(kept.stderr)")
        #expect(paged.files("out/index.files") == [".b.jpg.slicevid.json", "b.jpg"])
    }

    @Test func aPageThePosterFolderOrTheReportBesideItThatAreNotOursAreRefusedUpFront() throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        let manifest = try campaign(folder, jobs: ["a"])
        func refused(_ arguments: [String], naming: String) throws {
            let run = try BatchCLI.run(["batch", manifest] + arguments, in: folder.path)
            #expect(run.status == 73, "\(arguments): \(run.stderr)")
            #expect(run.stderr.split(separator: "\n").count == 1 && run.stderr.contains(naming), "\(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: folder.path + "/out/a.mp4"), "rendered before refusing")
        }
        // index.files is a file, then a link to a folder elsewhere.
        _ = try folder.write("index.files", "notes")
        try refused(["--report", "index.html"], naming: "index.files")
        #expect(unlink(folder.path + "/index.files") == 0)
        try FileManager.default.createDirectory(atPath: folder.path + "/elsewhere", withIntermediateDirectories: true)
        #expect(symlink(folder.path + "/elsewhere", folder.path + "/index.files") == 0)
        try refused(["--report", "index.html"], naming: "is a symbolic link")
        #expect(unlink(folder.path + "/index.files") == 0)
        // The JSON beside the page is someone's file.
        _ = try folder.write("index.json", "{\"mine\": true}")
        try refused(["--report", "index.html"], naming: "index.json")
        #expect(unlink(folder.path + "/index.json") == 0)
        // Someone's page; a FIFO, whatever --force says.
        let theirs = try folder.write("index.html", "<html>theirs</html>")
        try refused(["--report", "index.html"], naming: "is not a slicevid report page")
        #expect(FileManager.default.contents(atPath: theirs) == Data("<html>theirs</html>".utf8))
        #expect(mkfifo(folder.path + "/pipe.html", 0o644) == 0)
        try refused(["--report", "pipe.html", "--force"], naming: "named pipe")
        // --force replaces someone's page; the next run replaces its own page without it.
        #expect(try BatchCLI.run(["batch", manifest, "--report", "index.html", "--force"], in: folder.path).status == 0)
        #expect(try BatchCLI.run(["batch", manifest, "--report", "index.html"], in: folder.path).status == 0)
        #expect(try String(contentsOfFile: theirs, encoding: .utf8).contains("<meta name=\"generator\" content=\"slicevid report html\">"))
    }
}
