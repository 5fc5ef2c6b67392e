// A real HTTP(S) server on 127.0.0.1 for the remote-input tests: python3's http.server,
// started by the test on a port the kernel picks (read from its first line, so the test waits
// on the event, never on time), serving a folder with ETags and 304s, and the misbehaviours a
// fetcher must survive: 5xx and 429, a body that stalls, a connection reset, a redirect loop,
// a body of 2 GB, declared or not; and what servers say of freshness (Cache-Control max-age,
// no-cache, Age, Expires). It counts what it was asked, what it sent, and the connections. With a
// certificate and key it speaks TLS (a test CA made by `openssl` at test time: `TestCA`).

import Foundation
import Glibc

/// One running server; stopped when `stop()` is called.
public final class AssetServer: @unchecked Sendable {
    // @unchecked: the process is only started and stopped by the test that owns the server.
    private let process: Process
    /// `http://127.0.0.1:PORT` (or https).
    public let base: String

    /// The script: serves `root`; `/stats` answers the counts as JSON.
    static let script = #"""
import http.server, socketserver, sys, os, hashlib, json, threading, ssl, socket, struct, time, email.utils

root = sys.argv[1]
stats = {"requests": 0, "not_modified": 0, "body_bytes": 0, "by_path": {}, "connections": 0}
lock = threading.Lock()
stalled = threading.Event()

class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def log_message(self, *args): pass

    def send(self, status, body=b"", headers=()):
        self.send_response(status)
        for name, value in headers: self.send_header(name, value)
        if status != 304: self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if body:
            # Counted before it is sent: a client that has it is never ahead of the count.
            with lock: stats["body_bytes"] += len(body)
            self.wfile.write(body)

