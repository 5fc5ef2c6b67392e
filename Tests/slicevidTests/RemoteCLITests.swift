// Stills given as URLs, as a shop's feed gives them, served by a real HTTP server on 127.0.0.1
// that counts what it is asked (`AssetServer`): the first night fetches, the second transfers
// nothing (every request a 304) and renders nothing; a changed image re-renders exactly its
// row, the plan naming its versions; a 404 fails its job alone with one line naming the URL and
// status, a server that only fails for now makes the run's exit worth a retry (75); a URL's
// token appears in no output of slicevid; `make --from URL` renders what it fetched; an image its
// server calls fresh (max-age) is not asked about again until `--revalidate`.

import Foundation
import SliceMedia
import StillFixtures
import Testing

@Suite(.serialized, .timeLimit(.minutes(10))) struct RemoteCLITests {
    /// A campaign folder whose stills the server serves, and a feed of `rows` (sku, image).
    final class Scene {
        let folder: CampaignFolder
        let server: AssetServer
        var cache: String { folder.path + "/cache" }

        init() throws {
            folder = try CampaignFolder()
            try FileManager.default.createDirectory(atPath: folder.path + "/served", withIntermediateDirectories: true)
            for index in 0..<3 { try folder.still("served/p\(index).png", index: index) }
            server = try AssetServer(root: folder.path + "/served")
        }

        /// The manifest: one job per row, from the shared opening still to the row's image.
        func manifest(rows: [(sku: String, image: String)]) throws -> String {
            let csv = "sku,image\n" + rows.map { "\($0.sku),\($0.image)\n" }.joined()
            try folder.write("products.csv", csv)
            return try folder.campaign(jobs: [[
                "id": "{sku}",
                "rows": ["file": "products.csv", "key": "sku"],
                "images": [server.base + "/img/p0.png?token=SEKRIT0", "{image}"],
                "outputs": ["out/{sku}.mp4"],
            ]])
        }

        func batch(_ arguments: [String]) throws -> (status: Int32, stderr: String) {
            try BatchCLI.run(["batch"] + arguments + ["--cache", cache, "--log-format", "plain"], in: folder.path)
        }

        deinit {
            server.stop()
            folder.remove()
        }
    }

    static func statuses(_ path: String) throws -> [String: String] {
        let report = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        var statuses: [String: String] = [:]
        for job in report["jobs"] as? [[String: Any]] ?? [] { statuses[job["id"] as? String ?? ""] = job["status"] as? String }
        return statuses
    }

    @Test func anImageItsServerCallsFreshIsNotAskedAboutUntilRevalidateSaysSo() throws {
        let scene = try Scene()
        // p0 comes without a word on freshness, p1 with max-age=3600.
        let manifest = try scene.manifest(rows: [("A", scene.server.base + "/fresh/p1.png")])
        #expect(try scene.batch([manifest]).status == 0)
        let second = try scene.batch([manifest, "--report", "night2.json"])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(try Self.statuses(scene.folder.path + "/night2.json") == ["A": "skipped"])
        var asked = try scene.server.stats().byPath
        #expect(asked["/img/p0.png"] == 2 && asked["/fresh/p1.png"] == 1, "\(asked)")
        // --revalidate asks about both; with --offline it is a usage error.
        #expect(try scene.batch([manifest, "--revalidate"]).status == 0)
        asked = try scene.server.stats().byPath
        #expect(asked["/img/p0.png"] == 3 && asked["/fresh/p1.png"] == 2, "\(asked)")
        let both = try scene.batch([manifest, "--revalidate", "--offline"])
        #expect(both.status == 64 && both.stderr.contains("--offline") && both.stderr.contains("--revalidate"), "\(both.stderr)")
    }

    @Test func aSecondNightTransfersNothingAndAChangedImageRendersItsRowOnly() throws {
        let scene = try Scene()
        let base = scene.server.base
        let manifest = try scene.manifest(rows: [("A", base + "/img/p1.png?token=SEKRIT1"), ("B", base + "/img/p2.png?sig=SEKRIT2")])
        let first = try scene.batch([manifest, "--report", "night1.json"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try Self.statuses(scene.folder.path + "/night1.json") == ["A": "rendered", "B": "rendered"])
        let fetched = try scene.server.stats()
        #expect(fetched.requests == 3 + 1 && fetched.notModified == 0) // three images (p0 shared), and the stats

        // Night two, the server unchanged: every image asked once, each a 304; nothing renders.
        let second = try scene.batch([manifest, "--report", "night2.json"])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(try Self.statuses(scene.folder.path + "/night2.json") == ["A": "skipped", "B": "skipped"])
        let revalidated = try scene.server.stats()
        #expect(revalidated.notModified == 3)
        #expect(revalidated.bodyBytes == fetched.bodyBytes, "night two sent \(revalidated.bodyBytes - fetched.bodyBytes) bytes of bodies")

        // B's image changes at the same URL: the plan names it and its versions; B renders, A does not.
        try scene.folder.still("served/p2.png", index: 7)
        let plan = try BatchCLI.run(["batch", manifest, "--plan", "--cache", scene.cache], in: scene.folder.path)
        #expect(plan.stderr.contains("still 1 (\(base)/img/p2.png?sig=REDACTED) changed (ETag \""), "\(plan.stderr)")
        #expect(plan.stderr.contains("\" → \""), "\(plan.stderr)")
        let third = try scene.batch([manifest, "--report", "night3.json"])
        #expect(third.status == 0, "\(third.stderr)")
        #expect(try Self.statuses(scene.folder.path + "/night3.json") == ["A": "skipped", "B": "rendered"])
        // The clip B rendered decodes to its frames.
        #expect(try MediaReader.info(path: scene.folder.path + "/out/B.mp4").frameCount == 6)
        for output in [plan.stderr, third.stderr] + (try ["night1.json", "night2.json", "night3.json"].map { try String(contentsOfFile: scene.folder.path + "/" + $0, encoding: .utf8) }) {
            #expect(!output.contains("SEKRIT"))
        }
    }

    @Test func aMissingImageFailsItsJobAloneAndNoTokenReachesAnyOutput() throws {
        let scene = try Scene()
        let base = scene.server.base
        let manifest = try scene.manifest(rows: [("A", base + "/img/p1.png?token=SEKRIT1"), ("GONE", "http://u:SEKRITPW@" + base.dropFirst(7) + "/img/gone.png?X-Amz-Signature=SEKRIT3")])
        let run = try scene.batch([manifest, "--report", "page.html"])
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains("GONE") && run.stderr.contains("\(base)/img/gone.png?X-Amz-Signature=REDACTED: HTTP 404"), "\(run.stderr)")
        let json = try BatchCLI.run(["batch", manifest, "--cache", scene.cache, "--log-format", "json"], in: scene.folder.path)
        #expect(json.status == 1)
        // Everything slicevid wrote or said: logs, the report, its page, sidecars, the cache's index.
        var outputs = [run.stderr, json.stderr]
        for file in FileManager.default.subpaths(atPath: scene.folder.path) ?? [] where !file.hasPrefix("served") && !file.hasSuffix(".csv")
            && !file.hasSuffix("campaign.json") && !file.contains("/objects/") {
            if let data = FileManager.default.contents(atPath: scene.folder.path + "/" + file) { outputs.append(String(decoding: data, as: UTF8.self)) }
        }
        #expect(outputs.count > 6)
        for output in outputs { #expect(!output.contains("SEKRIT"), "\(output.prefix(300))") }
    }

    @Test func aServerThatFailsForNowMakesTheRunWorthARetry() throws {
        let scene = try Scene()
        let manifest = try scene.manifest(rows: [("A", scene.server.base + "/status/503")])
        let run = try scene.batch([manifest])
        #expect(run.status == 75, "\(run.stderr)")
        #expect(run.stderr.contains("\(scene.server.base)/status/503: HTTP 503, after 4 attempts"), "\(run.stderr)")
        #expect(try scene.server.stats().byPath["/status/503"] == 4)
    }

    @Test func theCacheIsUnderXDGCacheHomeAndOnlyARunWithURLsMakesIt() throws {
        let scene = try Scene()
        let xdg = scene.folder.path + "/xdg"
        let local = try scene.folder.campaign(name: "local.json", jobs: [["id": "L", "images": ["s0.png", "s1.png"], "outputs": ["out/L.mp4"]]])
        let plain = try BatchCLI.run(["batch", local], in: scene.folder.path, environment: ["XDG_CACHE_HOME": xdg])
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(!FileManager.default.fileExists(atPath: xdg), "a run without URLs made the cache")
        let manifest = try scene.manifest(rows: [("A", scene.server.base + "/img/p1.png")])
        let remote = try BatchCLI.run(["batch", manifest], in: scene.folder.path, environment: ["XDG_CACHE_HOME": xdg])
        #expect(remote.status == 0, "\(remote.stderr)")
        #expect((FileManager.default.subpaths(atPath: xdg + "/slicevid/objects") ?? []).filter { $0.contains("/") }.count == 2) // p0 and p1, each objects/AB/SHA256
    }

    @Test func aSongGivenAsAURLIsTheClipsMusicBed() throws {
        let scene = try Scene()
        try FixtureFiles.wav(scene.folder.path + "/served/song.wav", channels: 2, seconds: 1) { i, _ in sin(Double(i) / 20) / 4 }
        let manifest = try scene.folder.campaign(name: "song.json", jobs: [[
            "id": "S", "images": [scene.server.base + "/img/p0.png", scene.server.base + "/img/p1.png"],
            "audio": scene.server.base + "/img/song.wav?token=SEKRIT", "outputs": ["out/S.mp4"],
        ]])
        let run = try scene.batch([manifest])
        #expect(run.status == 0, "\(run.stderr)")
        let probe = try CLI.run(["probe", "--json", "out/S.mp4"], in: scene.folder.path)
        #expect(probe.stdout.contains("\"audio\":\"aac\"") || probe.stdout.contains("\"audio\" : \"aac\""), "\(probe.stdout)")
        #expect(try scene.server.stats().byPath["/img/song.wav"] == 1)
        #expect(!run.stderr.contains("SEKRIT"))
    }

    @Test func makeRendersStillsGivenAsURLs() throws {
        let scene = try Scene()
        let base = scene.server.base
        let result = try CLI.make(["--from", base + "/img/p1.png", "--to", base + "/img/p2.png?token=SEKRIT", "-o", "clip.mp4", "--cache", scene.cache]
                                  + tinyClip, in: scene.folder.path)
        #expect(result.status == 0, "\(result)")
        #expect(try MediaReader.info(path: scene.folder.path + "/clip.mp4").frameCount == tinyClipFrames)
        // A dry run fetches (or revalidates) as the render would, and reads the stills' headers.
        let dry = try CLI.make(["--from", base + "/img/p1.png", "--to", base + "/img/p2.png", "--dry-run", "--cache", scene.cache] + tinyClip,
                               in: scene.folder.path)
        #expect(dry.status == 0, "\(dry)")
        let missing = try CLI.make(["--from", base + "/img/p1.png", "--to", base + "/img/none.png?token=SEKRIT", "-o", "never.mp4", "--cache", scene.cache]
                                   + tinyClip, in: scene.folder.path)
        #expect(missing.status == 66 && missing.stderrIsOneLine, "\(missing)")
        #expect(missing.stderr.contains("\(base)/img/none.png?token=REDACTED: HTTP 404") && !missing.stderr.contains("SEKRIT"), "\(missing)")
    }
}
