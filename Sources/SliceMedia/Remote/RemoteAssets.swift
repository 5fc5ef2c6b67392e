// Remote inputs for one run: each URL fetched at most once however many jobs use it (jobs side
// by side asking at the same moment wait for the first), a few transfers per host at once over
// connections kept alive for the whole run, all of a run's URLs started ahead of its jobs
// (`prefetch`), conditional requests against the cache so an unchanged night transfers
// nothing, no request at all for a copy its server said is still fresh (Cache-Control
// max-age, Expires: `Freshness`), retries with backoff for what may pass (honouring
// Retry-After), and then a local file: the cache's object, decoded like any still, its
// SHA-256 what fingerprints hold.

import CCurl
import Dispatch
import Foundation
import Glibc
import SliceKit
import Synchronization

/// A remote input made local.
package struct FetchedAsset: Sendable, Equatable {
    package let url: RemoteURL
    /// The cache's file of its body: what is decoded.
    package let path: String
    /// SHA-256 of its bytes.
    package let digest: String
    /// The validator of this version (`ETag "b7"`), when its server gave one.
    package let validator: String?
    /// The validators of earlier versions the cache remembers, by digest: what a plan names
    /// the version a sidecar recorded by.
    package let validators: [String: String]
    /// The file's stamp from just before this run read it and found its bytes hash to
    /// `digest` (nil when it did not, or the file changed too recently to tell): while the
    /// file's stamp is still this, its bytes need not be read again to know their digest.
    package let stamp: InputStamp?

    /// The same input and version (the stamp says when it was read, not what it is).
    package static func == (left: FetchedAsset, right: FetchedAsset) -> Bool {
        (left.url, left.path, left.digest, left.validator, left.validators) == (right.url, right.path, right.digest, right.validator, right.validators)
    }
}

/// What a run's fetching came to, for its log and its tests.
package struct RemoteCounts: Sendable, Equatable {
    /// Requests made (attempts included), and how many were answered 304.
    package var requests = 0
    package var notModified = 0
    /// Body bytes received.
    package var bytes = 0
    /// Inputs taken from the cache without a request (offline).
    package var offline = 0
    /// Inputs taken from the cache without a request because their server said they were
    /// still fresh.
    package var fresh = 0
}

/// A libcurl session (CCurl): the run's kept connections, freed with the run's RemoteAssets.
private final class CurlSession: @unchecked Sendable {
    // @unchecked: the C session locks its own pool and share.
    let pointer: OpaquePointer?
    init() { pointer = slicevid_session_new() }
    deinit { slicevid_session_free(pointer) }
}

