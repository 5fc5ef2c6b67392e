// The morning page from a report's JSON: failures first, then new renders, then the rest; each
// tile's picture is a file the run wrote (its own poster, else the page's), or a placeholder
// saying why; links are relative to the page; nothing from the report reaches the HTML raw.

import Foundation
import SliceKit
import SlicePipeline
import Testing
@testable import SliceReports

@Suite struct ReportPageTests {
    private func job(_ id: String, index: Int, status: String, outputs: [[String: Any]] = [], extra: [String: Any] = [:]) -> [String: Any] {
        var job: [String: Any] = ["id": id, "index": index, "status": status, "outputs": outputs]
        for (key, value) in extra { job[key] = value }
        return job
    }

    private func report(_ jobs: [[String: Any]]) -> [String: Any] {
        ["schema": 3, "slicevid": "0.4.0", "manifest": "/srv/c/campaign.json", "status": "some-failed", "jobs": jobs]
    }

    @Test func failuresComeFirstThenNewRendersThenTheRestEachInManifestOrder() throws {
        let page = try ReportPage(report: report([
            job("a", index: 0, status: "skipped"), job("b", index: 1, status: "rendered"), job("c", index: 2, status: "failed"),
            job("d", index: 3, status: "pending"), job("e", index: 4, status: "rendered"), job("f", index: 5, status: "failed"),
            job("g", index: 6, status: "interrupted"), job("h", index: 7, status: "edited"),
        ]), page: "/srv/c/index.html", isPicture: { _ in false })
        #expect(page.tiles.map(\.id) == ["c", "f", "d", "g", "b", "e", "a", "h"])
        #expect(page.tiles.map(\.group) == [.failed, .failed, .stopped, .stopped, .rendered, .rendered, .skipped, .other])
        let html = page.text
        // The sections in the same order, each tile once.
        let order = ["id=\"job-2\"", "id=\"job-5\"", "id=\"job-3\"", "id=\"job-6\"", "id=\"job-1\"", "id=\"job-4\"", "id=\"job-0\"", "id=\"job-7\""]
        let places = order.map { html.range(of: $0)?.lowerBound }
        #expect(places.allSatisfy { $0 != nil })
        #expect(places.compactMap { $0 } == places.compactMap { $0 }.sorted())
        #expect(html.components(separatedBy: "<article ").count - 1 == 8)
        #expect(html.contains("<a href=\"#failed\" class=\"g-failed\">2 failed</a>"))
    }

    @Test func aTileShowsTheJobsOwnPictureElseThePagesPosterElseSaysWhy() throws {
        let present: Set<String> = ["/srv/c/out/a.jpg", "/srv/c/index.files/b.jpg", "/srv/c/out/f.png"]
        let page = try ReportPage(report: report([
            // Its own poster, written by the run.
            job("a", index: 0, status: "rendered", outputs: [["path": "/srv/c/out/a.mp4", "bytes": 10, "fps": "30", "seconds": 2.0],
                                                             ["path": "/srv/c/out/a.jpg", "bytes": 5, "fps": NSNull(), "seconds": 0]]),
            // None of its own: the page's.
            job("b", index: 1, status: "skipped", outputs: [["path": "/srv/c/out/b.mp4", "bytes": 10]], extra: ["poster": "/srv/c/index.files/b.jpg"]),
            // Its poster was deleted since.
            job("c", index: 2, status: "rendered", outputs: [["path": "/srv/c/out/c.jpg", "bytes": 5]]),
            // Making the page's poster failed.
            job("d", index: 3, status: "rendered", outputs: [["path": "/srv/c/out/d.mp4", "bytes": 10]], extra: ["poster_error": "no room"]),
            // No picture anywhere (a report written without a page).
            job("e", index: 4, status: "rendered", outputs: [["path": "/srv/c/out/e.mp4", "bytes": 10]]),
            // Failed: its earlier poster is not shown as if it were new.
            job("f", index: 5, status: "failed", outputs: [["path": "/srv/c/out/f.png"]], extra: ["error": "broken"]),
            // A frame sequence is not a poster.
            job("g", index: 6, status: "rendered", outputs: [["path": "/srv/c/out/g/%04d.png", "bytes": 10]]),
        ]), page: "/srv/c/index.html", isPicture: present.contains)
        let pictures = Dictionary(uniqueKeysWithValues: page.tiles.map { ($0.id, $0.picture) })
        #expect(pictures["a"] == .image(path: "/srv/c/out/a.jpg", link: "out/a.jpg"))
        #expect(pictures["b"] == .image(path: "/srv/c/index.files/b.jpg", link: "index.files/b.jpg"))
        #expect(pictures["c"] == .none("c.jpg is not on disk"))
        #expect(pictures["d"] == .none("no poster: no room"))
        guard case .none(let why)? = pictures["e"] else { Issue.record("e has a picture"); return }
        #expect(why.contains("a batch that writes this page makes one"))
        #expect(pictures["f"] == .none("failed: nothing new to show"))
        guard case .none? = pictures["g"] else { Issue.record("a frame sequence shown as a picture"); return }
        // Lazy pictures, each linked to its file; an output not written is named, not linked.
        let html = page.text
        #expect(html.contains("<img src=\"out/a.jpg\" alt=\"a\" loading=\"lazy\" decoding=\"async\">"))
        #expect(html.contains("<s>f.png</s>"))
        #expect(html.components(separatedBy: "<img ").count - 1 == 2)
    }

