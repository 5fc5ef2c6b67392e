// Stills whose decoders can abort, as a user meets them: an SVG that makes librsvg panic is one
// line and its documented code in make, batch, batch --check and probe (never 134); SIGTERM in
// the middle of a HEIC grid's decode is 143 with no temporary left; dav1d's own diagnostics of a
// damaged AVIF never reach stderr; an SVGZ bomb is refused in bounded memory.

import CHeif
import Foundation
import Glibc
import SliceKit
import SliceMedia
import StillFixtures
import Testing

@Suite("decoders that can abort run out of process", .serialized, .timeLimit(.minutes(10)))
struct DecodeIsolationCLITests {
    /// 110 bytes that make librsvg 2.54 panic (`assertion failed: h >= 0.0`), which aborts.
    static let abortingSVG = "<svg xmlns='http://www.w3.org/2000/svg' width='100' height='100'><text y='100' font-size='3e6'>A</text></svg>"

    @Test("an SVG that makes librsvg abort: make and probe exit 65 with one line, never 134")
    func makeAndProbe() throws {
        try withScratchFolder { folder in
            try writeFile(folder + "/bomb.svg", Data(Self.abortingSVG.utf8))
            try Still.write(Still.squareOn(RGBAColor(red: 200, green: 40, blue: 40), width: 64, height: 36, side: 12), "b.png", in: folder)
            let make = try CLI.make(tinyClip + ["bomb.svg", "b.png", "-o", "out.mp4"], in: folder)
            #expect(make.status == 65 && !make.signalled && make.stderrIsOneLine, "\(make)")
            #expect(make.stderr == "slicevid: error: bomb.svg: could not be decoded: the SVG decoder (librsvg) aborted (assertion failed: h >= 0.0)\n",
                    "\(make)")
            #expect(!FileManager.default.fileExists(atPath: folder + "/out.mp4") && leftovers(in: folder).isEmpty)
            let probe = try CLI.run(["probe", "bomb.svg"], in: folder)
            #expect(probe.status == 65 && !probe.signalled && probe.stderrIsOneLine && probe.stderr.contains("bomb.svg: could not be decoded"),
                    "\(probe)")
        }
    }

    @Test("in a batch the aborting SVG fails its job alone: the other jobs render and the report is written; --check names it in one line")
    func batch() throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        try folder.write("bomb.svg", Self.abortingSVG)
        let manifest = try folder.campaign(jobs: [
            ["id": "first", "images": ["s0.png", "s1.png"], "outputs": ["out/first.mp4"]],
            ["id": "bomb", "images": ["s0.png", "bomb.svg"], "outputs": ["out/bomb.mp4"]],
            ["id": "last", "images": ["s1.png", "s2.png"], "outputs": ["out/last.mp4"]],
        ])
        let check = try BatchCLI.run(["batch", manifest, "--check"], in: folder.path)
        #expect(check.status == 1, "\(check)")
        let lines = check.stderr.split(separator: "\n")
        #expect(lines.filter { $0.contains("bomb.svg") } == ["slicevid: \(manifest): job 'bomb': \(folder.path)/bomb.svg: could not be decoded: the SVG decoder (librsvg) aborted (assertion failed: h >= 0.0)"],
                "\(check.stderr)")
        #expect(!check.stderr.contains("panicked") && !check.stderr.contains("Backtrac"), "\(check.stderr)")

        let run = try BatchCLI.run(["batch", manifest, "--report", "report.json"], in: folder.path)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(try folder.report().statuses == ["first": "rendered", "bomb": "failed", "last": "rendered"])
        #expect(try MediaReader.info(path: folder.path + "/out/last.mp4").frameCount == 6)
        #expect(!run.stderr.contains("panicked") && folder.leftovers().isEmpty, "\(run.stderr)")
    }

    @Test("run under a lower address-space limit (ulimit -v 3 GiB) than the helper's own, an SVG still decodes: the helper keeps the lower one")
    func underALowerLimit() throws {
        try withScratchFolder { folder in
            try writeFile(folder + "/card.svg", Data("<svg xmlns='http://www.w3.org/2000/svg' width='64' height='36'><rect width='64' height='36' fill='#c33'/></svg>".utf8))
            let result = try CLI.run(["-c", "ulimit -v 3145728 && exec \"$0\" \"$@\"", try CLI.binary(), "make"] + tinyClip
                                     + ["card.svg", "card.svg", "-o", "out.mp4"], in: folder, executable: "/bin/sh")
            #expect(result.status == 0, "\(result)")
            #expect(try MediaReader.info(path: folder + "/out.mp4").frameCount == tinyClipFrames)
        }
    }

    /// CPU time (clock ticks) used so far by `pid` and by its children, living or reaped.
    private func ticks(_ pid: Int32) -> (total: Int, children: [Int32]) {
        func fields(_ pid: Int32) -> [Int] {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else { return [] }
            // After "pid (comm) ": state is field 3; utime, stime, cutime, cstime are fields 14–17.
            return stat[stat.index(after: close)...].split(separator: " ").dropFirst(11).prefix(4).compactMap { Int($0) }
        }
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        let children = tasks.flatMap { task in
            ((try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8)) ?? "").split(separator: " ").compactMap { Int32($0) }
        }
        return (fields(pid).reduce(0, +) + children.map { fields($0).prefix(2).reduce(0, +) }.reduce(0, +), children)
    }

    @Test("SIGTERM at a random moment of a HEIC grid's decode: 143, one line, no temporary, no helper left behind")
    func sigtermDuringAGridDecode() throws {
        try withScratchFolder { folder in
            // 64 tiles of 512x512 noise, 4096x4096: libheif reads each tile's data just before
            // decoding it, all through a decode of a second or two.
            try HEIFGrid.write(tile: noise(width: 512, height: 512), columns: 8, rows: 8, to: folder + "/grid.heic")
            try Still.write(Still.squareOn(RGBAColor(red: 40, green: 40, blue: 200), width: 64, height: 36, side: 12), "b.png", in: folder)
            for attempt in 1...4 {
                // The moment: once slicevid and its helper have used this much CPU (the grid takes
                // about 170 ticks), so the signal lands anywhere from start-up to late in the decode.
                let moment = Int.random(in: 0...140)
                var helpers: Set<Int32> = []
                let result = try CLI.run(["make", "grid.heic", "b.png", "--size", "640x360", "--hold", "0.1", "--duration", "0.2",
                                          "-o", "out.mp4"], in: folder) { process, _ in
                    let pid = process.processIdentifier
                    while process.isRunning {
                        let now = ticks(pid)
                        helpers.formUnion(now.children)
                        if now.total >= moment { break }
                        sched_yield()
                    }
                    kill(pid, SIGTERM)
                }
                #expect(result.status == 143 && !result.signalled, "attempt \(attempt) at \(moment) ticks: \(result)")
                #expect(result.stderr == "slicevid: error: interrupted by SIGTERM; no output was written\n", "attempt \(attempt): \(result)")
                #expect(leftovers(in: folder).isEmpty && !FileManager.default.fileExists(atPath: folder + "/out.mp4"),
                        "attempt \(attempt): \(leftovers(in: folder))")
                // Killed with the run: each helper seen goes (its parent, or init, reaps it).
                for helper in helpers {
                    while FileManager.default.fileExists(atPath: "/proc/\(helper)"), processStatus(helper)?.contains("slicevid") == true { sched_yield() }
                }
            }
        }
    }

    /// Seeded noise: a tile that takes its decoder a while.
    private func noise(width: Int, height: Int) -> RGBAImage {
        var generator = SplitMix64(seed: 7)
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for i in 0..<(width * height) {
            let bits = generator.next()
            (pixels[4 * i], pixels[4 * i + 1], pixels[4 * i + 2]) = (UInt8(truncatingIfNeeded: bits), UInt8(truncatingIfNeeded: bits >> 8),
                                                                     UInt8(truncatingIfNeeded: bits >> 16))
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    /// The first line of /proc/PID/status ("Name:\tslicevid"), if the process exists.
    private func processStatus(_ pid: Int32) -> String? {
        (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8))?.split(separator: "\n").first.map(String.init)
    }

    /// An AVIF (libaom through libheif) whose first OBU header is zeroed: dav1d says
    /// "Unknown OBU type 0" on its own standard error.
    private func damagedAVIF(in folder: String) throws -> String {
        let path = folder + "/obu.avif"
        try HEIFWriter.heic(Still.squareOn(RGBAColor(red: 40, green: 160, blue: 40), width: 64, height: 64, side: 16), to: path,
                            lossless: false, compression: heif_compression_AV1)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let mdat = try #require((0..<(bytes.count - 8)).first { Array(bytes[($0 + 4)..<($0 + 8)]) == Array("mdat".utf8) })
        bytes[mdat + 8] = 0
        try writeFile(path, Data(bytes))
        return path
    }

    @Test("a damaged AVIF: stderr holds one line (one JSON object with --log-format json), none of dav1d's")
    func damagedAVIFIsOneLine() throws {
        try withScratchFolder { folder in
            _ = try damagedAVIF(in: folder)
            try Still.write(Still.squareOn(RGBAColor(red: 200, green: 40, blue: 40), width: 64, height: 36, side: 12), "b.png", in: folder)
            let plain = try CLI.make(tinyClip + ["obu.avif", "b.png", "-o", "out.mp4"], in: folder)
            #expect(plain.status == 65 && plain.stderrIsOneLine && plain.stderr.contains("obu.avif: is truncated or corrupt"), "\(plain)")
            #expect(!plain.stderr.contains("OBU"), "\(plain)")
            let json = try CLI.make(tinyClip + ["obu.avif", "b.png", "-o", "out.mp4", "--log-format", "json"], in: folder)
            #expect(json.status == 65 && json.stderrIsOneLine, "\(json)")
            let object = try JSONSerialization.jsonObject(with: Data(json.stderr.utf8)) as? [String: Any]
            #expect(object?["event"] as? String == "error" && (object?["error"] as? String)?.contains("obu.avif") == true, "\(json)")
            let probe = try CLI.run(["probe", "obu.avif"], in: folder)
            #expect(probe.status == 65 && probe.stderrIsOneLine && !probe.stderr.contains("OBU"), "\(probe)")
        }
    }

    @Test("an SVGZ that inflates to 2 GiB is refused with 65 and one line, slicevid's peak memory under 300 MB")
    func svgzBomb() throws {
        try withScratchFolder { folder in
            let head = Array("<svg xmlns='http://www.w3.org/2000/svg' width='64' height='36'>".utf8)
            try writeFile(folder + "/bomb.svgz", Data(Gzip.bomb(head: head, mebibytesOfSpaces: 2048, tail: Array("</svg>".utf8))))
            try Still.write(Still.squareOn(RGBAColor(red: 200, green: 40, blue: 40), width: 64, height: 36, side: 12), "b.png", in: folder)
            let result = try CLI.make(tinyClip + ["bomb.svgz", "b.png", "-o", "out.mp4"], in: folder)
            #expect(result.status == 65 && result.stderrIsOneLine, "\(result)")
            #expect(result.stderr.contains("bomb.svgz: is an SVGZ whose SVG text inflates to more than 32 MiB"), "\(result)")
            // wait4's peak covers slicevid and the helpers it reaped.
            let helper = try StillMemoryTests.buildHelper(in: folder)
            let peak = try StillMemoryTests.peakMemory(["make"] + tinyClip + ["\(folder)/bomb.svgz", "\(folder)/b.png", "-o", "\(folder)/out.mp4"],
                                                       helper: helper)
            #expect(peak.status == 65 && peak.bytes < 300 << 20, "exit \(peak.status), \(peak.bytes >> 20) MB")
        }
    }
}
