// One HTTP(S) transfer of a remote input with libcurl (CCurl: opened on the first URL), and
// what it came to in slicevid's terms: a body, "not modified", a failure worth a retry
// (timeout, reset, 5xx, 408, 429) or one that is not (404, a body over its cap, a redirect
// loop, a certificate no CA vouches for).

import CCurl
import Glibc
import SliceKit

/// What one transfer came to.
enum TransferOutcome {
    /// A body, written to the file given (its size, and the final response's validators and
    /// freshness headers).
    case body(bytes: Int, etag: String?, lastModified: String?, cache: CacheHeaders)
    /// 304: the copy held is current (with the validators and freshness headers the 304 sent).
    case notModified(etag: String?, lastModified: String?, cache: CacheHeaders)
    /// Worth another attempt; `retryAfter` is the server's ask in seconds, when it made one.
    case transient(String, retryAfter: Int?)
    /// Fails the same way next time.
    case permanent(String, MediaError.Kind)
    /// The run is stopping.
    case stopped
}

/// One transfer.
struct RemoteTransfer {
    let url: RemoteURL
    let kind: RemoteKind
    let options: RemoteOptions
    /// The held copy's validators, for a conditional request.
    let etag: String?
    let lastModified: String?
    /// The run's kept connections (RemoteAssets' session).
    let session: OpaquePointer?

    /// Runs the transfer, writing a body to `body` (made when its first byte arrives).
    func run(into body: BodyFile, stop: @escaping () -> Bool) throws(MediaError) -> TransferOutcome {
        guard slicevid_curl_load() == 1 else {
            throw MediaError(.unavailable, subject: url.description,
                             message: "libcurl is not installed (\(String(cString: slicevid_curl_error()))); install libcurl4 to fetch URLs")
        }
        let cap = options.maxBytes[kind] ?? 100_000_000
        var result = slicevid_fetch_result()
        // The stop closure reaches C as a context pointer, alive for the call.
        final class Box {
            let stop: () -> Bool, body: BodyFile
            init(_ stop: @escaping () -> Bool, _ body: BodyFile) { self.stop = stop; self.body = body }
        }
        let box = Box(stop, body)
        withExtendedLifetime(box) {
            url.text.withCString { urlText in
                "slicevid".withCString { agent in
                    withOptionalCString(options.caFile) { ca in
                        withOptionalCString(etag) { etag in
                            withOptionalCString(lastModified) { modified in
                                var request = slicevid_fetch_request()
                                request.url = urlText
                                request.user_agent = agent
                                request.ca_file = ca
                                request.if_none_match = etag
                                request.if_modified_since = modified
                                request.body_fd = -1
                                request.open_body = { context in Unmanaged<Box>.fromOpaque(context!).takeUnretainedValue().body.open() }
                                request.max_bytes = Int64(cap)
                                request.connect_timeout_ms = max(1, Int(options.connectTimeout.components.seconds * 1000
                                    + options.connectTimeout.components.attoseconds / 1_000_000_000_000_000))
                                request.stall_seconds = max(1, Int(options.stallTimeout.components.seconds))
                                request.max_redirects = options.maxRedirects
                                request.stop = { context in Unmanaged<Box>.fromOpaque(context!).takeUnretainedValue().stop() ? 1 : 0 }
                                request.stop_context = Unmanaged.passUnretained(box).toOpaque()
                                slicevid_fetch(session, &request, &result)
                            }
                        }
                    }
                }
            }
        }
        // The cache's own trouble making the file, in its own words.
        if let failure = body.failure { throw failure }
        return outcome(of: &result, cap: cap)
    }

