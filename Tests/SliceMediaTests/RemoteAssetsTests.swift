// Remote inputs against a real HTTP(S) server on 127.0.0.1 (`AssetServer`): the cache's
// conditional requests (a second night transfers nothing, the server counts its 304s), a
// changed body under the same URL, offline use, and every bound a transfer is held to — a
// stalled body, a reset, a redirect loop, 2 GB declared or not, 500/429/503 with retries, a
// 404, a certificate no CA vouches for and the test CA given — each refused with the URL (its
// token hidden) and the right kind.

import Foundation
import Glibc
import SliceKit
@testable import SliceMedia
import StillFixtures
import Synchronization
import Testing

@Suite(.serialized, .timeLimit(.minutes(5))) struct RemoteAssetsTests {
    /// A folder with two files the server serves, the server, and a cache folder.
    final class Scene {
        let folder: String
        let server: AssetServer
        var cache: String { folder + "/cache" }

        init(tls: TestCA? = nil) throws {
            folder = NSTemporaryDirectory() + "slicevid-remote-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: folder + "/files", withIntermediateDirectories: true)
            try Data("first body".utf8).write(to: URL(fileURLWithPath: folder + "/files/a.png"))
            try Data("second".utf8).write(to: URL(fileURLWithPath: folder + "/files/b.png"))
            server = try AssetServer(root: folder + "/files", certificate: tls?.certificate, key: tls?.key)
        }

        func url(_ path: String) -> RemoteURL { RemoteURL(server.base + path)! }

        /// Remote assets of one run with quick retries (`attempts` each).
        func run(attempts: Int = 3, _ change: (inout RemoteOptions) -> Void = { _ in }) -> RemoteAssets {
            var options = RemoteOptions(cacheFolder: cache)
            options.attempts = attempts
            options.retryDelay = .milliseconds(1)
            change(&options)
            return RemoteAssets(options: options)
        }

        deinit {
            server.stop()
            try? FileManager.default.removeItem(atPath: folder)
        }
    }

    /// The error `body` throws.
    func failure(_ body: () throws(MediaError) -> FetchedAsset?) -> MediaError? {
        do throws(MediaError) {
            _ = try body()
            return nil
        } catch {
            return error
        }
    }

    @Test func aSecondNightTransfersNothingAndAChangedBodyIsANewVersion() throws {
        let scene = try Scene()
        let first = try #require(try scene.run().fetch(scene.url("/img/a.png"), kind: .still) { false })
        #expect(try Data(contentsOf: URL(fileURLWithPath: first.path)) == Data("first body".utf8))
        #expect(first.digest == SHA256.hex(of: "first body"))
        let etag = try #require(first.validator)
        #expect(etag.hasPrefix("ETag \""))

        // Night two, a new run over the same cache: one conditional request, answered 304.
        let before = try scene.server.stats()
        let night = scene.run()
        let second = try #require(try night.fetch(scene.url("/img/a.png"), kind: .still) { false })
        let after = try scene.server.stats()
        #expect(second == first)
        #expect(after.notModified - before.notModified == 1)
        #expect(after.bodyBytes == before.bodyBytes, "night two transferred \(after.bodyBytes - before.bodyBytes) bytes")
        #expect(night.counts == RemoteCounts(requests: 1, notModified: 1, bytes: 0, offline: 0))
        // Asked again in the same run: no request at all.
        _ = try night.fetch(scene.url("/img/a.png"), kind: .still) { false }
        #expect(try scene.server.stats().requests == after.requests + 1) // the stats request itself

        // The body changes under the same URL: a new digest, and the old version's ETag kept.
        try Data("a changed body".utf8).write(to: URL(fileURLWithPath: scene.folder + "/files/a.png"))
        let changed = try #require(try scene.run().fetch(scene.url("/img/a.png"), kind: .still) { false })
        #expect(changed.digest == SHA256.hex(of: "a changed body"))
        #expect(changed.validator != first.validator)
        #expect(changed.validators[first.digest] == etag)

        // Offline: the cache's copy, without a request; a URL never fetched fails with 66's kind.
        let requests = try scene.server.stats().requests
        let offline = scene.run { $0.offline = true }
        #expect(try offline.fetch(scene.url("/img/a.png"), kind: .still) { false }?.digest == changed.digest)
        #expect(failure { () throws(MediaError) in try offline.fetch(scene.url("/img/b.png"), kind: .still) { false } }?.kind == .inputMissing)
        #expect(try scene.server.stats().requests == requests + 1) // the stats request itself
    }

    @Test func everyBoundHoldsAndNamesTheURLWithoutItsToken() throws {
        let scene = try Scene()
        let token = "?token=SEKRIT-\(UInt32.random(in: 0...UInt32.max))"
        func refusal(_ path: String, attempts: Int = 3, _ change: (inout RemoteOptions) -> Void = { _ in }) throws -> MediaError {
            let assets = scene.run(attempts: attempts, change)
            let error = try #require(failure { () throws(MediaError) in try assets.fetch(scene.url(path + token), kind: .still) { false } },
                                     "\(path) was fetched")
            #expect(error.description.hasPrefix(scene.server.base + path + "?token=REDACTED: "), "\(error)")
            #expect(!error.description.contains("SEKRIT"))
            return error
        }
        // A body that stops coming: given up after the stall timeout, worth a retry.
        let stall = try refusal("/stall", attempts: 1) { $0.stallTimeout = .seconds(1) }
        #expect(stall.kind == .unreachable && stall.message.contains("timed out"), "\(stall)")
        // A reset: retried, then worth a retry later.
        let reset = try refusal("/reset", attempts: 2)
        #expect(reset.kind == .unreachable && reset.message.contains("after 2 attempts"), "\(reset)")
        #expect(try scene.server.stats().byPath["/reset"] == 2)
        // A redirect loop: bounded, and not worth a retry.
        let loop = try refusal("/loop")
        #expect(loop.kind == .inputMissing && loop.message.contains("more than 5 redirects"), "\(loop)")
        #expect(try scene.server.stats().byPath["/loop"] == 6)
        // 2 GB, declared or not: refused at the cap, while it arrives.
        for path in ["/huge", "/huge-declared"] {
            let huge = try refusal(path) { $0.maxBytes[.still] = 1_000_000 }
            #expect(huge.kind == .inputInvalid && huge.message.contains("over the 1 MB limit for a still"), "\(huge)")
        }
        #expect(try scene.server.stats().bodyBytes < 500_000_000, "the server sent the whole body")
        // 500: every attempt made, then worth a retry; 404: one request, not worth one.
        let error = try refusal("/status/500", attempts: 3)
        #expect(error.kind == .unreachable && error.message.hasPrefix("HTTP 500, after 3 attempts"), "\(error)")
        #expect(try scene.server.stats().byPath["/status/500"] == 3)
        let missing = try refusal("/status/404")
        #expect(missing.kind == .inputMissing && missing.message == "HTTP 404")
        #expect(try scene.server.stats().byPath["/status/404"] == 1)
        // 429 asking for more than the longest wait: no further attempt.
        let busy = try refusal("/status/429") { $0.longestRetryWait = .milliseconds(500) }
        #expect(busy.kind == .unreachable && busy.message.contains("asks to retry after 1 s"), "\(busy)")
        #expect(try scene.server.stats().byPath["/status/429"] == 1)
        // 503 twice, then the body: the retries get it.
        let flaky = try #require(try scene.run(attempts: 4).fetch(scene.url("/flaky/b.png"), kind: .still) { false })
        #expect(flaky.digest == SHA256.hex(of: "second"))
        #expect(try scene.server.stats().byPath["/flaky/b.png"] == 3)
    }

    @Test func oneHostGetsAtMostItsLimitOfTransfersAtOnce() throws {
        let scene = try Scene()
        let assets = scene.run { $0.perHost = 2 }
        // Six jobs side by side, each on a thread of its own, ask for six URLs of one host.
        let done = DispatchGroup()
        let fetched = Mutex(0)
        for url in (0..<6).map({ scene.url("/slow/\($0)") }) {
            done.enter()
            Thread {
                if (try? assets.fetch(url, kind: .still) { false }) != nil { fetched.withLock { $0 += 1 } }
                done.leave()
            }.start()
        }
        done.wait()
        #expect(fetched.withLock { $0 } == 6)
        #expect(try scene.server.mostInFlight() == 2)
    }

    @Test func tlsIsVerifiedAgainstTheSystemOrTheCAFileGiven() throws {
        let folder = NSTemporaryDirectory() + "slicevid-ca-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let ca = try TestCA(folder: folder)
        let scene = try Scene(tls: ca)
        #expect(scene.server.base.hasPrefix("https://"))
        let untrusted = failure { () throws(MediaError) in try scene.run().fetch(scene.url("/img/a.png"), kind: .still) { false } }
        #expect(untrusted?.kind == .inputMissing && untrusted?.message.contains("not trusted") == true, "\(String(describing: untrusted))")
        let trusted = try scene.run { $0.caFile = ca.caFile }.fetch(scene.url("/img/a.png"), kind: .still) { false }
        #expect(trusted?.digest == SHA256.hex(of: "first body"))
    }

    @Test func aCacheOthersMayWriteInIsRefused() throws {
        let folder = NSTemporaryDirectory() + "slicevid-shared-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        chmod(folder, 0o777)
        #expect(throws: MediaError.self) { try AssetCache(folder: folder) }
        chmod(folder, 0o700)
        #expect(throws: Never.self) { try AssetCache(folder: folder) }
    }
}