    def do_GET(self):
        path = self.path.split("?", 1)[0]
        with lock:
            # One handler per connection: the connections that served anything but the stats.
            if path != "/stats" and not getattr(self, "counted", False):
                self.counted = True
                stats["connections"] += 1
            stats["requests"] += 1
            stats["by_path"][path] = stats["by_path"].get(path, 0) + 1
            count = stats["by_path"][path]
        if path == "/stats":
            body = json.dumps(stats).encode()
            self.send_response(200); self.send_header("Content-Length", str(len(body))); self.end_headers(); self.wfile.write(body)
        elif path.startswith(("/img/", "/fresh/", "/nocache/", "/aged/", "/expires/")) or (path.startswith("/flaky/") and count > 2):
            kind, name = path.split("/", 2)[1:]
            try:
                data = open(os.path.join(root, name), "rb").read()
            except OSError:
                return self.send(404)
            etag = '"%s"' % hashlib.sha256(data).hexdigest()[:8]
            # What the server says of freshness, on the 200 and the 304 alike (Date comes with both).
            cache = {"fresh": [("Cache-Control", "public, max-age=3600")],
                     "nocache": [("Cache-Control", "max-age=3600"), ("Cache-Control", "no-cache")],
                     "aged": [("Cache-Control", "max-age=60"), ("Age", "100")],
                     "expires": [("Expires", email.utils.formatdate(time.time() + 3600, usegmt=True))]}.get(kind, [])
            if self.headers.get("If-None-Match") == etag:
                with lock: stats["not_modified"] += 1
                return self.send(304, headers=[("ETag", etag)] + cache)
            self.send(200, data, [("ETag", etag), ("Content-Type", "image/png")] + cache)
        elif path.startswith("/slow/"):
            # Held a moment so that transfers overlap: the most at once is what a limit bounds.
            with lock:
                stats["in_flight"] = stats.get("in_flight", 0) + 1
                stats["most_in_flight"] = max(stats.get("most_in_flight", 0), stats["in_flight"])
            threading.Event().wait(0.3)
            with lock: stats["in_flight"] -= 1
            self.send(200, path.encode())
        elif path.startswith("/flaky/"):
            self.send(503)
        elif path.startswith("/status/"):
            code = int(path.split("/")[2])
            self.send(code, headers=[("Retry-After", "1")] if code == 429 else [])
        elif path == "/stall":
            self.send_response(200); self.send_header("Content-Length", "100000"); self.end_headers()
            self.wfile.write(b"x" * 10); self.wfile.flush()
            stalled.wait(120)
        elif path == "/reset":
            # Linger 0 and every reference closed: the kernel answers with a reset (RST).
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.rfile.close(); self.wfile.close(); self.connection.close()
            self.close_connection = True
        elif path == "/loop":
            self.send(302, headers=[("Location", "/loop")])
        elif path in ("/huge", "/huge-declared"):
            self.send_response(200)
            if path == "/huge-declared": self.send_header("Content-Length", str(2 * 1024 ** 3))
            self.send_header("Connection", "close"); self.end_headers()
            chunk = b"\0" * (1 << 20)
            try:
                for _ in range(2048):
                    with lock: stats["body_bytes"] += len(chunk)
                    self.wfile.write(chunk)
            except OSError:
                pass
            self.close_connection = True
        else:
            self.send(404)

class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True

server = Server(("127.0.0.1", 0), Handler)
if len(sys.argv) > 3:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(sys.argv[2], sys.argv[3])
    server.socket = context.wrap_socket(server.socket, server_side=True)
print(server.server_address[1], flush=True)
server.serve_forever()
"""#

    /// Starts a server of `root`'s files (over TLS with `certificate` and `key`, PEM files).
    public init(root: String, certificate: String? = nil, key: String? = nil) throws {
        let script = root + "/.asset-server.py"
        try Data(AssetServer.script.utf8).write(to: URL(fileURLWithPath: script))
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [script, root] + [certificate, key].compactMap { $0 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The port is the server's first line: it is listening once it has written it.
        var line = Data()
        while !line.contains(0x0A) {
            let byte = output.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty { break }
            line += byte
        }
        guard let port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            kill(process.processIdentifier, SIGKILL)
            throw FixtureError("the test's HTTP server did not start")
        }
        base = (certificate == nil ? "http" : "https") + "://127.0.0.1:\(port)"
    }

    /// What the server counted: requests, 304s, body bytes sent, requests by path.
    public func stats() throws -> (requests: Int, notModified: Int, bodyBytes: Int, byPath: [String: Int]) {
        let object = try JSONSerialization.jsonObject(with: try fetch(base + "/stats")) as? [String: Any] ?? [:]
        return (object["requests"] as? Int ?? 0, object["not_modified"] as? Int ?? 0, object["body_bytes"] as? Int ?? 0,
                object["by_path"] as? [String: Int] ?? [:])
    }

    /// The connections that served anything but `/stats` (a client keeping one alive opens one).
    public func connections() throws -> Int {
        (try JSONSerialization.jsonObject(with: try fetch(base + "/stats")) as? [String: Any])?["connections"] as? Int ?? 0
    }

    /// The most `/slow/` requests the server was serving at once.
    public func mostInFlight() throws -> Int {
        (try JSONSerialization.jsonObject(with: try fetch(base + "/stats")) as? [String: Any])?["most_in_flight"] as? Int ?? 0
    }

    /// GETs `url` with python3's urllib (the server's certificate unchecked), for the stats.
    private func fetch(_ url: String) throws -> Data {
        let curl = Process()
        curl.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        curl.arguments = ["-c", "import ssl, sys, urllib.request; sys.stdout.buffer.write(urllib.request.urlopen(sys.argv[1], context=ssl._create_unverified_context()).read())", url]
        let output = Pipe()
        curl.standardOutput = output
        try curl.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        curl.waitUntilExit()
        return data
    }

    /// Kills the server: SIGKILL, as the test process blocks SIGTERM, and its children inherit that.
    public func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit { if process.isRunning { stop() } }
}

/// A CA and a server certificate for 127.0.0.1 signed by it, made with `openssl` in `folder`.
public struct TestCA {
    public let caFile: String
    public let certificate: String
    public let key: String

    public init(folder: String) throws {
        func openssl(_ arguments: [String]) throws {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
            process.arguments = arguments
            process.currentDirectoryURL = URL(fileURLWithPath: folder)
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { throw FixtureError("openssl \(arguments.first ?? "") failed") }
        }
        let curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try openssl(["req", "-x509"] + curve + ["-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=slicevid test CA"])
        try openssl(["req"] + curve + ["-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=127.0.0.1"])
        try Data("subjectAltName=IP:127.0.0.1\n".utf8).write(to: URL(fileURLWithPath: folder + "/san.ext"))
        try openssl(["x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out", "server.pem",
                     "-days", "2", "-extfile", "san.ext"])
        (caFile, certificate, key) = (folder + "/ca.pem", folder + "/server.pem", folder + "/server.key")
    }
}