    /// Sorts a transfer's result.
    private func outcome(of result: inout slicevid_fetch_result, cap: Int) -> TransferOutcome {
        let etag = text(&result.etag), modified = text(&result.last_modified)
        let message = RemoteURL.scrub(text(&result.message) ?? "")
        if result.too_large != 0 {
            return .permanent("is over the \(RemoteTransfer.bytes(cap)) limit for a \(kind.rawValue)", .inputInvalid)
        }
        if result.write_failed != 0 {
            return .permanent("cannot be written into the cache (\(String(cString: strerror(result.write_errno))))", .output)
        }
        let retryAfter = result.retry_after >= 0 ? Int(result.retry_after) : nil
        switch result.curl_code {
        case 0:
            break
        case 42: // CURLE_ABORTED_BY_CALLBACK
            return .stopped
        case 28: // CURLE_OPERATION_TIMEDOUT: connecting, or a body that stalled
            return .transient("timed out (\(message))", retryAfter: nil)
        case 5, 6, 7, 16, 18, 35, 52, 55, 56: // proxy, host, connect, HTTP/2, partial body, TLS connect, nothing, send, receive
            return .transient(message, retryAfter: nil)
        case 47: // CURLE_TOO_MANY_REDIRECTS
            return .permanent("more than \(options.maxRedirects) redirects (a redirect loop?)", .inputMissing)
        case 60, 77, 58, 83, 90, 91: // certificate not trusted, CA file, client cert, issuer, pinned key, status
            return .permanent("its server's certificate is not trusted (\(message)); a private CA's file can be given", .inputMissing)
        case 1: // CURLE_UNSUPPORTED_PROTOCOL, also a redirect to another scheme
            return .permanent("redirects to a scheme slicevid does not fetch (http and https only)", .inputMissing)
        default:
            return .permanent(message.isEmpty ? "transfer failed (curl error \(result.curl_code))" : message, .inputMissing)
        }
        let cache = CacheHeaders(cacheControl: text(&result.cache_control), expires: result.expires == -1 ? nil : result.expires,
                                 date: result.date >= 0 ? result.date : nil, age: result.age >= 0 ? result.age : nil,
                                 requestTime: result.request_time, responseTime: result.response_time)
        switch result.status {
        case 200...299: return .body(bytes: Int(result.bytes), etag: etag, lastModified: modified, cache: cache)
        case 304 where self.etag != nil || lastModified != nil: return .notModified(etag: etag, lastModified: modified, cache: cache)
        case 408, 425, 429, 500...599: return .transient("HTTP \(result.status)", retryAfter: retryAfter)
        default: return .permanent("HTTP \(result.status)", .inputMissing)
        }
    }

    /// `100 MB` for a cap in whole megabytes (as the defaults are), else the bytes.
    static func bytes(_ count: Int) -> String {
        count % 1_000_000 == 0 ? "\(count / 1_000_000) MB" : "\(count) bytes"
    }

    /// A C string field as Swift text; nil when empty.
    private func text<T>(_ field: inout T) -> String? {
        withUnsafeBytes(of: &field) { raw in
            let bytes = raw.prefix { $0 != 0 }
            return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
        }
    }
}

/// The temporary file a transfer's body is written to, made only when a body arrives (a 304
/// makes none), by `make` (the cache's `temporary`).
final class BodyFile {
    private let make: () throws(MediaError) -> (path: String, descriptor: Int32)
    /// The file, once made.
    private(set) var path: String?
    private var descriptor: Int32 = -1
    /// Why it could not be made.
    private(set) var failure: MediaError?

    init(_ make: @escaping () throws(MediaError) -> (path: String, descriptor: Int32)) { self.make = make }

    /// Makes the file (once; later calls make no other): its descriptor, or -1.
    func open() -> Int32 {
        if path != nil || failure != nil { return descriptor }
        do throws(MediaError) {
            let made = try make()
            path = made.path
            descriptor = made.descriptor
        } catch {
            failure = error
            errno = EIO
        }
        return descriptor
    }

    /// Closes the file (when made); its path stays.
    func close() {
        if descriptor >= 0 { Glibc.close(descriptor) }
        descriptor = -1
    }

    /// Closes and deletes the file (when made).
    func remove() {
        close()
        if let path { FileSystem.unlink(path) }
        path = nil
    }
}

/// Calls `body` with `text`'s C string, or with nil.
private func withOptionalCString<R>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
    guard let text else { return body(nil) }
    return text.withCString { body($0) }
}
