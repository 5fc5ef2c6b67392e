// `batch --notify URL`: the run's report POSTed to a webhook on loopback started by the test,
// its HMAC-SHA256 signature verified by Python's hmac module (not slicevid's code), a 500 retried,
// a dead endpoint never changing the exit status, and the URL's token in no line slicevid prints.

import Foundation
import Glibc
import Synchronization
import Testing

/// An HTTP endpoint on 127.0.0.1 that answers each POST with the next of `statuses` (the last
/// one repeated) and keeps what it received.
final class WebhookServer: Sendable {
    struct Received: Sendable {
        let head: String
        let body: Data
    }

    let port: UInt16
    private let socket: Int32
    private let statuses: [Int]
    private let received = Mutex<[Received]>([])

    init(statuses: [Int]) throws {
        self.statuses = statuses
        let listening = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listening, $0, length) } }
        guard bound == 0, listen(listening, 8) == 0 else { throw HarnessError("cannot listen on 127.0.0.1: \(String(cString: strerror(errno)))") }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listening, $0, &length) } }
        socket = listening
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    /// What was received so far.
    var requests: [Received] { received.withLock { $0 } }

    /// Stops accepting (the thread ends on the closed socket).
    func stop() { shutdown(socket, Int32(SHUT_RDWR)); close(socket) }

    private func serve() {
        while true {
            let client = accept(socket, nil, nil)
            guard client >= 0 else { return }
            handle(client)
            close(client)
        }
    }

    private func handle(_ client: Int32) {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        func readMore() -> Bool {
            let count = read(client, &buffer, buffer.count)
            guard count > 0 else { return false }
            data.append(contentsOf: buffer[0..<count])
            return true
        }
        let separator = Data("\r\n\r\n".utf8)
        while data.range(of: separator) == nil { guard readMore() else { return } }
        let end = data.range(of: separator)!
        let head = String(decoding: data[..<end.lowerBound], as: UTF8.self)
        let lines = head.lowercased().split(separator: "\r\n")
        let length = lines.first { $0.hasPrefix("content-length:") }.flatMap { Int($0.dropFirst(15).trimmingCharacters(in: .whitespaces)) } ?? 0
        if lines.contains(where: { $0.hasPrefix("expect:") && $0.contains("100-continue") }) {
            let reply = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)
            _ = write(client, reply, reply.count)
        }
        while data.count - end.upperBound < length { guard readMore() else { return } }
        let body = data[end.upperBound..<(end.upperBound + length)]
        let index = received.withLock { requests -> Int in
            requests.append(Received(head: head, body: Data(body)))
            return requests.count - 1
        }
        let status = statuses[min(index, statuses.count - 1)]
        let reply = Array("HTTP/1.1 \(status) Status\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8)
        _ = write(client, reply, reply.count)
    }
}

