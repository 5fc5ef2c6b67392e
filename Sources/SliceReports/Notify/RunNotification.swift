// `batch --notify URL`: when the run ends, its JSON report (or a Slack-style `{"text": …}`
// summary) is POSTed to a webhook, signed with HMAC-SHA256 over the exact body when a secret is
// given (read from a file or the environment, never the command line), and retried with backoff
// on a network error, a 5xx or a 429. Foundation's URLSession (libcurl underneath: TLS checked
// against the system's CAs, redirects bounded) does the HTTP; a failure is one line and never
// changes the run's exit status.

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SliceKit
import SliceMedia
import SlicePipeline
import Synchronization

/// Where and how a run says it is over.
public struct RunNotification: Sendable {
    /// What is POSTed.
    public enum Format: String, Sendable, CaseIterable {
        /// The run's JSON report, as `--report` writes it.
        case json
        /// `{"text": "campaign.json: 2 failed, 34 rendered (some-failed)"}`, which Slack,
        /// Mattermost and Teams' incoming webhooks take.
        case slack
    }

    /// The header that carries the signature: `sha256=` and the HMAC's hex digits.
    public static let signatureHeader = "X-Slicevid-Signature"
    /// The longest URL taken.
    static let longestURL = 4096
    /// The most bytes of a secret file read.
    static let largestSecret = 4096

    public let url: URL
    public let format: Format
    /// The HMAC key; nil sends the body unsigned.
    let secret: [UInt8]?
    /// Tries at most, the first included.
    package var attempts = 4
    /// Seconds before the second try; each later wait doubles.
    package var firstDelay = 0.5
    /// Seconds one try may take, connecting included.
    package var timeout = 10.0

