// The morning page in a real browser: Debian's Chromium, headless, with every host name made
// unresolvable. A 36-job campaign with two failures renders, the run writes the page, and the
// browser shows every tile, the failures first, and every picture loads. `make test` installs
// chromium; without it these tests fail and say so.

import Foundation
import Testing

/// Debian's headless Chromium, run for a test.
enum Chromium {
    /// The browser on PATH.
    static func path() throws -> String {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
        for folder in folders + ["/usr/bin"] where FileManager.default.isExecutableFile(atPath: folder + "/chromium") {
            return folder + "/chromium"
        }
        throw HarnessError("chromium is missing: run make test, which installs Debian's chromium package (apt-get install chromium) for the report page's browser tests")
    }

    /// Runs headless Chromium on `arguments` in `folder`, with a profile of its own there, no
    /// sandbox (tests may run as root) and no host name that resolves: the page must need no network.
    /// coreutils' timeout ends a browser that hangs (exit 124) whatever happens to this process.
    /// One process, no zygote: on this project's VMs (kernel 6.x), a zygote reaping its renderers
    /// twice sat for over 15 minutes in the kernel (wait4 → release_task →
    /// proc_invalidate_siblings_dcache → shrink_dcache_parent), one core busy and SIGKILL
    /// unheeded, and the suite's other tests stalled behind it on two cores. No crash reporter
    /// either (two crashpad handlers, double-forked, otherwise start with every browser), and
    /// HOME is the scratch folder, so nothing is written to the user's ~/.config.
    static func run(_ arguments: [String], in folder: String) throws -> CLIResult {
        let result = try CLI.run(["-k", "10", "240", try path(), "--headless", "--no-sandbox", "--single-process", "--no-zygote", "--disable-gpu",
                                  "--disable-crashpad-for-testing", "--disable-breakpad", "--no-first-run",
                                  "--no-default-browser-check", "--disable-extensions", "--disable-background-networking",
                                  "--user-data-dir=\(folder)/.chromium-profile", "--host-resolver-rules=MAP * ~NOTFOUND"] + arguments,
                                 in: folder, executable: "/usr/bin/timeout", timeout: 300, environment: ["HOME": folder])
        if result.status == 124 || result.status == 137 { throw HarnessError("chromium \(arguments.joined(separator: " ")) did not finish within 240 s") }
        return result
    }
}