/// The remote inputs of one run.
package final class RemoteAssets: Sendable {
    package let options: RemoteOptions

    /// Each URL's fetch, once per run.
    private let fetched = OncePerKey<RemoteURL, FetchedAsset, MediaError>()

    private struct State {
        var hosts: [String: DispatchSemaphore] = [:]
        var counts = RemoteCounts()
        /// The cache, opened (made) on the first URL, so a run without one never touches it.
        var cache: Result<AssetCache, MediaError>?
        /// The run's connections, made on the first transfer.
        var session: CurlSession?
    }
    private let state = Mutex(State())
    /// Prefetching threads of this fetcher not yet ended (`prefetch`).
    private let prefetchers = Atomic<Int>(0)
    package var prefetchThreadsRunning: Int { prefetchers.load(ordering: .relaxed) }

    /// - Parameter options: the cache folder and bounds; the folder is opened (made) on the
    ///   first URL, so a run without one never touches it.
    package init(options: RemoteOptions) {
        self.options = options.bounded
    }

    /// The cache, opened on first use (once per run, whatever it came to).
    private func openCache() throws(MediaError) -> AssetCache {
        let options = options
        return try state.withLock { state in
            if let cache = state.cache { return cache }
            let cache = Result { () throws(MediaError) -> AssetCache in
                guard let folder = options.folder() else {
                    throw MediaError(.output, subject: "cache", message: "no cache folder: HOME and XDG_CACHE_HOME are not set; give one")
                }
                return try AssetCache(folder: folder)
            }
            state.cache = cache
            return cache
        }.get()
    }

    /// What was fetched so far.
    package var counts: RemoteCounts { state.withLock { $0.counts } }

    /// The local file for `url`, fetched (or revalidated) once per run.
    /// - Parameter stop: asked while waiting and transferring; true abandons the input.
    /// - Returns: the fetched input, or nil when `stop` said so.
    /// - Throws: `MediaError` naming the URL (redacted): `.unreachable` when only transient
    ///   failures remain after every attempt, `.inputMissing` for a status or failure that
    ///   will repeat (or an input not cached when offline), `.inputInvalid` for a body over its cap.
    package func fetch(_ url: RemoteURL, kind: RemoteKind, stop: @escaping @Sendable () -> Bool) throws(MediaError) -> FetchedAsset? {
        try fetched.value(for: url, stop: stop) { () throws(MediaError) in try fetchOnce(url, kind: kind, stop: stop) }
    }

    /// The run's libcurl session, made on first use (libcurl is loaded by then).
    private func session() -> OpaquePointer? {
        state.withLock { state in
            if let session = state.session { return session.pointer }
            guard slicevid_curl_load() == 1 else { return nil }
            let session = CurlSession()
            state.session = session
            return session.pointer
        }
    }

    /// Starts fetching `inputs` ahead of the jobs that need them, in the order given (the order
    /// jobs ask for them), on a few threads of their own: each URL once, as `fetch` does it,
    /// at most `perHost` transfers to a host at once. A job asking for a URL meanwhile waits
    /// for its transfer; a failure is the job's, as if it had fetched the URL itself.
    ///
    /// The caller must `finish` what this returns before it returns itself (`defer`), on every
    /// path: a transfer left running when the process exits is still inside libcurl and OpenSSL
    /// while OpenSSL's exit handlers free what it uses (a crash after the run's own error).
    /// - Parameter stop: asked while waiting and transferring; true ends the prefetching
    ///   (the URLs not fetched are fetched by the jobs that ask, if any still do).
    package func prefetch(_ inputs: [(url: RemoteURL, kind: RemoteKind)], stop: @escaping @Sendable () -> Bool) -> Prefetching {
        var seen = Set<RemoteURL>()
        let queue = inputs.filter { seen.insert($0.url).inserted }
        let hosts = Set(queue.map(\.url.origin)).count
        let threads = min(queue.count, max(1, options.perHost) * hosts, RemoteAssets.prefetchThreads)
        let ahead = Prefetching()
        let next = Atomic<Int>(0)
        let over: @Sendable () -> Bool = { ahead.isFinishing || stop() }
        for worker in 0..<threads {
            ahead.started()
            prefetchers.add(1, ordering: .relaxed)
            // Threads of their own: a transfer blocks, which Dispatch's pool must not be made to wait for.
            let thread = Thread { [self] in
                defer {
                    prefetchers.subtract(1, ordering: .relaxed)
                    ahead.ended()
                }
                while !over() {
                    let index = next.add(1, ordering: .relaxed).oldValue
                    guard index < queue.count else { return }
                    _ = try? fetch(queue[index].url, kind: queue[index].kind, stop: over)
                }
            }
            thread.name = "slicevid.fetch.\(worker)"
            thread.start()
        }
        return ahead
    }

    /// Threads prefetching at most: transfers wait on the network, not the cores.
    static let prefetchThreads = 8

    /// Takes one of the host's transfer permits for `body`.
    private func withHostPermit<R>(_ url: RemoteURL, _ body: () throws(MediaError) -> R) throws(MediaError) -> R {
        let permits = state.withLock { state in
            if let permits = state.hosts[url.origin] { return permits }
            let permits = DispatchSemaphore(value: max(1, options.perHost))
            state.hosts[url.origin] = permits
            return permits
        }
        permits.wait()
        defer { permits.signal() }
        return try body()
    }

    private func fetchOnce(_ url: RemoteURL, kind: RemoteKind, stop: @escaping @Sendable () -> Bool) throws(MediaError) -> FetchedAsset? {
        let cache = try openCache()
        // Another run (a shard beside this one) fetching the same URL finishes first; this one
        // then revalidates what it stored.
        guard let lock = try cache.lock(url, stop: stop) else { return nil }
        defer { close(lock) }
        var stamp: InputStamp?
        let held = cache.entry(url).flatMap { entry -> AssetCache.Entry? in
            guard let checked = cache.check(entry.digest) else { return nil }
            stamp = checked.stamp
            return entry
        }
        if options.offline {
            guard let held else {
                throw MediaError(.inputMissing, subject: url.description, message: "is not in the cache, and the run is offline")
            }
            state.withLock { $0.counts.offline += 1 }
            return asset(url, held, cache: cache, stamp: stamp)
        }
        if let held, !options.revalidate, held.freshness?.isFresh(at: Int64(time(nil))) == true {
            state.withLock { $0.counts.fresh += 1 }
            return asset(url, held, cache: cache, stamp: stamp)
        }
        var attempt = 0
        var delay = options.retryDelay
        while true {
            attempt += 1
            // The body's file is made when its first byte arrives: a 304 makes none.
            let body = BodyFile { () throws(MediaError) in try cache.temporary() }
            let outcome: TransferOutcome
            do throws(MediaError) {
                defer { body.close() }
                outcome = try withHostPermit(url) { () throws(MediaError) -> TransferOutcome in
                    try RemoteTransfer(url: url, kind: kind, options: options, etag: held?.etag, lastModified: held?.lastModified,
                                       session: session())
                        .run(into: body, stop: stop)
                }
            } catch {
                body.remove()
                throw error
            }
            state.withLock { $0.counts.requests += 1 }
            switch outcome {
            case .body(let bytes, let etag, let modified, let headers):
                state.withLock { $0.counts.bytes += bytes }
                // An empty body wrote nothing: its (empty) file is made now.
                _ = body.open()
                body.close()
                if let failure = body.failure { throw failure }
                guard let path = body.path, let digest = try SHA256.hex(ofFileAt: path, stop: stop) else {
                    body.remove()
                    return nil
                }
                try cache.store(path, digest: digest)
                var entry = AssetCache.Entry(url: url.description, digest: digest, bytes: bytes, etag: etag, lastModified: modified,
                                             freshness: headers.freshness())
                if let held {
                    entry.history = [.init(digest: held.digest, etag: held.etag, lastModified: held.lastModified)] + held.history
                    entry.history.removeAll { $0.digest == digest }
                }
                try cache.record(entry, for: url)
                return asset(url, entry, cache: cache)
            case .notModified(let etag, let modified, let headers):
                body.remove()
                state.withLock { $0.counts.notModified += 1 }
                guard var entry = held else { throw MediaError(.inputInvalid, subject: url.description, message: "HTTP 304 without a copy held") }
                // A 304 may carry newer validators for the same bytes, and renews (or ends) its
                // freshness: its own Cache-Control or Expires, else the stored lifetime from now.
                entry.etag = etag ?? entry.etag
                entry.lastModified = modified ?? entry.lastModified
                entry.freshness = headers.freshness(stored: entry.freshness?.lifetime)
                if entry != held { try cache.record(entry, for: url) }
                return asset(url, entry, cache: cache, stamp: stamp)
            case .stopped:
                body.remove()
                return nil
            case .permanent(let reason, let kind):
                body.remove()
                throw MediaError(kind, subject: url.description, message: reason)
            case .transient(let reason, let retryAfter):
                body.remove()
                let tries = "\(attempt) attempt\(attempt == 1 ? "" : "s")"
                guard attempt < options.attempts else {
                    throw MediaError(.unreachable, subject: url.description, message: "\(reason), after \(tries); worth a retry later")
                }
                var wait = delay
                if let retryAfter {
                    let asked = Duration.seconds(retryAfter)
                    guard asked <= options.longestRetryWait else {
                        throw MediaError(.unreachable, subject: url.description,
                                         message: "\(reason), asks to retry after \(retryAfter) s (after \(tries)); worth a retry later")
                    }
                    wait = max(wait, asked)
                }
                delay = min(delay * 2, options.longestRetryWait)
                if !RemoteAssets.pause(wait, stop: stop) { return nil }
            }
        }
    }

    /// Waits `duration`, asking `stop` meanwhile: false when it said to stop.
    private static func pause(_ duration: Duration, stop: () -> Bool) -> Bool {
        let end = ContinuousClock.now + duration
        while ContinuousClock.now < end {
            if stop() { return false }
            let left = end - ContinuousClock.now
            let slice = min(left, .milliseconds(20))
            usleep(useconds_t(max(0, slice.components.attoseconds / 1_000_000_000_000 + slice.components.seconds * 1_000_000)))
        }
        return !stop()
    }

    private func asset(_ url: RemoteURL, _ entry: AssetCache.Entry, cache: AssetCache, stamp: InputStamp? = nil) -> FetchedAsset {
        var validators: [String: String] = [:]
        for version in entry.history.reversed() {
            validators[version.digest] = AssetCache.Entry.validator(etag: version.etag, lastModified: version.lastModified)
        }
        let validator = AssetCache.Entry.validator(etag: entry.etag, lastModified: entry.lastModified)
        validators[entry.digest] = validator
        return FetchedAsset(url: url, path: cache.object(entry.digest), digest: entry.digest, validator: validator, validators: validators,
                            stamp: stamp)
    }
}

/// Prefetching under way (`RemoteAssets.prefetch`).
package final class Prefetching: Sendable {
    private let threads = DispatchGroup()
    private let finishing = Atomic<Bool>(false)
    private let live = Atomic<Int>(0)

    fileprivate init() {}

    fileprivate var isFinishing: Bool { finishing.load(ordering: .relaxed) }

    fileprivate func started() {
        threads.enter()
        live.add(1, ordering: .relaxed)
    }

    fileprivate func ended() {
        live.subtract(1, ordering: .relaxed)
        threads.leave()
    }

    /// Prefetching threads not yet ended.
    package var running: Int { live.load(ordering: .relaxed) }

    /// Waits until every URL given was fetched (or failed), or the caller's stop came.
    package func wait() { threads.wait() }

    /// Stops every transfer no one is waiting for and returns when every prefetching thread has
    /// ended: nothing prefetched outlives its caller.
    package func finish() {
        finishing.store(true, ordering: .relaxed)
        threads.wait()
    }
}
