// The morning page's history and its failed jobs' earlier renders, from the command line: each
// run's page and JSON kept beside the page, bounded, deleting only what slicevid provably wrote;
// a failed job whose earlier outputs are still on disk, untouched, says "previous version live";
// a missing report folder is made, and a blocked one is named as typed.

import Foundation
import Glibc
import Testing

@Suite(.serialized, .timeLimit(.minutes(10))) struct ReportHistoryTests {
    private func text(_ folder: CampaignFolder, _ name: String) throws -> String {
        try String(contentsOfFile: folder.path + "/" + name, encoding: .utf8)
    }

    /// The nights' file names in `nights/index.history`, sorted.
    private func kept(_ folder: CampaignFolder) -> [String] { folder.files("nights/index.history") }

    @Test func eachRunIsKeptTheNewestNOnlyAndOnlyFilesSlicevidWroteAreDeleted() throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        let manifest = try folder.campaign(jobs: [["id": "a", "images": ["s0.png", "s1.png"], "outputs": ["out/a.mp4"]]])
        // The page's folder is missing: made, as an output's is.
        let first = try BatchCLI.run(["batch", manifest, "--report", "nights/index.html", "--history", "2"], in: folder.path)
        try #require(first.status == 0, "\(first.stderr)")
        let firstNight = kept(folder)
        #expect(firstNight.count == 2 && firstNight.allSatisfy { $0.hasSuffix("Z.html") || $0.hasSuffix("Z.json") }, "\(firstNight)")

        // Files named like nights that slicevid cannot prove it wrote: someone's notes, and a
        // real page of ours that other users may write to.
        let history = folder.path + "/nights/index.history/"
        try Data("<p>our notes</p>".utf8).write(to: URL(fileURLWithPath: history + "2000-01-01T00-00-00Z.html"))
        try Data("{}".utf8).write(to: URL(fileURLWithPath: history + "2000-01-01T00-00-00Z.json"))
        let page = try #require(firstNight.first(where: { $0.hasSuffix(".html") }))
        try FileManager.default.copyItem(atPath: history + page, toPath: history + "1999-01-01T00-00-00Z.html")
        #expect(chmod(history + "1999-01-01T00-00-00Z.html", 0o666) == 0)

        for _ in 0..<2 {
            let run = try BatchCLI.run(["batch", manifest, "--report", "nights/index.html", "--history", "2"], in: folder.path)
            try #require(run.status == 0, "\(run.stderr)")
        }
        let now = kept(folder)
        // Three runs, two kept: the first is gone; the files that are not provably ours stay.
        let ours = now.filter { !$0.hasPrefix("1999") && !$0.hasPrefix("2000") }
        #expect(ours.count == 4 && !ours.contains(page), "\(now)")
        #expect(now.contains("2000-01-01T00-00-00Z.html") && now.contains("2000-01-01T00-00-00Z.json") && now.contains("1999-01-01T00-00-00Z.html"), "\(now)")
        #expect(try text(folder, "nights/index.history/2000-01-01T00-00-00Z.html") == "<p>our notes</p>")

        // The page lists the runs kept, newest first, each linked: the 1999 copy is a page of
        // ours, listed; the notes are not a page, and are not.
        let html = try text(folder, "nights/index.html")
        let links = html.matches(of: /<li(?: class="fail")?><a href="index\.history\/([^"]+)\.html">/).map { String($0.1) }
        let stems = ours.filter { $0.hasSuffix(".html") }.map { String($0.dropLast(5)) }.sorted(by: >)
        #expect(links == stems + ["1999-01-01T00-00-00Z"], "\(links)")
        #expect(html.contains("<summary>3 runs kept</summary>"))
        // report html makes the same page from the JSON beside it.
        let again = try CLI.run(["report", "html", "nights/index.json", "-o", "nights/again.html"], in: folder.path)
        #expect(again.status == 0 && (try? text(folder, "nights/again.html")) == html, "\(again.stderr)")
        // --history 0 keeps nothing more and deletes nothing.
        #expect(try BatchCLI.run(["batch", manifest, "--report", "nights/index.html", "--history", "0"], in: folder.path).status == 0)
        #expect(kept(folder) == now)
        #expect(folder.files("nights/index.history").allSatisfy { !$0.contains(".slicevid-") })
    }

    @Test func aFailedJobWhoseEarlierRenderIsOnDiskSaysItIsLiveUntilItsFilesChange() throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        let manifest = try folder.campaign(jobs: [
            ["id": "a", "images": ["s0.png", "s2.png"], "outputs": ["out/a.mp4", "out/a.jpg"]],
            ["id": "b", "images": ["s1.png", "s2.png"], "outputs": ["out/b.mp4"]],
        ])
        try #require(try BatchCLI.run(["batch", manifest, "--report", "index.html"], in: folder.path).status == 0)
        let good = try Data(contentsOf: URL(fileURLWithPath: folder.path + "/s2.png"))
        _ = try folder.write("s2.png", "\u{89}PNG\r\n\u{1A}\nbroken")
        let failed = try BatchCLI.run(["batch", manifest, "--report", "index.html"], in: folder.path, environment: ["TZ": "UTC"])
        #expect(failed.status == 2, "\(failed.stderr)")

        // The report: each output's earlier render, with when its file was written.
        let report = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder.path + "/index.json"))) as? [String: Any])
        let jobs = try #require(report["jobs"] as? [[String: Any]])
        let a = try #require(jobs.first(where: { $0["id"] as? String == "a" }))
        let outputs = try #require(a["outputs"] as? [[String: Any]])
        var status = stat()
        #expect(lstat(folder.path + "/out/a.mp4", &status) == 0)
        let written = Date(timeIntervalSince1970: TimeInterval(status.st_mtim.tv_sec)).ISO8601Format()
        let live = try #require(outputs.first?["live"] as? [String: Any], "\(outputs)")
        #expect(live["written"] as? String == written && live["bytes"] as? Int == Int(status.st_size), "\(live)")
        let b = try #require(jobs.first(where: { $0["id"] as? String == "b" }))
        #expect(b["previous_poster"] as? String == folder.path + "/index.files/b.jpg", "\(b)")

        // The page: said on each failed tile, with its earlier picture.
        let page = try text(folder, "index.html")
        // a's tile gives the latest of its outputs' times, to the minute, in the page's zone (UTC here).
        let times = outputs.compactMap { output -> String? in (output["live"] as? [String: Any])?["written"] as? String }
        let latest = try #require(times.max())
        let minute = String(latest.prefix(16)).replacingOccurrences(of: "T", with: " ")
        #expect(page.components(separatedBy: "previous version live, rendered ").count == 3, "\(page)")
        #expect(page.contains("<h3>a</h3><p class=\"state\"><b>failed</b></p><p class=\"live\">previous version live, rendered \(minute) "), "\(page)")
        #expect(page.contains("<img src=\"out/a.jpg\"") && page.contains("<img src=\"index.files/b.jpg\""))

        // Once a's video is not the file slicevid wrote, nothing of a is claimed live, and its
        // tile shows no earlier picture.
        _ = try folder.write("out/a.mp4", "someone else's")
        _ = try folder.write("out/a.jpg", "someone else's")
        #expect(try BatchCLI.run(["batch", manifest, "--report", "index.html"], in: folder.path).status == 2)
        let after = try text(folder, "index.html")
        #expect(after.components(separatedBy: "previous version live").count == 2 && !after.contains("<img src=\"out/a.jpg\""), "\(after)")
        try good.write(to: URL(fileURLWithPath: folder.path + "/s2.png"))
    }

    @Test func aMissingReportFolderIsMadeAndOneThatCannotBeIsNamedAsTyped() throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        let manifest = try folder.campaign(jobs: [["id": "a", "images": ["s0.png", "s1.png"], "outputs": ["out/a.mp4"]]])
        #expect(try BatchCLI.run(["batch", manifest, "--report", "reports/2026/report.json"], in: folder.path).status == 0)
        #expect(FileManager.default.fileExists(atPath: folder.path + "/reports/2026/report.json"))
        _ = try folder.write("blocked", "a file")
        let refused = try BatchCLI.run(["batch", manifest, "--report", "blocked/nights/index.html"], in: folder.path)
        #expect(refused.status == 73 && refused.stderr.contains("--report 'blocked/nights/index.html'") && refused.stderr.contains("blocked is not a folder"), "\(refused)")
        #expect(refused.stderr.split(separator: "\n").count == 1, "\(refused)")
        for (arguments, words) in [(["--history", "5"], "give --report PAGE.html"), (["--report", "i.html", "--history", "1001"], "whole number 0–1000")] {
            let run = try BatchCLI.run(["batch", manifest] + arguments, in: folder.path)
            #expect(run.status == 64 && run.stderr.contains(words), "\(arguments): \(run)")
        }
    }
}