@Suite(.serialized, .timeLimit(.minutes(10))) struct ReportPageBrowserTests {
    /// 36 jobs in manifest order; jobs 7 and 23 fail on a corrupt still. Even jobs write a poster
    /// of their own, odd ones a video only (the run makes their poster).
    private func campaign(_ folder: CampaignFolder) throws -> String {
        try folder.campaign(jobs: (0..<36).map { index -> [String: Any] in
            let broken = index == 7 || index == 23
            let outputs = index % 2 == 0 ? ["out/job-\(index).mp4", "out/job-\(index).jpg"] : ["out/job-\(index).mp4"]
            return ["id": "job-\(index)", "images": ["s\(index % 3).png", broken ? "corrupt.png" : "s\((index + 1) % 3).png"], "outputs": outputs]
        })
    }

    /// What the check script found once every picture had loaded or failed.
    private struct Seen: Decodable {
        struct Picture: Decodable { let src: String; let complete: Bool; let width: Int }
        struct Tile: Decodable { let id: String; let status: String; let top: Double; let left: Double; let width: Double; let height: Double }
        let pictures: [Picture]
        let tiles: [Tile]
    }

    /// The check run in the browser: after load, it waits until every picture has loaded or
    /// failed, then writes what it saw (base64 JSON) into the DOM for --dump-dom. It goes into a
    /// copy of the page beside it, so links resolve as on the page itself.
    private static let script = """
    <script>
    function report() {
      var seen = {pictures: [].map.call(document.images, function (i) { return {src: i.getAttribute('src'), complete: i.complete, width: i.naturalWidth}; }),
                  tiles: [].map.call(document.querySelectorAll('article'), function (t) { var r = t.getBoundingClientRect();
                    return {id: t.querySelector('h3').textContent, status: t.querySelector('.state b').textContent, top: r.top, left: r.left, width: r.width, height: r.height}; })};
      var out = document.createElement('pre'); out.id = 'seen'; out.textContent = btoa(unescape(encodeURIComponent(JSON.stringify(seen))));
      document.body.appendChild(out);
    }
    function wait() { if ([].every.call(document.images, function (i) { return i.complete; })) report(); else setTimeout(wait, 50); }
    addEventListener('load', function () { setTimeout(wait, 50); });
    </script>
    """

    @Test func aCampaignWithTwoFailuresShowsEveryTileFailuresFirstAndEveryPictureLoads() throws {
        // Said before anything renders: without the browser, nothing here can be checked.
        _ = try Chromium.path()
        let folder = try CampaignFolder()
        defer { folder.remove() }
        let manifest = try campaign(folder)
        let run = try BatchCLI.run(["batch", manifest, "--report", "index.html"], in: folder.path)
        #expect(run.status == 1, "\(run.stderr)")
        let page = try String(contentsOfFile: folder.path + "/index.html", encoding: .utf8)
        // Self-contained: no script, nothing addressed on the network or by an absolute path.
        #expect(!page.contains("<script") && !page.contains("http:") && !page.contains("https:"))
        #expect(!page.contains("src=\"/") && !page.contains("href=\"/"))

        // As the browser parses it, without any script: 36 tiles, the two failures first.
        let dom = try Chromium.run(["--dump-dom", URL(fileURLWithPath: folder.path + "/index.html").absoluteString], in: folder.path)
        try #require(dom.status == 0, "\(dom)")
        let articles = dom.stdout.components(separatedBy: "<article ").dropFirst()
        #expect(articles.count == 36, "\(dom.stdout.prefix(2000))")
        #expect(articles.prefix(2).allSatisfy { $0.hasPrefix("class=\"tile s-failed\"") }, "\(articles.prefix(2))")
        #expect(articles.dropFirst(2).allSatisfy { $0.hasPrefix("class=\"tile s-rendered\"") })

        // Laid out and loaded: a window tall enough to show every tile, so every lazy picture is fetched.
        try Data((page.replacingOccurrences(of: "</body>", with: Self.script + "\n</body>")).utf8)
            .write(to: URL(fileURLWithPath: folder.path + "/check.html"))
        let checked = try Chromium.run(["--window-size=1280,8000", "--virtual-time-budget=60000", "--dump-dom",
                                        URL(fileURLWithPath: folder.path + "/check.html").absoluteString], in: folder.path)
        try #require(checked.status == 0, "\(checked)")
        let encoded = try #require(checked.stdout.firstMatch(of: /<pre id="seen">([A-Za-z0-9+\/=]+)<\/pre>/)?.1, "the check never finished: \(checked.stdout.suffix(2000))")
        let seen = try JSONDecoder().decode(Seen.self, from: try #require(Data(base64Encoded: String(encoded))))
        // Every tile shown, with a size; the failures in the first row, before every other tile.
        #expect(seen.tiles.count == 36 && seen.tiles.allSatisfy { $0.width > 100 && $0.height > 100 })
        let reading = seen.tiles.sorted { ($0.top, $0.left) < ($1.top, $1.left) }
        #expect(reading.prefix(2).map(\.id) == ["job-7", "job-23"] && reading.prefix(2).allSatisfy { $0.status == "failed" })
        #expect(reading[0].top == reading[1].top && reading[0].left < reading[1].left)
        #expect(reading.dropFirst(2).allSatisfy { $0.status == "rendered" })
        #expect(Set(seen.tiles.map(\.id)) == Set((0..<36).map { "job-\($0)" }))
        // A picture for each of the 34 rendered jobs: 18 their own posters, 16 made by the run; all loaded.
        #expect(seen.pictures.count == 34)
        #expect(seen.pictures.filter { $0.src.hasPrefix("out/") }.count == 18 && seen.pictures.filter { $0.src.hasPrefix("index.files/") }.count == 16)
        let broken = seen.pictures.filter { !$0.complete || $0.width == 0 }
        #expect(broken.isEmpty, "pictures that did not load: \(broken.map(\.src))")
    }

    /// What the history check saw of each tile of a night's page, once its pictures had loaded.
    private struct NightTile: Decodable {
        let id: String
        let status: String
        let live: String?
        let picture: String?
        let loaded: Bool
        let sources: [String]
    }

    /// The check run in a night's page: each tile's status, its "previous version" line, its
    /// picture (loaded or not) and its player's sources, written into the DOM once every
    /// picture has loaded or failed.
    private static let nightScript = """
    <script>
    function report() {
      var seen = [].map.call(document.querySelectorAll('article'), function (t) {
        var img = t.querySelector('img'), live = t.querySelector('.live');
        return {id: t.querySelector('h3').textContent, status: t.querySelector('.state b').textContent, live: live ? live.textContent : null,
                picture: img ? img.getAttribute('src') : null, loaded: img ? img.complete && img.naturalWidth > 0 : false,
                sources: [].map.call(t.querySelectorAll('video source'), function (s) { return s.getAttribute('src'); })};
      });
      var out = document.createElement('pre'); out.id = 'seen'; out.textContent = btoa(unescape(encodeURIComponent(JSON.stringify(seen))));
      document.body.appendChild(out);
    }
    function wait() { if ([].every.call(document.images, function (i) { return i.complete; })) report(); else setTimeout(wait, 50); }
    addEventListener('load', function () { setTimeout(wait, 50); });
    </script>
    """

    @Test func theFailedNightSurvivesAMorningRunAndShowsThePreviousVersionLive() throws {
        _ = try Chromium.path()
        let folder = try CampaignFolder()
        defer { folder.remove() }
        let manifest = try folder.campaign(jobs: [
            ["id": "a", "images": ["s0.png", "s2.png"], "outputs": ["out/a.mp4", "out/a.jpg"]],
            ["id": "b", "images": ["s1.png", "s2.png"], "outputs": ["out/b.mp4", "out/b.webm"]],
            ["id": "c", "images": ["s0.png", "s1.png"], "outputs": ["out/c.mp4"]],
        ])
        // The first night renders everything; the second, a damaged photo fails a and b; a
        // manual run in the morning, the photo mended, finds everything up to date.
        let good = try Data(contentsOf: URL(fileURLWithPath: folder.path + "/s2.png"))
        let first = try BatchCLI.run(["batch", manifest, "--report", "nights/index.html"], in: folder.path)
        try #require(first.status == 0, "\(first.stderr)")
        _ = try folder.write("s2.png", "\u{89}PNG\r\n\u{1A}\nbroken")
        #expect(try BatchCLI.run(["batch", manifest, "--report", "nights/index.html"], in: folder.path).status == 1)
        try good.write(to: URL(fileURLWithPath: folder.path + "/s2.png"))
        let morning = try BatchCLI.run(["batch", manifest, "--report", "nights/index.html"], in: folder.path)
        try #require(morning.status == 0, "\(morning.stderr)")

        // The morning's page, as the browser parses it: three runs kept, newest first, the
        // failed night marked and linked.
        let dom = try Chromium.run(["--dump-dom", URL(fileURLWithPath: folder.path + "/nights/index.html").absoluteString], in: folder.path)
        try #require(dom.status == 0, "\(dom)")
        let nights = dom.stdout.matches(of: /<li( class="fail")?><a href="(index\.history\/[^"]+\.html)">/).map { ($0.1 != nil, String($0.2)) }
        #expect(nights.map(\.0) == [false, true, false], "\(dom.stdout.prefix(3000))")
        let failedNight = try #require(nights.first(where: \.0)?.1)

        // The failed night's page, kept: laid out and its pictures loaded.
        let page = try String(contentsOfFile: folder.path + "/nights/" + failedNight, encoding: .utf8)
        try Data(page.replacingOccurrences(of: "</body>", with: Self.nightScript + "\n</body>").utf8)
            .write(to: URL(fileURLWithPath: folder.path + "/nights/index.history/check.html"))
        let checked = try Chromium.run(["--window-size=1280,4000", "--virtual-time-budget=60000", "--dump-dom",
                                        URL(fileURLWithPath: folder.path + "/nights/index.history/check.html").absoluteString], in: folder.path)
        try #require(checked.status == 0, "\(checked)")
        let encoded = try #require(checked.stdout.firstMatch(of: /<pre id="seen">([A-Za-z0-9+\/=]+)<\/pre>/)?.1, "the check never finished: \(checked.stdout.suffix(2000))")
        let tiles = try JSONDecoder().decode([NightTile].self, from: try #require(Data(base64Encoded: String(encoded))))
        #expect(tiles.map(\.id) == ["a", "b", "c"] && tiles.map(\.status) == ["failed", "failed", "skipped"], "\(tiles)")
        // The failed jobs: their earlier render is live, said with when, shown with its picture
        // (a's own poster, b's made for the page), and playable.
        for tile in tiles.prefix(2) {
            #expect(tile.live?.hasPrefix("previous version live, rendered 20") == true, "\(tile)")
            #expect(tile.loaded, "\(tile)")
        }
        #expect(tiles[0].picture == "../../out/a.jpg" && tiles[1].picture == "../index.files/b.jpg", "\(tiles)")
        #expect(tiles[1].sources == ["../../out/b.webm", "../../out/b.mp4"] && tiles[0].sources == ["../../out/a.mp4"], "\(tiles)")
        #expect(tiles[2].live == nil && tiles[2].loaded, "\(tiles)")
    }
}
