// The folder remote inputs are kept in, shared by every run and shard on the machine:
// `objects/AB/SHA256` holds each body by the SHA-256 of its bytes; `index/KEY` holds, per URL
// (its credentials hidden, so a signed URL's new signature each night is the same input), the
// validators its server gave (ETag, Last-Modified), how long its server said it stays fresh
// (Cache-Control max-age or Expires, from when), the digest of its body, and the digests
// it had before with their validators, so a plan can say `ETag "a1" → "b7"`. Every file is
// written to `tmp/` and renamed into place; `locks/KEY` (opened without following a link,
// never truncated) is flocked while one URL is fetched, so two runs never fetch it at once.
// The index is read back as a stranger's file: bounded, every field checked, and an object is
// used only when its bytes hash to its name.

import Foundation
import Glibc
import SliceKit

/// The cache folder of remote inputs.
package struct AssetCache: Sendable {
    /// The folder, absolute.
    package let folder: String

    /// What the index records of one URL.
    package struct Entry: Sendable, Equatable {
        /// The URL, redacted.
        var url: String
        /// SHA-256 of the body held.
        var digest: String
        var bytes: Int
        var etag: String?
        var lastModified: String?
        /// How long the server said the body may be used without asking (nil: ask each run).
        var freshness: Freshness?
        /// Earlier bodies of the URL, newest first: digest → the validator it came with.
        var history: [Version] = []

        struct Version: Sendable, Equatable {
            var digest: String
            var etag: String?
            var lastModified: String?
        }

        /// The validator that names a version: `ETag "a1"`, else `Last-Modified …`, else nil.
        static func validator(etag: String?, lastModified: String?) -> String? {
            if let etag { return "ETag \(etag)" }
            return lastModified.map { "Last-Modified \($0)" }
        }
    }

    /// Versions of a URL the index remembers (for naming a change), newest first.
    static let historyLength = 8
    /// The largest index file read back.
    static let largestIndexFile = 64 * 1024

    /// Opens (making when missing) the cache at `folder`.
    /// - Throws: `MediaError(.output)` naming the folder when it cannot be made, is not a folder,
    ///   is not the running user's, or others may write in it (their index could name any file).
    package init(folder: String) throws(MediaError) {
        let absolute = folder.hasPrefix("/") ? folder : (FileSystem.currentFolder() ?? "/") + "/" + folder
        self.folder = absolute
        try AssetCache.makeFolder(absolute)
        var info = stat()
        guard FileSystem.lstat(absolute, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            throw MediaError(.output, subject: absolute, message: "the cache is not a folder (a file or a link is in the way)")
        }
        guard info.st_uid == geteuid() else {
            throw MediaError(.output, subject: absolute, message: "the cache folder belongs to another user; give a folder of your own")
        }
        guard info.st_mode & (S_IWGRP | S_IWOTH) == 0 else {
            throw MediaError(.output, subject: absolute, message: "others may write in the cache folder; make it yours alone (chmod go-w) or give another")
        }
        for sub in ["objects", "index", "locks", "tmp"] { try AssetCache.makeFolder(absolute + "/" + sub, parents: false) }
    }

    /// Makes `path` (and, with `parents`, the folders above it) with mode 0700 when missing.
    private static func makeFolder(_ path: String, parents: Bool = true) throws(MediaError) {
        var info = stat()
        if FileSystem.lstat(path, &info) == 0 { return }
        if parents {
            let parent = (path as NSString).deletingLastPathComponent
            if parent != path && !parent.isEmpty { try makeFolder(parent) }
        }
        if FileSystem.mkdir(path, 0o700) != 0 && errno != EEXIST {
            throw MediaError(.output, subject: path, message: "cannot make the cache folder (\(String(cString: strerror(errno))))")
        }
    }

    /// The index key of a URL: SHA-256 of the URL with its credentials hidden.
    static func key(_ url: RemoteURL) -> String { SHA256.hex(of: url.description) }

    /// Where the body with `digest` is kept.
    package func object(_ digest: String) -> String { "\(folder)/objects/\(digest.prefix(2))/\(digest)" }

    /// A new temporary file in `tmp/`, open for writing: its path and descriptor.
    func temporary() throws(MediaError) -> (path: String, descriptor: Int32) {
        for _ in 0..<16 {
            let path = "\(folder)/tmp/\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
            let descriptor = FileSystem.open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            if descriptor >= 0 { return (path, descriptor) }
            if errno != EEXIST { break }
        }
        throw MediaError(.output, subject: folder + "/tmp", message: "cannot write in the cache (\(String(cString: strerror(errno))))")
    }

    /// Moves a finished body at `temporary` (whose SHA-256 is `digest`) into `objects/`.
    func store(_ temporary: String, digest: String) throws(MediaError) {
        let target = object(digest)
        try AssetCache.makeFolder((target as NSString).deletingLastPathComponent, parents: false)
        // Same name, same bytes: a sound copy already there is kept, not replaced, so a job
        // reading it (another URL with the same body) never sees its file change under it.
        if holds(digest) {
            FileSystem.unlink(temporary)
            return
        }
        // Whichever run's copy lands there is as good.
        guard FileSystem.rename(temporary, target) == 0 else {
            let reason = String(cString: strerror(errno))
            FileSystem.unlink(temporary)
            throw MediaError(.output, subject: target, message: "cannot write in the cache (\(reason))")
        }
        _ = PathBytes.withCString(target) { chmod($0, 0o644) }
    }

    /// Whether the object `digest` is there and its bytes hash to its name.
    func holds(_ digest: String) -> Bool { check(digest) != nil }

    /// An object whose bytes were just read and hash to its name.
    struct Checked {
        /// Its stamp from just before its bytes were read; nil when it changed too recently
        /// (within `settled`) for its times to show a later change (a file's times move in
        /// steps of a clock tick).
        let stamp: InputStamp?
    }

    /// How long ago an object's last change must be for its stamp to stand for its bytes.
    static let settled: Int = 2

    /// The object `digest` when it is there and its bytes hash to its name; else nil.
    /// - Parameter now: the time, seconds since 1970 (tests give another).
    func check(_ digest: String, now: Int = Int(time(nil))) -> Checked? {
        let path = object(digest)
        var info = stat()
        guard FileSystem.lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_uid == geteuid() else { return nil }
        let stamp = InputStamp(path: path)
        guard (try? SHA256.hex(ofFileAt: path)) == digest else { return nil }
        let settled = Int(info.st_ctim.tv_sec) + AssetCache.settled < now
        return Checked(stamp: settled ? stamp : nil)
    }

    /// Holds the lock of `url` (blocking until another run's fetch of it ends, or `stop` says
    /// so): the descriptor to close when done, or nil when stopped.
    func lock(_ url: RemoteURL, stop: () -> Bool) throws(MediaError) -> Int32? {
        let path = "\(folder)/locks/\(AssetCache.key(url))"
        let descriptor = FileSystem.open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw MediaError(.output, subject: path, message: "cannot open the cache's lock (\(String(cString: strerror(errno)))); a link there is refused")
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_uid == geteuid() else {
            close(descriptor)
            throw MediaError(.output, subject: path, message: "the cache's lock is not a regular file of yours")
        }
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            if errno != EWOULDBLOCK && errno != EINTR {
                close(descriptor)
                throw MediaError(.output, subject: path, message: "cannot lock (\(String(cString: strerror(errno))))")
            }
            if stop() {
                close(descriptor)
                return nil
            }
            usleep(20_000)
        }
        return descriptor
    }

    /// The index's entry for `url`, when there is one that reads back as one slicevid writes.
    func entry(_ url: RemoteURL) -> Entry? {
        let path = "\(folder)/index/\(AssetCache.key(url))"
        let descriptor = FileSystem.open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_uid == geteuid(),
              info.st_size <= AssetCache.largestIndexFile else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        guard read(descriptor, &bytes, bytes.count) == bytes.count,
              let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else { return nil }
        func version(_ object: [String: Any]) -> Entry.Version? {
            guard let digest = object["digest"] as? String, AssetCache.isDigest(digest) else { return nil }
            let etag = object["etag"] as? String, modified = object["last_modified"] as? String
            guard [etag, modified].allSatisfy({ ($0?.utf8.count ?? 0) < 256 }) else { return nil }
            return Entry.Version(digest: digest, etag: etag, lastModified: modified)
        }
        guard object["url"] as? String == url.description, let current = version(object),
              let size = object["bytes"] as? Int, size >= 0 else { return nil }
        let history = ((object["history"] as? [Any]) ?? []).prefix(AssetCache.historyLength).compactMap { ($0 as? [String: Any]).flatMap(version) }
        // A lifetime that does not read back as one slicevid writes is none: the URL is asked.
        var freshness: Freshness?
        if let since = object["fresh_since"] as? Int, let lifetime = object["fresh_for"] as? Int, since >= 0, lifetime > 0,
           Int64(lifetime) <= Freshness.longest {
            freshness = Freshness(since: Int64(since), lifetime: Int64(lifetime))
        }
        return Entry(url: url.description, digest: current.digest, bytes: size, etag: current.etag, lastModified: current.lastModified,
                     freshness: freshness, history: history)
    }

    /// Writes `entry` as the index's entry for `url` (a temporary renamed over the old one).
    func record(_ entry: Entry, for url: RemoteURL) throws(MediaError) {
        func object(_ version: Entry.Version) -> [String: Any] {
            var object: [String: Any] = ["digest": version.digest]
            if let etag = version.etag { object["etag"] = etag }
            if let modified = version.lastModified { object["last_modified"] = modified }
            return object
        }
        var top = object(Entry.Version(digest: entry.digest, etag: entry.etag, lastModified: entry.lastModified))
        top["url"] = entry.url
        top["bytes"] = entry.bytes
        if let freshness = entry.freshness {
            top["fresh_since"] = Int(freshness.since)
            top["fresh_for"] = Int(freshness.lifetime)
        }
        top["history"] = entry.history.prefix(AssetCache.historyLength).map(object)
        guard let data = try? JSONSerialization.data(withJSONObject: top, options: [.sortedKeys]) else { return }
        let (path, descriptor) = try temporary()
        let wrote = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        let target = "\(folder)/index/\(AssetCache.key(url))"
        guard wrote == data.count, FileSystem.rename(path, target) == 0 else {
            FileSystem.unlink(path)
            throw MediaError(.output, subject: target, message: "cannot write the cache's index")
        }
    }

    /// Whether `text` is 64 lowercase hex digits.
    static func isDigest(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) }
    }
}