    @Test func linksAreRelativeToThePageAndPercentEncoded() throws {
        #expect(ReportPage.relative("/srv/c/out/a.mp4", from: "/srv/c") == "out/a.mp4")
        #expect(ReportPage.relative("/srv/other/a.mp4", from: "/srv/c/pages") == "../../other/a.mp4")
        #expect(ReportPage.relative("/a.mp4", from: "/") == "a.mp4")
        #expect(ReportPage.relative("/srv/c/x/../out/a.mp4", from: "/srv/c/") == "out/a.mp4")
        let page = try ReportPage(report: report([
            job("odd", index: 0, status: "rendered", outputs: [["path": "/srv/c/out/a #1?%.jpg", "bytes": 5]]),
        ]), page: "/srv/c/pages/index.html", isPicture: { _ in true })
        #expect(page.text.contains("src=\"../out/a%20%231%3F%25.jpg\""))
        // Reasons name files in the page's folder as the links do.
        let why = try ReportPage(report: report([
            job("w", index: 0, status: "rendered", extra: ["why": "still 1 (/srv/c/stills/x.png) changed; /srv/cx/y.png"]),
        ]), page: "/srv/c/index.html", isPicture: { _ in false })
        #expect(why.tiles[0].why == "still 1 (stills/x.png) changed; /srv/cx/y.png")
    }

