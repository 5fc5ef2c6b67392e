// examples/feed as shipped: its remote campaign (campaign-remote.json, the stills as URLs) run
// against `python3 -m http.server` serving examples/stills on 127.0.0.1, as its description
// says to — the port the kernel gave put in place of the example's 8640, the server waited
// for by its first line, never by time. Its clips are the local campaign's, byte for byte (the
// same stills, fetched); a second night asks the server again and gets only 304s and renders
// nothing; the two manifests stay one campaign but for where the stills come from.

import Foundation
import Glibc
import Testing

@Suite("Feed example", .serialized, .timeLimit(.minutes(10)))
struct FeedExampleTests {
    /// The base URL the example's remote campaign names.
    static let exampleBase = "http://127.0.0.1:8640"

    /// `python3 -m http.server` over `folder` on 127.0.0.1, its request log kept in `log`.
    final class StillServer {
        let process = Process()
        let base: String
        let log: String

        init(folder: String, log: String) throws {
            self.log = log
            _ = FileManager.default.createFile(atPath: log, contents: nil)
            process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            process.arguments = ["-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", folder]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle(forWritingAtPath: log)
            try process.run()
            // "Serving HTTP on 127.0.0.1 port N (http://127.0.0.1:N/) ...": written once it listens.
            var line = Data()
            while !line.contains(0x0A) {
                let byte = output.fileHandleForReading.readData(ofLength: 1)
                if byte.isEmpty { break }
                line += byte
            }
            let text = String(decoding: line, as: UTF8.self)
            guard let port = text.firstMatch(of: #/port (\d+) /#)?.output.1 else {
                kill(process.processIdentifier, SIGKILL)
                throw HarnessError("python3 -m http.server did not start: \(text)")
            }
            base = "http://127.0.0.1:\(port)"
        }

        /// The status of every GET the server has answered so far, by path, in order.
        func requests() throws -> [(path: String, status: Int)] {
            let text = try String(contentsOfFile: log, encoding: .utf8)
            return text.matches(of: #/"GET (\S+) HTTP/1\.[01]" (\d{3}) /#).map { (String($0.output.1), Int($0.output.2) ?? 0) }
        }

        /// SIGKILL: the test process blocks SIGTERM, and its children inherit that.
        func stop() {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }

        deinit { if process.isRunning { stop() } }
    }

    static func statuses(_ path: String) throws -> [String: String] {
        let report = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        var statuses: [String: String] = [:]
        for job in report["jobs"] as? [[String: Any]] ?? [] { statuses[job["id"] as? String ?? ""] = job["status"] as? String }
        return statuses
    }

    /// Width, height and frame count of a video's first stream, by ffprobe (a checker only).
    static func probe(_ path: String) throws -> (width: Int, height: Int, frames: Int) {
        let result = try CLI.run(["-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                                  "stream=width,height,nb_read_frames", "-of", "csv=p=0", path],
                                 in: (path as NSString).deletingLastPathComponent, executable: "/usr/bin/ffprobe")
        let fields = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",").compactMap { Int($0) }
        guard fields.count == 3 else { throw HarnessError("ffprobe \(path): \(result.stdout) \(result.stderr)") }
        return (fields[0], fields[1], fields[2])
    }

