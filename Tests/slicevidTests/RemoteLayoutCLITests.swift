// A layout's parts given as URLs, served by a real HTTP server on 127.0.0.1 (`AssetServer`): a
// logo and a font named by URL in a local layout, and a layout (with its brand file, font and
// logo beside it on the server) given to `--layout` and to a manifest as a URL, render the very
// bytes their local copies render; the second night asks each once and gets 304s; a 2 GB font
// is refused at the font cap; a URL's token never reaches an output.

import Foundation
import SliceKit
import SliceMedia
import StillFixtures
import Testing

@Suite(.serialized, .timeLimit(.minutes(10))) struct RemoteLayoutCLITests {
    /// Stills, and the same layout, brand file, font and logo in `local/` and served from `served/`.
    final class Scene {
        let folder: CampaignFolder
        let server: AssetServer
        var cache: String { folder.path + "/cache" }

        init() throws {
            folder = try CampaignFolder()
            for side in ["local", "served"] {
                try FileManager.default.createDirectory(atPath: folder.path + "/" + side, withIntermediateDirectories: true)
                // A font the machine's default set does not draw with, so a render without it differs.
                try FileManager.default.copyItem(atPath: "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf", toPath: folder.path + "/\(side)/Brand.ttf")
                try StillWriter.write(RGBAImage(width: 20, height: 20, color: RGBAColor(red: 20, green: 200, blue: 40)), to: folder.path + "/\(side)/logo.png",
                                      format: .png)
                try folder.write("\(side)/brand.json", ##"{"fonts": ["Brand.ttf"], "colors": {"ink": "#FFFFFF"}, "logo": "logo.png"}"##)
                try folder.write("\(side)/promo.json", Self.layout(logo: "@logo"))
            }
            server = try AssetServer(root: folder.path + "/served")
        }

        static func layout(logo: String, fonts: String? = nil, brand: Bool = true) -> String {
            """
            {\(brand ? #""brand": "brand.json", "# : "")\(fonts.map { #""fonts": ["\#($0)"], "# } ?? "")"layers": [
              {"on": "to", "text": "{name}", "box": [0.06, 0.55, 0.88, 0.3], "color": "\(brand ? "@ink" : "#FFFFFF")"},
              {"on": "over", "image": "\(logo)", "box": [0.8, 0.05, 0.15, 0.2]}
            ]}
            """
        }

        static let clip = ["--from", "s0.png", "--to", "s1.png", "--var", "name=Flat White", "--size", "160x90", "--fps", "10", "--hold", "0.2",
                           "--duration", "0.3", "--slices", "8"]

        func make(_ arguments: [String]) throws -> CLIResult {
            try CLI.make(Self.clip + arguments + ["--cache", cache], in: folder.path)
        }

        func bytes(_ file: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: folder.path + "/" + file)) }

        /// Every file slicevid wrote in the folder (the cache's bodies, and the files the test
        /// wrote: served, layouts, the manifest, aside), as text.
        func writtenTexts() -> [String] {
            let written = (FileManager.default.subpaths(atPath: folder.path) ?? []).filter {
                !$0.hasPrefix("served") && !$0.hasPrefix("local") && !$0.hasSuffix("campaign.json") && !$0.hasSuffix("preset.json") && !$0.contains("/objects/")
            }
            #expect(written.contains { $0.hasPrefix("cache/") }, "\(written)")
            return written.compactMap { file in
                FileManager.default.contents(atPath: folder.path + "/" + file).map { String(decoding: $0, as: UTF8.self) }
            }
        }

        deinit {
            server.stop()
            folder.remove()
        }
    }

    @Test func aLogoAndAFontByURLRenderAsTheirLocalFilesAndTheSecondNightIsAll304() throws {
        let scene = try Scene()
        let base = scene.server.base
        try scene.folder.write("local/urls.json", Scene.layout(logo: base + "/img/logo.png?token=SEKRIT1", fonts: base + "/img/Brand.ttf?sig=SEKRIT2",
                                                               brand: false))
        try scene.folder.write("local/files.json", Scene.layout(logo: "logo.png", fonts: "Brand.ttf", brand: false))
        #expect(try scene.make(["--layout", "local/files.json", "-o", "files.mp4"]).status == 0)
        let fetched = try scene.make(["--layout", "local/urls.json", "-o", "urls.mp4"])
        #expect(fetched.status == 0, "\(fetched)")
        #expect(try scene.bytes("urls.mp4") == scene.bytes("files.mp4"))
        // The font is used: without it the text is drawn otherwise.
        try scene.folder.write("local/nofont.json", Scene.layout(logo: "logo.png", brand: false))
        #expect(try scene.make(["--layout", "local/nofont.json", "-o", "nofont.mp4"]).status == 0)
        #expect(try scene.bytes("nofont.mp4") != scene.bytes("files.mp4"))
        let first = try scene.server.stats()
        #expect(first.byPath["/img/logo.png"] == 1 && first.byPath["/img/Brand.ttf"] == 1 && first.notModified == 0, "\(first)")

        // Night two: each asked once more, each a 304, no body sent; the same bytes again.
        let again = try scene.make(["--layout", "local/urls.json", "-o", "again.mp4"])
        #expect(again.status == 0, "\(again)")
        let second = try scene.server.stats()
        #expect(second.notModified == 2 && second.byPath["/img/logo.png"] == 2 && second.byPath["/img/Brand.ttf"] == 2, "\(second)")
        #expect(second.bodyBytes - first.bodyBytes < 2_000, "night two sent \(second.bodyBytes - first.bodyBytes) bytes of bodies") // the stats answer only
        #expect(try scene.bytes("again.mp4") == scene.bytes("files.mp4"))
        // Offline: the cache alone.
        let offline = try scene.make(["--layout", "local/urls.json", "-o", "offline.mp4", "--offline"])
        #expect(offline.status == 0, "\(offline)")
        #expect(try scene.server.stats().byPath["/img/logo.png"] == 2)
        #expect(try scene.bytes("offline.mp4") == scene.bytes("files.mp4"))
        for text in [fetched.stderr, again.stderr, offline.stderr] + scene.writtenTexts() { #expect(!text.contains("SEKRIT")) }
    }

    @Test func aLayoutByURLWithItsBrandFileRendersAsTheLocalOne() throws {
        let scene = try Scene()
        let base = scene.server.base
        #expect(try scene.make(["--layout", "local/promo.json", "-o", "local.mp4"]).status == 0)
        let remote = try scene.make(["--layout", base + "/img/promo.json?token=SEKRIT", "-o", "remote.mp4"])
        #expect(remote.status == 0, "\(remote)")
        #expect(try scene.bytes("remote.mp4") == scene.bytes("local.mp4"))
        let stats = try scene.server.stats()
        for path in ["/img/promo.json", "/img/brand.json", "/img/Brand.ttf", "/img/logo.png"] { #expect(stats.byPath[path] == 1, "\(path): \(stats)") }
        // Offline: the layout, its brand file, font and logo from the cache alone, no request made.
        let offline = try scene.make(["--layout", base + "/img/promo.json?token=SEKRIT", "-o", "offline.mp4", "--offline"])
        #expect(offline.status == 0, "\(offline)")
        #expect(try scene.server.stats().requests == stats.requests + 1) // the stats request alone
        #expect(try scene.bytes("offline.mp4") == scene.bytes("local.mp4"))
        // A preset naming it by URL keeps the URL (not a path beside the preset).
        try scene.folder.write("remote-preset.json", #"{"layout": "\#(base)/img/promo.json?token=SEKRIT"}"#)
        let preset = try scene.make(["--preset", "./remote-preset.json", "-o", "preset.mp4"])
        #expect(preset.status == 0, "\(preset)")
        #expect(try scene.bytes("preset.mp4") == scene.bytes("local.mp4"))

        // A manifest naming the layout by URL: the same bytes; the second night every file a 304
        // and nothing rendered.
        let manifest = try scene.folder.campaign(jobs: [["id": "A", "images": ["s0.png", "s1.png"], "outputs": ["out/A.mp4"],
                                                         "layout": base + "/img/promo.json?token=SEKRIT", "vars": ["name": "Flat White"]]],
                                                 defaults: ["size": "160x90", "fps": 10, "hold": 0.2, "duration": 0.3, "slices": 8])
        let night1 = try BatchCLI.run(["batch", manifest, "--cache", scene.cache, "--log-format", "plain"], in: scene.folder.path)
        #expect(night1.status == 0, "\(night1.stderr)")
        #expect(try scene.bytes("out/A.mp4") == scene.bytes("local.mp4"))
        let before = try scene.server.stats()
        let night2 = try BatchCLI.run(["batch", manifest, "--cache", scene.cache, "--log-format", "plain", "--report", "night2.json"], in: scene.folder.path)
        #expect(night2.status == 0, "\(night2.stderr)")
        #expect(try RemoteCLITests.statuses(scene.folder.path + "/night2.json") == ["A": "skipped"])
        let after = try scene.server.stats()
        #expect(after.notModified - before.notModified == after.requests - before.requests - 1, "\(before) → \(after)") // all but the stats request
        #expect(after.bodyBytes - before.bodyBytes < 2_000)

        // The logo changes on the server: the plan says so, naming its versions, and the job renders.
        try StillWriter.write(RGBAImage(width: 20, height: 20, color: RGBAColor(red: 200, green: 20, blue: 40)), to: scene.folder.path + "/served/logo.png",
                              format: .png)
        let plan = try BatchCLI.run(["batch", manifest, "--plan", "--cache", scene.cache], in: scene.folder.path)
        #expect(plan.stderr.contains("(\(base)/img/logo.png) changed (ETag \""), "\(plan.stderr)")
        for text in [remote.stderr, night1.stderr, night2.stderr, plan.stderr] + scene.writtenTexts() { #expect(!text.contains("SEKRIT")) }
    }

    @Test func aLogoThatCannotBeHadFailsItsJobAlone() throws {
        let scene = try Scene()
        let base = scene.server.base
        try scene.folder.write("local/gone.json", Scene.layout(logo: base + "/img/gone.png?token=SEKRIT", brand: false))
        let job = { (id: String, layout: String) -> [String: Any] in
            ["id": id, "images": ["s0.png", "s1.png"], "outputs": ["out/\(id).mp4"], "layout": layout, "vars": ["name": "Flat White"]]
        }
        let manifest = try scene.folder.campaign(jobs: [job("A", "local/promo.json"), job("GONE", "local/gone.json")])
        let run = try BatchCLI.run(["batch", manifest, "--cache", scene.cache, "--log-format", "plain", "--report", "report.json"], in: scene.folder.path)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(try RemoteCLITests.statuses(scene.folder.path + "/report.json") == ["A": "rendered", "GONE": "failed"])
        #expect(run.stderr.contains("\(base)/img/gone.png?token=REDACTED: HTTP 404"), "\(run.stderr)")
        for text in [run.stderr] + scene.writtenTexts() { #expect(!text.contains("SEKRIT")) }
    }

    @Test func aRemoteFontsFingerprintDoesNotFollowWhereTheCacheIs() throws {
        let scene = try Scene()
        try scene.folder.write("local/layer-font.json", #"{"layers": [{"on": "to", "text": "{name}", "box": [0.06, 0.55, 0.88, 0.3], "fonts": ["\#(scene.server.base)/img/Brand.ttf"]}]}"#)
        let manifest = try scene.folder.campaign(jobs: [["id": "A", "images": ["s0.png", "s1.png"], "outputs": ["out/A.mp4"],
                                                         "layout": "local/layer-font.json", "vars": ["name": "Flat White"]]])
        let first = try BatchCLI.run(["batch", manifest, "--cache", scene.folder.path + "/cache-a", "--report", "first.json"], in: scene.folder.path)
        #expect(first.status == 0, "\(first.stderr)")
        // Another cache folder (another machine's): the same font by the same URL, nothing to render.
        let second = try BatchCLI.run(["batch", manifest, "--cache", scene.folder.path + "/cache-b", "--report", "second.json"], in: scene.folder.path)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(try RemoteCLITests.statuses(scene.folder.path + "/first.json") == ["A": "rendered"])
        #expect(try RemoteCLITests.statuses(scene.folder.path + "/second.json") == ["A": "skipped"], "\(second.stderr)")
    }

    @Test func aTwoGigabyteFontIsRefusedAtTheFontCap() throws {
        let scene = try Scene()
        try scene.folder.write("local/huge.json", Scene.layout(logo: "logo.png", fonts: scene.server.base + "/huge?token=SEKRIT", brand: false))
        let run = try scene.make(["--layout", "local/huge.json", "-o", "never.mp4"])
        #expect(run.status == 65 && run.stderrIsOneLine, "\(run)")
        #expect(run.stderr.contains("\(scene.server.base)/huge?token=REDACTED: is over the 64 MB limit for a font"), "\(run)")
        #expect(try scene.server.stats().bodyBytes < 200_000_000, "the server sent the whole body")
        #expect(!FileManager.default.fileExists(atPath: scene.folder.path + "/never.mp4"))
    }

    @Test func aRemoteLayoutNeverNamesALocalFile() throws {
        let scene = try Scene()
        // `/etc/hostname` in a remote layout is a path on its server (a 404 there), never the local file.
        try scene.folder.write("served/local.json", Scene.layout(logo: "/etc/hostname", brand: false))
        let run = try scene.make(["--layout", scene.server.base + "/img/local.json", "-o", "never.mp4"])
        #expect(run.status == 66 && run.stderr.contains("\(scene.server.base)/etc/hostname: HTTP 404"), "\(run)")
        try scene.folder.write("served/file.json", Scene.layout(logo: "file:///etc/hostname", brand: false))
        let refused = try scene.make(["--layout", scene.server.base + "/img/file.json", "-o", "never.mp4"])
        #expect(refused.status == 64 && refused.stderr.contains("never names a local file"), "\(refused)")
    }
}
