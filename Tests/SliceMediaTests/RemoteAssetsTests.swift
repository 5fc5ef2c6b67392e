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

    @Test func aCopyItsServerCallsFreshIsUsedWithoutARequest() throws {
        let scene = try Scene()
        // Night one fetches each; night two asks only about what its server did not call fresh.
        let paths = ["/fresh/a.png", "/expires/a.png", "/nocache/a.png", "/aged/a.png", "/img/a.png"]
        let first = scene.run()
        for path in paths { _ = try #require(try first.fetch(scene.url(path), kind: .still) { false }) }
        let before = try scene.server.stats()
        let night = scene.run()
        for path in paths { #expect(try night.fetch(scene.url(path), kind: .still) { false }?.digest == SHA256.hex(of: "first body")) }
        let after = try scene.server.stats()
        // max-age 3600 and an Expires an hour ahead: no request. no-cache (on a line of its own
        // beside max-age), an Age past max-age, and no word at all: a conditional request each.
        for path in paths {
            let asked = (after.byPath[path] ?? 0) - (before.byPath[path] ?? 0)
            #expect(asked == (path.hasPrefix("/fresh/") || path.hasPrefix("/expires/") ? 0 : 1), "\(path) asked \(asked) times")
        }
        #expect(night.counts == RemoteCounts(requests: 3, notModified: 3, bytes: 0, offline: 0, fresh: 2))
        // Told to revalidate: every one is asked, and the 304s renew what was fresh.
        let revalidated = scene.run { $0.revalidate = true }
        for path in paths { _ = try revalidated.fetch(scene.url(path), kind: .still) { false } }
        #expect(revalidated.counts == RemoteCounts(requests: 5, notModified: 5, bytes: 0, offline: 0, fresh: 0))
        // A body changed under a fresh URL is not seen until the lifetime ends (or a revalidation).
        try Data("a changed body".utf8).write(to: URL(fileURLWithPath: scene.folder + "/files/a.png"))
        #expect(try scene.run().fetch(scene.url("/fresh/a.png"), kind: .still) { false }?.digest == SHA256.hex(of: "first body"))
        #expect(try scene.run { $0.revalidate = true }.fetch(scene.url("/fresh/a.png"), kind: .still) { false }?.digest
            == SHA256.hex(of: "a changed body"))
    }

    @Test func aTemporaryFileIsMadeOnlyWhenABodyArrives() throws {
        let scene = try Scene()
        try Data().write(to: URL(fileURLWithPath: scene.folder + "/files/empty.png"))
        let first = try #require(try scene.run().fetch(scene.url("/img/a.png"), kind: .still) { false })
        // An empty body writes no byte, and is still a file of the cache.
        let empty = try #require(try scene.run().fetch(scene.url("/img/empty.png"), kind: .still) { false })
        #expect(empty.digest == SHA256.hex(of: ""))
        #expect(try Data(contentsOf: URL(fileURLWithPath: empty.path)).isEmpty)
        // With no folder to write in at tmp/ (a file there: even root cannot make one in it),
        // a 304 still revalidates (it makes no file there)...
        let tmp = scene.cache + "/tmp"
        #expect(rename(tmp, tmp + ".away") == 0)
        #expect(FileManager.default.createFile(atPath: tmp, contents: Data()))
        defer {
            unlink(tmp)
            rename(tmp + ".away", tmp)
        }
        let night = scene.run()
        #expect(try night.fetch(scene.url("/img/a.png"), kind: .still) { false } == first)
        #expect(night.counts.notModified == 1)
        // ...and a body that cannot be written is refused, naming the cache.
        let refused = failure { () throws(MediaError) in try scene.run().fetch(scene.url("/img/b.png"), kind: .still) { false } }
        #expect(refused?.kind == .output)
        #expect(refused?.description.contains(tmp) == true, "\(refused?.description ?? "")")
    }

    @Test func anObjectJustWrittenGivesNoStampToSkipItsNextRead() throws {
        let scene = try Scene()
        let first = try #require(try scene.run().fetch(scene.url("/img/a.png"), kind: .still) { false })
        #expect(first.stamp == nil) // a body just fetched is not one checked from the cache
        let cache = try AssetCache(folder: scene.cache)
        // Checked within a clock tick or two of its writing: its times could not show a
        // rewrite in place of the same size, so its stamp does not stand for its bytes.
        let checked = try #require(cache.check(first.digest))
        #expect(checked.stamp == nil)
        let night = try #require(try scene.run().fetch(scene.url("/img/a.png"), kind: .still) { false })
        #expect(night.stamp == nil)
        // Seconds later it does: the file as it was before its bytes were read.
        let later = try #require(cache.check(first.digest, now: Int(time(nil)) + AssetCache.settled + 1))
        #expect(later.stamp != nil && later.stamp == InputStamp(path: first.path))
        // An object whose bytes no longer hash to its name is not held.
        try Data("first bodY".utf8).write(to: URL(fileURLWithPath: first.path))
        #expect(cache.check(first.digest) == nil)
    }

    @Test func aBodyAlreadyHeldIsNotReplacedUnderAJobReadingIt() throws {
        let scene = try Scene()
        try Data("first body".utf8).write(to: URL(fileURLWithPath: scene.folder + "/files/copy.png"))
        // Two URLs, one body: the second's download leaves the first's file as it was (same
        // inode and change time), so a job hashing it meanwhile sees no change.
        let run = scene.run()
        let first = try #require(try run.fetch(scene.url("/img/a.png"), kind: .still) { false })
        var before = stat()
        #expect(stat(first.path, &before) == 0)
        let second = try #require(try run.fetch(scene.url("/img/copy.png"), kind: .still) { false })
        var after = stat()
        #expect(stat(second.path, &after) == 0)
        #expect(second.path == first.path)
        #expect(after.st_ino == before.st_ino && after.st_ctim.tv_nsec == before.st_ctim.tv_nsec && after.st_ctim.tv_sec == before.st_ctim.tv_sec)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scene.cache + "/tmp").isEmpty)
    }

    @Test func freshnessFollowsRFC9111() {
        // Lifetimes: max-age over Expires; no-cache or no-store anywhere in the list: none;
        // a max-age that is not a number: stale; the shorter of two; overflow: 2^31.
        #expect(Freshness.lifetime(cacheControl: "public, max-age=600", expires: 5000, date: 1000) == 600)
        #expect(Freshness.lifetime(cacheControl: "max-age=\"600\"", expires: nil, date: 0) == 600)
        #expect(Freshness.lifetime(cacheControl: "max-age=600, no-cache", expires: nil, date: 0) == nil)
        #expect(Freshness.lifetime(cacheControl: "No-Store, max-age=600", expires: nil, date: 0) == nil)
        #expect(Freshness.lifetime(cacheControl: "max-age=ten", expires: nil, date: 0) == 0)
        #expect(Freshness.lifetime(cacheControl: "max-age=-5", expires: nil, date: 0) == 0)
        #expect(Freshness.lifetime(cacheControl: "max-age=600, max-age=60", expires: nil, date: 0) == 60)
        #expect(Freshness.lifetime(cacheControl: "max-age=99999999999999999999", expires: nil, date: 0) == Freshness.longest)
        #expect(Freshness.lifetime(cacheControl: "must-revalidate", expires: 1600, date: 1000) == 600)
        #expect(Freshness.lifetime(cacheControl: nil, expires: -2, date: 1000) == 0)
        #expect(Freshness.lifetime(cacheControl: nil, expires: 500, date: 1000) == 0)
        #expect(Freshness.lifetime(cacheControl: nil, expires: nil, date: 1000) == nil)
        // Age: the larger of Date's and Age's (plus the transfer's time) counts before the copy.
        let aged = Freshness.counting(lifetime: 600, date: 1000, age: 100, requestTime: 1000, responseTime: 1002)
        #expect(aged == Freshness(since: 900, lifetime: 600))
        #expect(aged.isFresh(at: 1499) && !aged.isFresh(at: 1500))
        #expect(Freshness.counting(lifetime: 600, date: 700, age: nil, requestTime: 1000, responseTime: 1000).since == 700)
        #expect(!aged.isFresh(at: 899), "a clock set back makes a copy stale")
        // A 304 naming no lifetime keeps the stored one, counted from the 304.
        let renewed = CacheHeaders(cacheControl: nil, expires: nil, date: 5000, age: nil, requestTime: 5000, responseTime: 5000)
        #expect(renewed.freshness(stored: 600) == Freshness(since: 5000, lifetime: 600))
        #expect(renewed.freshness(stored: nil) == nil)
        #expect(CacheHeaders(cacheControl: "no-cache", expires: nil, date: nil, age: nil, requestTime: 0, responseTime: 0).freshness(stored: 600) == nil)
    }

    @Test func aRunKeepsItsConnectionsAliveAndFetchesAheadSeveralAtOnce() throws {
        let scene = try Scene()
        for n in 0..<6 { try Data("body \(n)".utf8).write(to: URL(fileURLWithPath: scene.folder + "/files/\(n).png")) }
        // One after another: one connection for all six (HTTP/1.1 keep-alive).
        let one = scene.run()
        for n in 0..<6 { _ = try #require(try one.fetch(scene.url("/img/\(n).png"), kind: .still) { false }) }
        #expect(try scene.server.connections() == 1)
        // Six slow URLs prefetched: four at once (the host's limit), then each job's fetch
        // finds its URL done without a request of its own.
        let ahead = scene.run { $0.perHost = 4 }
        let urls = (0..<6).map { scene.url("/slow/\($0)") }
        ahead.prefetch(urls.map { ($0, RemoteKind.still) } + urls.map { ($0, RemoteKind.still) }) { false }.wait()
        #expect(try scene.server.mostInFlight() == 4)
        for url in urls { _ = try #require(try ahead.fetch(url, kind: .still) { false }) }
        let stats = try scene.server.stats()
        #expect((0..<6).allSatisfy { stats.byPath["/slow/\($0)"] == 1 }, "\(stats.byPath)")
        #expect(ahead.counts.requests == 6)
    }

    @Test func finishingStopsWhatNoOneAskedForAndWaitsForEveryPrefetchingThread() throws {
        let scene = try Scene()
        let remote = scene.run(attempts: 1)
        // A job whose first URL fails, while its second stalls mid-body on the server: the
        // job's error is in, and the stalled transfer would run on into the stall timeout.
        let ahead = remote.prefetch([(scene.url("/status/404"), .still), (scene.url("/stall"), .still)]) { false }
        #expect(failure { () throws(MediaError) in try remote.fetch(scene.url("/status/404"), kind: .still) { false } } != nil)
        ahead.finish()
        #expect(ahead.running == 0)
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