    @Test("campaign-remote.json is campaign.json but for its stills (URLs of the same files), its outputs' folder and its description")
    func remoteIsTheSameCampaign() throws {
        func load(_ name: String) throws -> [String: Any] {
            let data = try Data(contentsOf: URL(fileURLWithPath: DocPage.root + "/examples/feed/" + name))
            return try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
        }
        var local = try load("campaign.json"), remote = try load("campaign-remote.json")
        local["description"] = nil
        remote["description"] = nil
        let text = String(decoding: try JSONSerialization.data(withJSONObject: remote, options: [.sortedKeys]), as: UTF8.self)
            .replacingOccurrences(of: #"http:\/\/127.0.0.1:8640\/"#, with: #"..\/stills\/"#)
            .replacingOccurrences(of: #""remote\/"#, with: #""out\/"#)
        let localText = String(decoding: try JSONSerialization.data(withJSONObject: local, options: [.sortedKeys]), as: UTF8.self)
        #expect(text == localText)
        #expect(text != String(decoding: try JSONSerialization.data(withJSONObject: remote, options: [.sortedKeys]), as: UTF8.self))
    }

    @Test("the remote campaign, its stills served by python3 -m http.server: the local campaign's clips byte for byte, and a second night of 304s renders nothing")
    func remoteCampaignRuns() throws {
        try withScratchFolder { folder in
            try DocPage.copyExamples(into: folder)
            let binary = try CLI.binary()
            let stills = try CLI.run([folder + "/examples/make-stills.sh"], in: folder, executable: "/bin/bash", timeout: 300,
                                     environment: ["SLICEVID": binary])
            #expect(stills.status == 0, "\(stills.stderr)")
            let server = try StillServer(folder: folder + "/examples/stills", log: folder + "/server.log")
            defer { server.stop() }
            let manifest = folder + "/examples/feed/campaign-remote.json"
            let shipped = try String(contentsOfFile: manifest, encoding: .utf8)
            #expect(shipped.components(separatedBy: Self.exampleBase + "/").count == 3, "the example's stills are not at \(Self.exampleBase)")
            try writeFile(manifest, Data(shipped.replacingOccurrences(of: Self.exampleBase + "/", with: server.base + "/").utf8))

            func batch(_ name: String, report: String) throws -> Int32 {
                let result = try CLI.run(["batch", "examples/feed/" + name, "--only", "NL-101", "--cache", folder + "/cache",
                                          "--report", report, "--log-format", "plain"], in: folder, timeout: 300)
                #expect(result.status == 0, "\(name): \(result.stderr)")
                return result.status
            }
            // One product (6 jobs: 3 sizes x 2 locales) from each manifest.
            guard try batch("campaign-remote.json", report: "remote1.json") == 0, try batch("campaign.json", report: "local.json") == 0 else { return }
            let ids = try Self.statuses(folder + "/remote1.json")
            #expect(ids.count == 6 && ids.values.allSatisfy { $0 == "rendered" }, "\(ids)")
            let night1 = try server.requests()
            #expect(Set(night1.map(\.path)) == ["/coffee-before.png", "/coffee-after.png"], "\(night1)")
            #expect(night1.contains { $0.status == 200 } && night1.allSatisfy { [200, 304].contains($0.status) }, "\(night1)")

            let sizes = ["480x270": (480, 270), "270x480": (270, 480), "360x360": (360, 360)]
            for (size, dimensions) in sizes {
                for locale in ["nl-NL", "de-DE"] {
                    let id = "NL-101-\(size)-\(locale)"
                    for type in ["mp4", "jpg"] {
                        let remote = FileManager.default.contents(atPath: "\(folder)/examples/feed/remote/\(locale)/\(id).\(type)")
                        let local = FileManager.default.contents(atPath: "\(folder)/examples/feed/out/\(locale)/\(id).\(type)")
                        #expect(remote != nil && remote == local, "\(id).\(type): the remote campaign's file is not the local one's")
                    }
                    let video = try Self.probe("\(folder)/examples/feed/remote/\(locale)/\(id).mp4")
                    // 12 fps: the hold (0.5 s) and the transition (0.75 s), its last frame held: 16 frames.
                    #expect(video.width == dimensions.0 && video.height == dimensions.1 && video.frames == 16, "\(id): \(video)")
                }
            }

            // Night two, the server unchanged: each still asked again, each a 304; nothing renders.
            #expect(try batch("campaign-remote.json", report: "remote2.json") == 0)
            let night2 = try server.requests().dropFirst(night1.count)
            #expect(!night2.isEmpty && night2.allSatisfy { $0.status == 304 }, "\(night2)")
            let second = try Self.statuses(folder + "/remote2.json")
            #expect(second.count == 6 && second.values.allSatisfy { $0 == "skipped" }, "\(second)")
        }
    }
}