    @Test func nothingFromTheReportReachesTheHTMLRaw() throws {
        let hostile = "<script>alert(1)</script>\"'&\u{1B}[31m\u{202E}gnp.exe\u{7}\n"
        let page = try ReportPage(report: [
            "schema": 3, "slicevid": hostile, "manifest": "/srv/\(hostile)/campaign.json", "status": hostile, "started": hostile,
            "problems": [hostile], "shard": hostile, "description": hostile,
            "jobs": [job(hostile, index: 0, status: "failed", outputs: [["path": "/srv/\(hostile).mp4", "bytes": 1],
                                                                       ["path": "/srv/\(hostile).webm", "live": ["bytes": 1, "written": hostile]]],
                         extra: ["error": hostile, "previous_poster": "/srv/\(hostile).png"]),
                     job("x", index: 1, status: hostile, extra: ["why": hostile, "row": ["key": hostile, "feed": hostile, "line": 2]]),
                     job("y", index: 2, status: "rendered", outputs: [["path": "/srv/\(hostile).jpg", "bytes": 1]], extra: ["why": hostile])],
        ], page: "/srv/index.html", source: hostile, nights: [ReportPage.Night(link: "index.history/\(hostile).html", started: nil, status: hostile,
                                                                                 counts: [hostile: 1, "failed": 2])],
           isPicture: { _ in true })
        let html = page.text
        #expect(html.contains("<details class=\"nights\"") && html.contains("previous version live") && html.contains("<video "))
        #expect(!html.contains("<script"), "a tag from the report")
        #expect(!html.contains("\"'&\u{1B}"), "quotes from the report")
        for scalar in html.unicodeScalars {
            let raw = (scalar.value < 0x20 && scalar != "\n") || (0x7F...0x9F).contains(scalar.value) || [0x202E, 0x2028, 0x2029].contains(scalar.value)
            #expect(!raw, "U+\(String(scalar.value, radix: 16)) raw in the page")
        }
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&amp;\\u{1B}[31m\\u{202E}gnp.exe\\u{7}\\n"))
        // In a URL the same text is percent-encoded, so it stays one attribute value.
        #expect(html.contains("%3Cscript%3Ealert%281%29%3C/script%3E%22%27%26%1B%5B31m%E2%80%AEgnp.exe%07%0A.jpg"))
    }

    @Test func aFeedRowsJobsStandTogetherUnderItsKeyWithTheirLoudnessAndTheCampaignsTitle() throws {
        func row(_ key: String) -> [String: Any] { ["row": ["key": key, "feed": "products.csv", "line": 2]] }
        let video: [[String: Any]] = [["path": "/srv/c/out/x.mp4", "bytes": 10, "fps": "30", "seconds": 2.0, "loudness": -14.04]]
        // Manifest order interleaves the rows (variant by variant); the page groups them by row.
        let page = try ReportPage(report: [
            "schema": 3, "slicevid": "0.4.0", "manifest": "/srv/c/campaign.json", "status": "ok", "description": "  Summer feed  ",
            "started": "2026-12-04T01:00:13.250Z",
            "jobs": [job("NL-1-16x9", index: 0, status: "rendered", outputs: video, extra: row("NL-1")),
                     job("NL-2-16x9", index: 1, status: "rendered", extra: row("NL-2")),
                     job("NL-1-9x16", index: 2, status: "rendered", extra: row("NL-1")),
                     job("NL-2-9x16", index: 3, status: "rendered", extra: row("NL-2")),
                     job("solo", index: 4, status: "rendered")],
        ], page: "/srv/c/index.html", isPicture: { _ in false })
        #expect(page.tiles.map(\.id) == ["NL-1-16x9", "NL-1-9x16", "NL-2-16x9", "NL-2-9x16", "solo"])
        let html = page.text
        #expect(html.components(separatedBy: "<h3 class=\"row\">").count == 3)
        #expect(html.range(of: "<h3 class=\"row\">NL-1</h3>")!.lowerBound < html.range(of: "id=\"job-0\"")!.lowerBound)
        #expect(html.range(of: "id=\"job-2\"")!.lowerBound < html.range(of: "<h3 class=\"row\">NL-2</h3>")!.lowerBound)
        #expect(html.contains("<span>2.00 s · 10 B · -14.0 LUFS</span>"))
        #expect(html.contains("<title>Summer feed: 5 rendered</title>") && html.contains("<h1>Summer feed</h1>"))
        // The start in the local time of whoever makes the page, with its zone.
        #expect(html.contains("started " + ReportPage.localTime(ReportPage.date("2026-12-04T01:00:13.250Z")!, seconds: true)))
        #expect(ReportPage.localTime(Date(timeIntervalSince1970: 0), seconds: true).hasSuffix(" (" + Self.offset(TimeZone.current.secondsFromGMT(for: Date(timeIntervalSince1970: 0))) + ")"))
    }

    @Test func orphansLeftAreNamedWithTheJobThatWroteThemAndWhyTheyWereKept() throws {
        var object = report([job("a", index: 0, status: "rendered")])
        object["orphans"] = [
            ["path": "/srv/c/out/NL-106.mp4", "job": "NL-106", "bytes": 10, "pruned": false, "kept": "/srv/c/out/NL-106.mp4 changed since slicevid wrote it"],
            ["path": "/srv/c/out/NL-107.mp4", "job": "NL-107", "bytes": 10, "pruned": false, "kept": NSNull()],
            ["path": "/srv/c/out/NL-108.mp4", "job": "NL-108", "bytes": 10, "pruned": true, "kept": NSNull()],
            ["path": "/elsewhere/<b>.mp4", "job": "<i>", "bytes": 10, "pruned": false, "kept": "<script>"],
        ]
        let html = try ReportPage(report: object, page: "/srv/c/index.html", isPicture: { _ in false }).text
        #expect(html.contains("<li>Orphans left<ul><li>out/NL-106.mp4 (job NL-106): kept: out/NL-106.mp4 changed since slicevid wrote it</li>"
            + "<li>out/NL-107.mp4 (job NL-107): left: not pruned by this run</li>"
            + "<li>/elsewhere/&lt;b&gt;.mp4 (job &lt;i&gt;): kept: &lt;script&gt;</li></ul></li>"), "\(html)")
        #expect(!html.contains("NL-108.mp4") && html.contains("1 orphaned output was pruned"))
    }

    /// `+01:00` for 3600 seconds east of UTC.
    private static func offset(_ seconds: Int) -> String {
        String(format: "%@%02d:%02d", seconds < 0 ? "-" : "+", abs(seconds) / 3600, abs(seconds) % 3600 / 60)
    }

    @Test func aJobThatIsNotOneIsRefusedNamingIt() {
        #expect(throws: SlicevidError.self) {
            try ReportPage(report: report([["id": "a"]]), page: nil, source: "r.json", isPicture: { _ in false })
        }
        do {
            _ = try ReportPage(report: report([job("a", index: 0, status: "rendered"), ["status": "rendered"]]), page: nil, source: "r.json", isPicture: { _ in false })
        } catch {
            #expect(error.category == .inputInvalid && error.message(KeyWording()).contains("'r.json': jobs[1] is not a job"))
        }
    }

    @Test func errorTextsShowPathsInThePageFolderRelativeAndEveryOtherPathWhole() throws {
        // The page's folder was cut out of the middle of longer paths: /data/srv/c/x.png read /datax.png.
        let error = "/srv/c/out/a.mp4: /data/srv/c/x.png: no such file; see '/srv/c/y.png' (/srv/c/z.png) and /srv/cx/w.png, not ~/srv/c/v.png"
        let page = try ReportPage(report: report([job("f", index: 0, status: "failed", extra: ["error": error])]),
                                  page: "/srv/c/index.html", isPicture: { _ in false })
        #expect(page.tiles[0].error == "out/a.mp4: /data/srv/c/x.png: no such file; see 'y.png' (z.png) and /srv/cx/w.png, not ~/srv/c/v.png")
        #expect(ReportPage.relativePaths(in: "/srv/c/", folder: "/srv/c") == "")
        #expect(ReportPage.relativePaths(in: "x/srv/c/a", folder: "/srv/c") == "x/srv/c/a")
        #expect(ReportPage.relativePaths(in: "é /srv/é/a", folder: "/srv/é") == "é a")
    }

    @Test func aHostileReportMakesAPageOfBoundedSize() throws {
        // Texts cut on the tile, and the page stops at its bound saying how many it leaves out.
        let long = String(repeating: "&", count: 100_000)
        let jobs = (0..<40).map { job("\($0)", index: $0, status: "failed", extra: ["error": long]) }
        let page = try ReportPage(report: report(jobs), page: "/srv/c/index.html", isPicture: { _ in false })
        #expect(page.tiles[0].error == String(repeating: "&", count: 2_000) + "… (100000 characters)")
        let whole = page.text(largest: 1 << 30), bounded = page.text(largest: 100_000)
        #expect(whole.utf8.count > 400_000 && whole.components(separatedBy: "<article ").count == 41)
        #expect(bounded.utf8.count < 120_000 && bounded.components(separatedBy: "<article ").count <= 11, "\(bounded.utf8.count)")
        #expect(bounded.contains("more jobs are not shown: the page stops at ") && bounded.hasSuffix("</html>\n"))
    }

    @Test func aPlainIdNeverTakesTheNameOfAnotherIdsHashedPoster() {
        // Crafted ids made two posters share a name: `a!`'s hashed name, taken as a plain id.
        let hashed = ReportPage.posterName(for: "a!")
        #expect(hashed.hasPrefix("a_-") && hashed.hasSuffix(".jpg"))
        let lookalike = String(hashed.dropLast(".jpg".count))
        #expect(ReportPage.posterName(for: lookalike) != hashed)
        #expect(ReportPage.posterName(for: lookalike).hasPrefix(lookalike + "-"))
        // Ids that differ only where the plain characters are kept still differ by their hash.
        #expect(ReportPage.posterName(for: "a/b") != ReportPage.posterName(for: "a?b"))
        #expect(ReportPage.posterName(for: "plain-id") == "plain-id.jpg")
    }

    @Test func posterNamesArePlainFileNamesAndNeverShared() {
        #expect(ReportPage.posterName(for: "NL-101-480x270-nl") == "NL-101-480x270-nl.jpg")
        let odd = ["a/b", "a_b", "../x", ".hidden", "", "é", "e", String(repeating: "x", count: 300), "a b", "a\u{0}b"]
        let names = odd.map(ReportPage.posterName(for:))
        #expect(Set(names).count == odd.count, "\(names)")
        for name in names {
            #expect(!name.hasPrefix(".") && !name.contains("/") && name.utf8.count <= 100, "\(name)")
            #expect(name.unicodeScalars.allSatisfy { $0.isASCII && $0.value > 0x20 }, "\(name)")
        }
        #expect(ReportPage.posterFolder(for: "/srv/c/index.html") == "/srv/c/index.files")
        #expect(ReportPage.posterFolder(for: "morning.HTM") == "morning.files")
        #expect(ReportPage.sibling(of: "reports/index.html", extension: "json") == "reports/index.json")
        #expect(ReportPage.isPage("x.HTML") && ReportPage.isPage("x.htm") && !ReportPage.isPage("x.json") && !ReportPage.isPage("html"))
    }
}
