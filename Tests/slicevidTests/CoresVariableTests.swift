// `SLICEVID_CORES`: the cores `make` and `batch` share out when the machine's count is not what
// they may use. The dry run shows each clip's encoder threads (x264's, x265's and libvpx's bytes
// depend on them); a batch's default --parallel follows; a value that is not a count is 64.

import Foundation
import Testing

@Suite("SLICEVID_CORES")
struct CoresVariableTests {
    /// The dry run's `threads=` for each output line, by path.
    private func threads(_ stdout: String) -> [String: String] {
        var found: [String: String] = [:]
        for line in stdout.split(separator: "\n") {
            let path = String(line.prefix { $0 != ":" })
            found[path] = line.split(separator: " ").first { $0.hasPrefix("threads=") }.map { String($0.dropFirst(8)) } ?? "none"
        }
        return found
    }

    @Test("the dry run shows each clip's encoder threads, from the cores given and the frame")
    func dryRunShowsThreads() throws {
        try withScratchFolder { folder in
            let flags = ["make", "--size", "1920x1080", "-o", "a.mp4", "-o", "a.webm", "-o", "a.gif", "-o", "p.png", "--dry-run"]
            let sixteen = try CLI.run(flags, in: folder, environment: ["SLICEVID_CORES": "16"])
            #expect(sixteen.status == 0, "\(sixteen)")
            #expect(threads(sixteen.stdout) == ["a.mp4": "7", "a.webm": "7", "a.gif": "1", "p.png": "none"], "\(sixteen.stdout)")
            let two = try CLI.run(flags, in: folder, environment: ["SLICEVID_CORES": "2"])
            #expect(threads(two.stdout)["a.mp4"] == "3", "\(two.stdout)")
            let json = try CLI.run(["make", "--size", "1280x720", "-o", "a.mp4", "--dry-run", "--json"], in: folder,
                                   environment: ["SLICEVID_CORES": "16"])
            let object = try #require(try JSONSerialization.jsonObject(with: json.stdoutData) as? [String: Any], "\(json)")
            #expect(object["threads"] as? Int == 3, "\(json.stdout)")
        }
    }

    @Test("a value that is not a core count is refused with 64 in one line, by make and batch", arguments: ["0", "abc", "4097", " 2"])
    func refused(value: String) throws {
        try withScratchFolder { folder in
            for arguments in [["make", "-o", "a.mp4", "--dry-run"], ["batch", "m.json"]] {
                let run = try CLI.run(arguments, in: folder, environment: ["SLICEVID_CORES": value])
                #expect(run.status == 64 && run.stderrIsOneLine, "\(arguments[0]): \(run)")
                #expect(run.stderr.contains("SLICEVID_CORES: '\(value)' is not a whole number 1–4096"), "\(arguments[0]): \(run)")
            }
        }
    }

    @Test("a batch of 1080p jobs runs three at a time on 16 cores and one at a time on 2; empty is unset")
    func batchSharesTheCoresGiven() throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        let manifest = try folder.campaign(jobs: (0..<4).map { ["id": "j\($0)", "images": ["s0.png", "s1.png"], "outputs": ["out/j\($0).mp4"]] },
                                           defaults: ["size": "1920x1080", "fps": 10, "hold": 0.2, "duration": 0.3, "encoder-preset": "ultrafast"])
        let sixteen = try CLI.run(["batch", manifest, "--force"], in: folder.path, environment: ["SLICEVID_CORES": "16"])
        #expect(sixteen.status == 0 && sixteen.stderr.contains("4 jobs, 3 at a time"), "\(sixteen)")
        let four = try CLI.run(["batch", manifest, "--force", "--parallel", "4"], in: folder.path, environment: ["SLICEVID_CORES": "16"])
        #expect(four.status == 0 && four.stderr.contains("4 jobs, 4 at a time"), "\(four)")
        let one = try CLI.run(["batch", manifest, "--force"], in: folder.path, environment: ["SLICEVID_CORES": "2"])
        #expect(one.status == 0 && one.stderr.contains("4 jobs, 1 at a time"), "\(one)")
        let unset = try CLI.run(["batch", manifest, "--plan"], in: folder.path, environment: ["SLICEVID_CORES": ""])
        #expect(unset.status == 0, "\(unset)")
    }
}
