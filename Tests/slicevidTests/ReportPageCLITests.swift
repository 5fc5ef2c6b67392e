// `slicevid report html REPORT -o index.html`: the page of a report after the fact, from the
// pictures the run left (never a decoded video); a report that is not one, of another schema or
// missing, and an -o that is not ours, each refused in one line with its exit code.

import Foundation
import Glibc
import Testing

@Suite(.serialized, .timeLimit(.minutes(10))) struct ReportPageCLITests {
    /// A run of two jobs, one with a poster of its own, with its report.json.
    private func campaign(_ folder: CampaignFolder) throws {
        let manifest = try folder.campaign(jobs: [
            ["id": "a", "images": ["s0.png", "s1.png"], "outputs": ["out/a.mp4", "out/a.jpg"]],
            ["id": "b", "images": ["s1.png", "s2.png"], "outputs": ["out/b.mp4"]],
        ])
        let run = try BatchCLI.run(["batch", manifest, "--report", "report.json"], in: folder.path)
        try #require(run.status == 0, "\(run.stderr)")
    }

    private func page(_ folder: CampaignFolder, _ name: String) throws -> String {
        try String(contentsOfFile: folder.path + "/" + name, encoding: .utf8)
    }

    @Test func thePageShowsThePicturesTheRunLeftAndSaysWhyForTheRest() throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        try campaign(folder)
        let run = try CLI.run(["report", "html", "report.json", "-o", "index.html"], in: folder.path)
        #expect(run.status == 0, "\(run)")
        #expect(run.stderr == "slicevid: report html: 2 jobs: 2 rendered; 1 picture, 1 placeholder; wrote index.html\n", "\(run)")
        let html = try page(folder, "index.html")
        #expect(html.contains("<img src=\"out/a.jpg\""))
        #expect(html.contains("no poster: the job writes no .jpg, .png or .webp (a batch that writes this page makes one)"))
        // A picture deleted since is not linked: the tile says so.
        #expect(unlink(folder.path + "/out/a.jpg") == 0)
        #expect(try CLI.run(["report", "html", "report.json", "-o", "index.html", "-q"], in: folder.path).stderr.isEmpty)
        let after = try page(folder, "index.html")
        #expect(!after.contains("<img ") && after.contains("a.jpg is not on disk"))
        // From another folder, links lead back to the files; to stdout, relative to the working folder.
        try FileManager.default.createDirectory(atPath: folder.path + "/pages", withIntermediateDirectories: true)
        #expect(try CLI.run(["report", "html", "report.json", "-o", "pages/index.html"], in: folder.path).status == 0)
        #expect(try page(folder, "pages/index.html").contains("<a href=\"../out/b.mp4\">b.mp4</a>"))
        let standardOutput = try CLI.run(["report", "html", "report.json", "-o", "-"], in: folder.path)
        #expect(standardOutput.status == 0 && standardOutput.stdout.contains("<a href=\"out/b.mp4\">b.mp4</a>"), "\(standardOutput)")
        #expect(folder.files(".").filter { $0.contains(".slicevid-") }.isEmpty)
    }

    @Test func aMergedReportMakesAPageToo() throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        let manifest = try folder.campaign(jobs: (0..<4).map { ["id": "j\($0)", "images": ["s0.png", "s1.png"], "outputs": ["out/j\($0).mp4"]] })
        for shard in 0..<2 {
            #expect(try BatchCLI.run(["batch", manifest, "--shard", "\(shard)/2", "--report", "shard-\(shard).json"], in: folder.path).status == 0)
        }
        #expect(try CLI.run(["report", "merge", "shard-0.json", "-o", "half.json"], in: folder.path).status == 1)
        let run = try CLI.run(["report", "html", "half.json", "-o", "index.html"], in: folder.path)
        #expect(run.status == 0, "\(run)")
        let html = try page(folder, "index.html")
        #expect(html.contains("1 shard report merged") && html.contains("<ul class=\"notes\"><li>shard 1/2: no report"), "\(html.prefix(3000))")
    }

    @Test func reportsThatAreNotOnesOfThisSchemaOrMissingAreRefusedInOneLine() throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        try campaign(folder)
        var old = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder.path + "/report.json"))) as? [String: Any])
        old["schema"] = 2
        try JSONSerialization.data(withJSONObject: old).write(to: URL(fileURLWithPath: folder.path + "/old.json"))
        _ = try folder.write("notes.json", "{\"mine\": true}")
        _ = try folder.write("broken.json", "{\"slicevid\": ")
        let cases: [([String], Int32, String)] = [
            (["missing.json", "-o", "index.html"], 66, "missing.json"),
            (["notes.json", "-o", "index.html"], 65, "is not a slicevid report"),
            (["broken.json", "-o", "index.html"], 65, "not JSON"),
            (["old.json", "-o", "index.html"], 64, "schema 2"),
            (["report.json", "report.json", "-o", "index.html"], 64, "one report"),
            (["report.json", "-o", "report.json", "--force"], 64, "is the report itself"),
            (["report.json"], 64, "-o PAGE.html"),
            (["-o", "index.html"], 64, "needs a report"),
        ]
        for (arguments, status, words) in cases {
            let run = try CLI.run(["report", "html"] + arguments, in: folder.path)
            #expect(run.status == status, "\(arguments): \(run)")
            #expect(run.stderr.split(separator: "\n").count == 1 && run.stderr.contains(words), "\(arguments): \(run)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/index.html"))
    }

    @Test func anOutputThatIsNotAnEarlierPageIsKeptUnlessForcedAndADeviceOrFIFONever() throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        try campaign(folder)
        let theirs = try folder.write("index.html", "<!DOCTYPE html><p>their page</p>")
        let refused = try CLI.run(["report", "html", "report.json", "-o", "index.html"], in: folder.path)
        #expect(refused.status == 73 && refused.stderr.contains("is not a slicevid report page") && refused.stderr.contains("--force"), "\(refused)")
        #expect(FileManager.default.contents(atPath: theirs) == Data("<!DOCTYPE html><p>their page</p>".utf8))
        // A link is not written through.
        #expect(symlink(theirs, folder.path + "/link.html") == 0)
        #expect(try CLI.run(["report", "html", "report.json", "-o", "link.html"], in: folder.path).status == 73)
        #expect(try CLI.run(["report", "html", "report.json", "-o", "index.html", "--force"], in: folder.path).status == 0)
        #expect(try page(folder, "index.html").contains("<article "))
        // Its own page is replaced without --force.
        #expect(try CLI.run(["report", "html", "report.json", "-o", "index.html"], in: folder.path).status == 0)
        #expect(mkfifo(folder.path + "/pipe.html", 0o644) == 0)
        for target in ["pipe.html", "/dev/null", "out"] {
            let run = try CLI.run(["report", "html", "report.json", "-o", target, "--force"], in: folder.path)
            #expect(run.status == 73 && run.stderr.split(separator: "\n").count == 1, "\(target): \(run)")
        }
        #expect(try String(contentsOfFile: theirs, encoding: .utf8).hasPrefix("<!DOCTYPE html>"))
        #expect(folder.files(".").filter { $0.contains(".slicevid-") }.isEmpty)
    }
}