@Suite(.serialized, .timeLimit(.minutes(5))) struct NotifyCLITests {
    /// The HMAC-SHA256 of `body` under the key in `secret`, by Python's hmac module.
    private func hmac(secretFile: String, body: Data, in folder: CampaignFolder) throws -> String {
        try body.write(to: URL(fileURLWithPath: folder.path + "/body.bin"))
        let script = "import hmac,hashlib,sys; print(hmac.new(open(sys.argv[1],'rb').read().rstrip(b'\\n'), open(sys.argv[2],'rb').read(), hashlib.sha256).hexdigest())"
        let run = try CLI.run(["-c", script, secretFile, "body.bin"], in: folder.path, executable: "/usr/bin/python3")
        try #require(run.status == 0, "\(run)")
        return run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func theReportIsPostedSignedAfterA500AndTheTokenIsNeverPrinted() throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        let server = try WebhookServer(statuses: [500, 200])
        defer { server.stop() }
        let manifest = try folder.campaign(jobs: [["id": "a", "images": ["s0.png", "s1.png"], "outputs": ["out/a.mp4"]]])
        _ = try folder.write("hook.key", "k3y-of-the-team\n")
        let url = "http://127.0.0.1:\(server.port)/hooks/T0KEN-in-path?token=T0KEN-in-query"
        let run = try BatchCLI.run(["batch", manifest, "--report", "report.json", "--notify", url, "--notify-secret", "hook.key"], in: folder.path)
        #expect(run.status == 0, "\(run.stderr)")
        let requests = server.requests
        #expect(requests.count == 2, "\(requests.map(\.head))")
        let last = try #require(requests.last)
        // The body is the run's report, byte for byte as --report wrote it; the signature is
        // the HMAC of those bytes under the key, as any HMAC library computes it.
        #expect(last.body == (try Data(contentsOf: URL(fileURLWithPath: folder.path + "/report.json"))))
        let signature = try hmac(secretFile: folder.path + "/hook.key", body: last.body, in: folder)
        #expect(signature.count == 64 && last.head.contains("\r\nX-Slicevid-Signature: sha256=\(signature)"), "\(last.head)")
        #expect(last.head.hasPrefix("POST /hooks/T0KEN-in-path?token=T0KEN-in-query HTTP/1.1"), "\(last.head)")
        #expect(!run.stderr.contains("T0KEN") && run.stderr.contains("notified http://127.0.0.1:\(server.port)\n"), "\(run.stderr)")
    }

    @Test func aDeadEndpointIsOneLineAndNeverChangesTheExitStatus() throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        // A port that was listening and is closed: connections are refused.
        let server = try WebhookServer(statuses: [200])
        let port = server.port
        server.stop()
        let manifest = try folder.campaign(jobs: [["id": "a", "images": ["s0.png", "s1.png"], "outputs": ["out/a.mp4"]],
                                                  ["id": "b", "images": ["s0.png", "corrupt.png"], "outputs": ["out/b.mp4"]]])
        let run = try BatchCLI.run(["batch", manifest, "--notify", "https://127.0.0.1:\(port)/x?sig=T0KEN", "--notify-format", "slack"], in: folder.path)
        #expect(run.status == 1, "\(run.stderr)")
        let lines = run.stderr.split(separator: "\n").filter { $0.contains("notify") }
        #expect(lines.count == 1 && lines[0].hasSuffix("slicevid: notify: POST https://127.0.0.1:\(port): network error -1004 (connection refused) after 4 tries; the exit status is the run's"), "\(run.stderr)")
        #expect(!run.stderr.contains("T0KEN"))
    }

    @Test func slackGetsOneLineOfTextAndBadSettingsAreUsageErrors() throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        let server = try WebhookServer(statuses: [200])
        defer { server.stop() }
        let manifest = try folder.campaign(jobs: [["id": "a", "images": ["s0.png", "s1.png"], "outputs": ["out/a.mp4"]]])
        let run = try BatchCLI.run(["batch", manifest, "--notify", "http://127.0.0.1:\(server.port)/", "--notify-format", "slack", "-q"], in: folder.path)
        #expect(run.status == 0, "\(run.stderr)")
        let body = try #require(server.requests.first?.body)
        let object = try #require(JSONSerialization.jsonObject(with: body) as? [String: Any])
        #expect(object.keys.sorted() == ["text"] && object["text"] as? String == "campaign.json: 1 rendered (ok)", "\(object)")
        #expect(!(server.requests.first?.head.contains("X-Slicevid-Signature") ?? true), "unsigned without a key")
        let cases: [([String], Int32, String)] = [
            (["--notify", "ftp://example.com/"], 64, "give an http:// or https:// URL"),
            (["--notify", "http://127.0.0.1/", "--notify-format", "xml"], 64, "not one of json, slack"),
            (["--notify-secret", "hook.key"], 64, "give --notify URL too"),
            (["--notify", "http://127.0.0.1/", "--notify-secret", "missing.key"], 66, "missing.key"),
            (["--notify", "http://127.0.0.1/", "--plan"], 64, "notify no one"),
        ]
        for (arguments, status, words) in cases {
            let refused = try BatchCLI.run(["batch", manifest] + arguments, in: folder.path)
            #expect(refused.status == status && refused.stderr.contains(words), "\(arguments): \(refused)")
        }
    }
}
