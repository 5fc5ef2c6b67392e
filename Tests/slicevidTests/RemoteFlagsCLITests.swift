// The fetch flags as a user gives them, against a real server on 127.0.0.1 that counts what it
// is asked (`AssetServer`): `--offline` renders from a warm cache making no request, and fails
// one line naming the URL from a cold one; `--ca-file` trusts a private CA, and without it TLS
// is refused in one line; each `--fetch-…` bound reaches the transfer (attempts counted by the
// server, a redirect bound, a size cap per kind, a stall) and a bad value is one line, 64.

import Foundation
import SliceMedia
import StillFixtures
import Testing

@Suite(.serialized, .timeLimit(.minutes(10))) struct RemoteFlagsCLITests {
    /// A folder whose `served/` stills the server serves (over TLS when `tls`).
    final class Scene {
        let folder: CampaignFolder
        let server: AssetServer
        let ca: TestCA?
        var cache: String { folder.path + "/cache" }

        init(tls: Bool = false) throws {
            folder = try CampaignFolder()
            try FileManager.default.createDirectory(atPath: folder.path + "/served", withIntermediateDirectories: true)
            for index in 0..<2 { try folder.still("served/p\(index).png", index: index + 3) }
            ca = tls ? try TestCA(folder: folder.path) : nil
            server = try AssetServer(root: folder.path + "/served", certificate: ca?.certificate, key: ca?.key)
        }

        /// `make` from p0 to `to` (p1 by default), with the cache (or `cache`) and `flags`.
        func make(_ output: String, to: String? = nil, cache: String? = nil, _ flags: [String] = []) throws -> CLIResult {
            try CLI.make(["--from", server.base + "/img/p0.png", "--to", to ?? server.base + "/img/p1.png", "-o", output, "--cache", cache ?? self.cache]
                         + flags + tinyClip, in: folder.path)
        }

        deinit {
            server.stop()
            folder.remove()
        }
    }

    @Test func offlineRendersFromAWarmCacheAskingNothingAndACacheWithoutTheURLFailsInOneLine() throws {
        let scene = try Scene()
        let online = try scene.make("online.mp4")
        #expect(online.status == 0, "\(online)")
        let before = try scene.server.stats().byPath
        #expect(before["/img/p0.png"] == 1 && before["/img/p1.png"] == 1)

        let offline = try scene.make("offline.mp4", ["--offline"])
        #expect(offline.status == 0, "\(offline)")
        // Not one request for an image: the stats request alone is new.
        let after = try scene.server.stats().byPath
        #expect(after.filter { $0.key != "/stats" } == before.filter { $0.key != "/stats" }, "\(after)")
        #expect(try MediaReader.info(path: scene.folder.path + "/offline.mp4").frameCount == tinyClipFrames)
        #expect(try SHA256.hex(ofFileAt: scene.folder.path + "/offline.mp4") == SHA256.hex(ofFileAt: scene.folder.path + "/online.mp4"))

        // A URL the cache has never held, offline: one line naming it, and still no request.
        let cold = try scene.make("never.mp4", to: scene.server.base + "/img/p1.png?v=2&token=SEKRIT", ["--offline"])
        #expect(cold.status == 66 && cold.stderrIsOneLine, "\(cold)")
        #expect(cold.stderr.contains("\(scene.server.base)/img/p1.png?v=2&token=REDACTED") && !cold.stderr.contains("SEKRIT"), "\(cold)")
        #expect(try scene.server.stats().byPath.filter { $0.key != "/stats" } == before.filter { $0.key != "/stats" })
        #expect(!FileManager.default.fileExists(atPath: scene.folder.path + "/never.mp4"))

        // A batch too: a job whose still is not cached fails alone, naming the URL.
        let manifest = try scene.folder.campaign(jobs: [
            ["id": "cached", "images": [scene.server.base + "/img/p0.png", scene.server.base + "/img/p1.png"], "outputs": ["out/cached.mp4"]],
            ["id": "cold", "images": [scene.server.base + "/img/p0.png", scene.server.base + "/img/p1.png?v=3"], "outputs": ["out/cold.mp4"]],
        ])
        let batch = try BatchCLI.run(["batch", manifest, "--offline", "--cache", scene.cache, "--log-format", "plain"], in: scene.folder.path)
        #expect(batch.status == 1, "\(batch.stderr)")
        #expect(batch.stderr.contains("job 'cold'") && batch.stderr.contains("\(scene.server.base)/img/p1.png?v=3"), "\(batch.stderr)")
        #expect(try MediaReader.info(path: scene.folder.path + "/out/cached.mp4").frameCount > 0)
        #expect(try scene.server.stats().byPath.filter { $0.key != "/stats" } == before.filter { $0.key != "/stats" })
    }

    @Test func aPrivateCAIsTrustedWithCAFileAndRefusedInOneLineWithout() throws {
        let scene = try Scene(tls: true)
        let ca = try #require(scene.ca)
        #expect(scene.server.base.hasPrefix("https://"))
        let trusted = try scene.make("trusted.mp4", ["--ca-file", ca.caFile])
        #expect(trusted.status == 0, "\(trusted)")
        #expect(try MediaReader.info(path: scene.folder.path + "/trusted.mp4").frameCount == tinyClipFrames)

        // The system's CAs do not vouch for the test CA: refused, permanent, one line, no retry.
        let refused = try scene.make("refused.mp4", cache: scene.folder.path + "/cache2")
        #expect(refused.status == 66 && refused.stderrIsOneLine, "\(refused)")
        #expect(refused.stderr.contains("\(scene.server.base)/img/p0.png") && refused.stderr.contains("certificate is not trusted"), "\(refused)")
        #expect(!FileManager.default.fileExists(atPath: scene.folder.path + "/refused.mp4"))
        // The TLS handshake failed before any request: the server counted only those of the trusted run.
        #expect(try scene.server.stats().byPath.filter { $0.key != "/stats" } == ["/img/p0.png": 1, "/img/p1.png": 1])
    }

    @Test func eachFetchBoundReachesTheTransfer() throws {
        let scene = try Scene()
        let base = scene.server.base
        // One attempt: the 503 is asked once (four times by default), and no retry is promised.
        let once = try scene.make("once.mp4", to: base + "/status/503", ["--fetch-attempts", "1"])
        #expect(once.status == 75 && once.stderrIsOneLine && once.stderr.contains("\(base)/status/503: HTTP 503"), "\(once)")
        #expect(try scene.server.stats().byPath["/status/503"] == 1)
        // Two attempts: asked twice.
        _ = try scene.make("twice.mp4", to: base + "/status/502", ["--fetch-attempts", "2"])
        #expect(try scene.server.stats().byPath["/status/502"] == 2)

        let loop = try scene.make("loop.mp4", to: base + "/loop", ["--fetch-redirects", "2"])
        #expect(loop.status == 66 && loop.stderr.contains("more than 2 redirects"), "\(loop)")
        #expect(try scene.server.stats().byPath["/loop"] == 3)

        // A cap for songs leaves stills alone; one for stills (or for every kind) refuses them.
        let songs = try scene.make("songs.mp4", ["--fetch-max-size", "song=10B"])
        #expect(songs.status == 0, "\(songs)")
        for cap in ["still=10B", "10"] {
            let capped = try scene.make("capped.mp4", to: base + "/img/p1.png?capped=\(cap)", ["--fetch-max-size", cap])
            #expect(capped.status == 65 && capped.stderrIsOneLine && capped.stderr.contains("over the 10 bytes limit for a still"), "\(cap): \(capped)")
        }
        // The later value for a kind wins.
        let later = try scene.make("later.mp4", to: base + "/img/p1.png?later", ["--fetch-max-size", "still=10B", "--fetch-max-size", "1MiB"])
        #expect(later.status == 0, "\(later)")

        // A body that stalls is given up after the stall bound (30 s by default), as curl says.
        let stall = try scene.make("stall.mp4", to: base + "/stall", ["--fetch-stall-timeout", "1", "--fetch-attempts", "1"])
        #expect(stall.status == 75 && stall.stderrIsOneLine && stall.stderr.contains("timed out") && stall.stderr.contains("1 second"), "\(stall)")
    }

    @Test(arguments: [
        (["--fetch-connect-timeout", "0"], "--fetch-connect-timeout: '0' is not a whole number 1–600"),
        (["--fetch-connect-timeout", "1.5"], "--fetch-connect-timeout: '1.5' is not a whole number 1–600"),
        (["--fetch-stall-timeout", "3601"], "--fetch-stall-timeout: '3601' is not a whole number 1–3600"),
        (["--fetch-redirects", "-1"], "--fetch-redirects: '-1' is not a whole number 0–20"),
        (["--fetch-attempts", "0"], "--fetch-attempts: '0' is not a whole number 1–10"),
        (["--fetch-per-host", "99999999999999999999"], "--fetch-per-host: '99999999999999999999' is not a whole number 1–64"),
        (["--fetch-max-size", "1.5GB"], "--fetch-max-size: '1.5GB' is not a size 1B–100GB"),
        (["--fetch-max-size", "0"], "--fetch-max-size: '0' is not a size 1B–100GB"),
        (["--fetch-max-size", "101GB"], "--fetch-max-size: '101GB' is not a size 1B–100GB"),
        (["--fetch-max-size", "10KB"], "--fetch-max-size: '10KB' is not a size"),
        (["--fetch-max-size", "photo=1MB"], "--fetch-max-size: 'photo' is not a kind of input; give one of still, song, font, layout-image"),
        (["--fetch-max-size", "still="], "--fetch-max-size: '' is not a size"),
    ])
    func aBadBoundIsOneUsageLine(flags: [String], words: String) throws {
        try withScratchFolder { folder in
            for command in [["make", "--preset", "preview", "-o", "never.mp4"], ["batch", "none.json"]] {
                let result = try CLI.run(command + flags, in: folder)
                #expect(result.status == 64 && result.stderrIsOneLine && result.stderr.contains(words), "\(command[0]): \(result)")
            }
            #expect(!FileManager.default.fileExists(atPath: folder + "/never.mp4"))
        }
    }
}