    /// A notification to `url` (http or https, with a host).
    /// - Parameter secret: the HMAC key's bytes; nil or empty sends unsigned.
    /// - Throws: `SlicevidError(.usage)` naming the setting and what is accepted.
    public init(url text: String, format: Format = .json, secret: [UInt8]? = nil) throws(SlicevidError) {
        guard text.utf8.count <= Self.longestURL, let url = URL(string: text), let scheme = url.scheme?.lowercased(),
              scheme == "https" || scheme == "http", let host = url.host, !host.isEmpty else {
            throw SlicevidError(.usage, "\(setting: .notify) \(InputText.quoted(RunNotification.shown(text))): give an http:// or https:// URL with a host")
        }
        self.url = url
        self.format = format
        self.secret = secret.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The key in the file at `path` (its bytes, one trailing newline dropped), read as any
    /// input is: bounded, a regular file.
    /// - Throws: `SlicevidError` naming the file: `.inputMissing` when it cannot be read,
    ///   `.inputInvalid` when it is empty or larger than 4 KiB.
    public static func secret(fromFile path: String) throws(SlicevidError) -> [UInt8] {
        let data: Data
        do {
            data = try SettingsFile.read(path: path, limit: largestSecret)
        } catch .tooLarge(let bytes) {
            throw SlicevidError(.inputInvalid, "\(InputText.quoted(path)): is \(bytes) bytes; a notification secret of at most \(largestSecret) bytes is read")
        } catch {
            throw SlicevidError(.inputMissing, "\(InputText.quoted(path)): \(error.reason)")
        }
        var bytes = [UInt8](data)
        if bytes.last == 0x0A { bytes.removeLast() }
        if bytes.last == 0x0D { bytes.removeLast() }
        guard !bytes.isEmpty else { throw SlicevidError(.inputInvalid, "\(InputText.quoted(path)): is empty; a notification secret is its bytes") }
        return bytes
    }

    /// The URL as a log may show it: scheme, host and port, never a path, a query or userinfo
    /// (where webhooks keep their tokens).
    public var shownURL: String { Self.shown(url.absoluteString) }

    static func shown(_ text: String) -> String {
        guard let components = URLComponents(string: text), let scheme = components.scheme, let host = components.host else {
            return "(not a URL)"
        }
        return InputText.escaped("\(scheme)://\(host)\(components.port.map { ":\($0)" } ?? "")")
    }

    /// The body sent for `report`.
    package func body(for report: BatchReport) -> Data {
        switch format {
        case .json:
            return report.json
        case .slack:
            let name = report.manifest == "-" ? "stdin" : URL(fileURLWithPath: report.manifest).lastPathComponent
            let counts = JobStatus.allCases.filter { report.count($0) > 0 }.map { "\(report.count($0)) \($0 == .skipped ? "up to date" : $0.rawValue)" }
            let failed = report.jobs.filter { $0.status == .failed }.prefix(10).map { "\n• \($0.id): \($0.error ?? "failed")" }.joined()
            let text = "\(report.campaignDescription ?? name): \(counts.isEmpty ? "no jobs" : counts.joined(separator: ", ")) (\(report.outcomeName))" + failed
            return (try? JSONSerialization.data(withJSONObject: ["text": text], options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        }
    }

    /// The signature header's value for `body`: `sha256=` and the HMAC-SHA256's hex digits.
    package func signature(of body: Data) -> String? {
        secret.map { "sha256=" + Self.hmacSHA256(key: $0, message: body) }
    }

    /// HMAC-SHA256 (RFC 2104) of `message` under `key`, as lowercase hex.
    package static func hmacSHA256(key: [UInt8], message: Data) -> String {
        let block = 64
        var key = key.count > block ? digest(Data(key)) : key
        key += [UInt8](repeating: 0, count: block - key.count)
        let inner = SHA256()
        Data(key.map { $0 ^ 0x36 }).withUnsafeBytes { inner.update($0) }
        message.withUnsafeBytes { inner.update($0) }
        let outer = SHA256()
        Data(key.map { $0 ^ 0x5C } + bytes(hex: inner.finalHex())).withUnsafeBytes { outer.update($0) }
        return outer.finalHex()
    }

    private static func digest(_ data: Data) -> [UInt8] {
        let sha = SHA256()
        data.withUnsafeBytes { sha.update($0) }
        return bytes(hex: sha.finalHex())
    }

    private static func bytes(hex: String) -> [UInt8] {
        var result: [UInt8] = []
        var iterator = hex.utf8.makeIterator()
        while let high = iterator.next(), let low = iterator.next() {
            func value(_ digit: UInt8) -> UInt8 { digit >= 0x61 ? digit - 0x61 + 10 : digit - 0x30 }
            result.append(value(high) << 4 | value(low))
        }
        return result
    }

    /// POSTs `body`, retrying a network error, a 5xx or a 429 with doubling waits.
    /// - Returns: nil when the endpoint answered 2xx; else why not, in a line (the URL shown
    ///   without path or query).
    package func send(_ body: Data) -> String? {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.httpMethod = "POST"
        request.httpBody = body
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("slicevid", forHTTPHeaderField: "User-Agent")
        if let signature = signature(of: body) { request.setValue(signature, forHTTPHeaderField: Self.signatureHeader) }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        let session = URLSession(configuration: configuration)
        defer { session.invalidateAndCancel() }
        var delay = firstDelay
        var last = ""
        for attempt in 1...max(1, attempts) {
            let answer = Self.post(request, session: session)
            switch answer {
            case .status(let code) where (200..<300).contains(code):
                return nil
            case .status(let code):
                last = "HTTP \(code)"
                guard code >= 500 || code == 429 else { return "POST \(shownURL): \(last); not retried" }
            case .failed(let why):
                last = why
            }
            if attempt < attempts {
                Thread.sleep(forTimeInterval: delay)
                delay *= 2
            }
        }
        return "POST \(shownURL): \(last) after \(attempts) tries"
    }

    private enum Answer: Sendable {
        case status(Int)
        case failed(String)
    }

    /// One POST, waited for.
    private static func post(_ request: URLRequest, session: URLSession) -> Answer {
        let done = DispatchSemaphore(value: 0)
        let answer = Mutex<Answer>(.failed("no answer"))
        let task = session.dataTask(with: request) { _, response, error in
            let result: Answer
            if let status = (response as? HTTPURLResponse)?.statusCode {
                result = .status(status)
            } else {
                // The error's own words, never its URL (which may carry a token).
                let code = (error as? URLError)?.code
                result = .failed(code.map { "network error \($0.rawValue) (\(Self.words($0)))" } ?? "no answer")
            }
            answer.withLock { $0 = result }
            done.signal()
        }
        task.resume()
        done.wait()
        return answer.withLock { $0 }
    }

    /// What a URLError's code means, in a few words.
    private static func words(_ code: URLError.Code) -> String {
        switch code {
        case .timedOut: "timed out"
        case .cannotConnectToHost: "connection refused"
        case .cannotFindHost, .dnsLookupFailed: "host not found"
        case .networkConnectionLost: "connection lost"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateHasUnknownRoot:
            "TLS failed"
        case .httpTooManyRedirects: "too many redirects"
        default: "failed"
        }
    }
}
