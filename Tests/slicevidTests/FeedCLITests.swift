// Campaigns from a feed as a user runs them from cron: 6 products × 3 aspects × 2 locales render
// 36 jobs; one changed price re-renders that row's 6; a row that left the feed leaves orphans the
// report lists, and --prune deletes exactly those (files and sidecars), nothing foreign; bad
// feeds are one line and 64 before anything renders.

import Foundation
import Glibc
import Testing

@Suite(.serialized, .timeLimit(.minutes(10))) struct FeedCLITests {
    static func products(_ rows: [(String, String)]) -> String {
        "\u{FEFF}sku,name,price\r\n" + rows.map { "\($0.0),\"Product \($0.0)\",\"\($0.1)\"\r\n" }.joined()
    }

    static let six = (1...6).map { ("NL-10\($0)", "1\($0),50 €") }

    /// The campaign: a CSV of `rows`, a 3 × 2 matrix, an MP4 and a JPEG poster per job, the
    /// price over the frames (a job's fingerprint holds the columns it uses: its id's sku, the
    /// layout's price).
    static func campaign(_ folder: CampaignFolder, rows: [(String, String)] = six) throws -> String {
        try folder.write("products.csv", products(rows))
        try folder.write("promo.json", #"{"layers": [{"on": "over", "text": "{price}", "box": [0, 0.5, 1, 0.5], "min-size": 60}]}"#)
        return try folder.campaign(jobs: [[
            "layout": "promo.json",
            "id": "{sku}-{aspect}-{locale}",
            "rows": ["file": "products.csv", "key": "sku"],
            "matrix": ["aspect": ["16x9", "9x16", "1x1"], "locale": ["nl", "de"]],
            "images": ["s0.png", "s1.png"],
            "outputs": ["out/{aspect}/{id}.mp4", "out/{aspect}/{id}.jpg"],
        ]])
    }

    static func report(_ path: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    }

    static func jobs(_ report: [String: Any]) -> [[String: Any]] { report["jobs"] as? [[String: Any]] ?? [] }

    @Test func aFeedRendersRowByRowAndPrunesWhatLeftIt() throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        let manifest = try Self.campaign(folder)
        let first = try BatchCLI.run(["batch", manifest, "--report", "r1.json", "--log-format", "plain"], in: folder.path)
        #expect(first.status == 0, "\(first.stderr)")
        let report1 = try Self.report(folder.path + "/r1.json")
        #expect(report1["schema"] as? Int == 3)
        #expect((report1["counts"] as? [String: Int])?["rendered"] == 36)
        let firstJob = try #require(Self.jobs(report1).first)
        #expect(firstJob["why"] as? String == "new outputs \(folder.path)/out/16x9/NL-101-16x9-nl.mp4, \(folder.path)/out/16x9/NL-101-16x9-nl.jpg")
        #expect((firstJob["row"] as? [String: Any])?["key"] as? String == "NL-101" && (firstJob["row"] as? [String: Any])?["line"] as? Int == 2)
        let output = try #require((firstJob["outputs"] as? [[String: Any]])?.first)
        #expect((output["bytes"] as? Int ?? 0) > 0 && output["seconds"] as? Double == 0.6)
        // Stills are quiet about audio; no "would create folder" per job.
        #expect(!first.stderr.contains("no audio in"))

        // One price changes: that row's six jobs render, and the plan and the report say why.
        var changed = Self.six
        changed[3].1 = "11,90 €"
        try folder.write("products.csv", Self.products(changed))
        let plan = try BatchCLI.run(["batch", manifest, "--plan"], in: folder.path)
        #expect(plan.status == 0)
        #expect(plan.stderr.contains("job 'NL-104-16x9-nl': will render: price '14,50 €' → '11,90 €'; text of layer 1: '14,50 €' → '11,90 €'\n"), "\(plan.stderr)")
        #expect(plan.stderr.contains("36 jobs: 30 up to date, 6 to render"), "\(plan.stderr)")
        let second = try BatchCLI.run(["batch", manifest, "--report", "r2.json"], in: folder.path)
        #expect(second.status == 0, "\(second.stderr)")
        let report2 = try Self.report(folder.path + "/r2.json")
        let rendered = Self.jobs(report2).filter { $0["status"] as? String == "rendered" }
        #expect(rendered.map { $0["id"] as? String ?? "" } == ["16x9-nl", "16x9-de", "9x16-nl", "9x16-de", "1x1-nl", "1x1-de"].map { "NL-104-\($0)" })
        #expect(rendered.allSatisfy { $0["why"] as? String == "price '14,50 €' → '11,90 €'; text of layer 1: '14,50 €' → '11,90 €'" }, "\(rendered.map { $0["why"] ?? "" })")
        // A name changes: no job uses it, so nothing renders.
        try folder.write("products.csv", Self.products(changed).replacingOccurrences(of: "Product NL-102", with: "Renamed"))
        let unused = try BatchCLI.run(["batch", manifest, "--plan"], in: folder.path)
        #expect(unused.status == 0 && unused.stderr.contains("36 jobs: 36 up to date"), "\(unused.stderr)")
        try folder.write("products.csv", Self.products(changed))
        let reason = try #require((rendered.first?["reasons"] as? [[String: Any]])?.first)
        #expect(reason["kind"] as? String == "value-changed" && reason["field"] as? String == "price" && reason["from"] as? String == "14,50 €")
        #expect(Self.jobs(report2).filter { $0["status"] as? String == "skipped" }.allSatisfy { $0["why"] as? String == "up to date" })

        // NL-106 leaves the feed. A foreign file and one whose sidecar names another manifest sit
        // beside its outputs; an output of NL-105 is edited after slicevid wrote it.
        try folder.write("products.csv", Self.products(Array(changed.prefix(5))))
        try folder.write("out/16x9/foreign.mp4", "not slicevid's")
        try folder.write("out/16x9/NL-106-16x9-nl.txt", "a note")
        let sixteen = folder.path + "/out/16x9/"
        // A hard link keeps the inode and time its sidecar records: only the manifest it names
        // tells it from this manifest's outputs.
        #expect(link(sixteen + "NL-101-16x9-nl.mp4", sixteen + "other.mp4") == 0)
        let otherSidecar = try String(contentsOfFile: sixteen + ".NL-101-16x9-nl.mp4.slicevid.json", encoding: .utf8)
            .replacingOccurrences(of: manifest, with: folder.path + "/other.json")
        try folder.write("out/16x9/.other.mp4.slicevid.json", otherSidecar)
        // Paths below out/, as subpathsOfDirectory gives them.
        let gone = ["16x9", "9x16", "1x1"].flatMap { aspect in ["nl", "de"].flatMap { locale in
            ["mp4", "jpg"].map { "\(aspect)/NL-106-\(aspect)-\(locale).\($0)" } } }
        let before = Set(try FileManager.default.subpathsOfDirectory(atPath: folder.path + "/out"))

        // Without --prune: nothing is deleted; the report lists the twelve orphans.
        let third = try BatchCLI.run(["batch", manifest, "--report", "r3.json", "--log-format", "plain"], in: folder.path)
        #expect(third.status == 0, "\(third.stderr)")
        #expect(Set(try FileManager.default.subpathsOfDirectory(atPath: folder.path + "/out")) == before)
        let report3 = try Self.report(folder.path + "/r3.json")
        let orphans = try #require(report3["orphans"] as? [[String: Any]])
        #expect(Set(orphans.map { $0["path"] as? String ?? "" }) == Set(gone.map { folder.path + "/out/" + $0 }))
        #expect(orphans.allSatisfy { $0["pruned"] as? Bool == false && ($0["job"] as? String ?? "").hasPrefix("NL-106-") })
        #expect((report3["counts"] as? [String: Int])?["orphaned"] == 12 && (report3["counts"] as? [String: Int])?["pruned"] == 0)
        #expect(third.stderr.components(separatedBy: "no longer in the manifest; --prune deletes it").count == 13, "\(third.stderr)")
        let check = try BatchCLI.run(["batch", manifest, "--check"], in: folder.path)
        #expect(check.status == 0 && check.stderr.components(separatedBy: "--prune would delete it and its sidecar").count == 13, "\(check.stderr)")

        // With --prune: exactly those twelve files and their sidecars go; the rest stays.
        let fourth = try BatchCLI.run(["batch", manifest, "--prune", "--report", "r4.json"], in: folder.path)
        #expect(fourth.status == 0, "\(fourth.stderr)")
        let sidecars = gone.map { path -> String in
            let parts = path.split(separator: "/")
            return "\(parts[0])/.\(parts[1]).slicevid.json"
        }
        #expect(Set(try FileManager.default.subpathsOfDirectory(atPath: folder.path + "/out")) == before.subtracting(gone + sidecars))
        #expect(try String(contentsOfFile: sixteen + "foreign.mp4", encoding: .utf8) == "not slicevid's")
        #expect(FileManager.default.fileExists(atPath: sixteen + "other.mp4") && FileManager.default.fileExists(atPath: sixteen + "NL-106-16x9-nl.txt"))
        let report4 = try Self.report(folder.path + "/r4.json")
        #expect((report4["counts"] as? [String: Int])?["pruned"] == 12 && report4["prune"] as? Bool == true)
        let fifth = try BatchCLI.run(["batch", manifest, "--prune", "--report", "r5.json"], in: folder.path)
        let report5 = try Self.report(folder.path + "/r5.json")
        #expect(fifth.status == 0 && (report5["orphans"] as? [Any])?.isEmpty == true)
    }

    @Test func anOrphanChangedSinceSlicevidWroteItIsKept() throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        let manifest = try Self.campaign(folder, rows: Array(Self.six.prefix(2)))
        #expect(try BatchCLI.run(["batch", manifest], in: folder.path).status == 0)
        try folder.write("products.csv", Self.products(Array(Self.six.prefix(1))))
        // Edited in place after slicevid wrote it: no longer slicevid's to delete.
        try folder.write("out/1x1/NL-102-1x1-de.jpg", "edited by hand")
        // Half the campaign leaves: past the brake's quarter, so the limit is lifted; the edited file is what is tested.
        let pruned = try BatchCLI.run(["batch", manifest, "--prune", "--prune-max", "50%", "--report", "r.json", "--log-format", "plain"], in: folder.path)
        #expect(pruned.status == 0, "\(pruned.stderr)")
        #expect(try String(contentsOfFile: folder.path + "/out/1x1/NL-102-1x1-de.jpg", encoding: .utf8) == "edited by hand")
        #expect(FileManager.default.fileExists(atPath: folder.path + "/out/1x1/.NL-102-1x1-de.jpg.slicevid.json"))
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/out/1x1/NL-102-1x1-de.mp4"))
        let orphans = try #require(try Self.report(folder.path + "/r.json")["orphans"] as? [[String: Any]])
        let kept = orphans.filter { $0["pruned"] as? Bool == false }
        #expect(kept.count == 1 && (kept[0]["kept"] as? String ?? "").contains("has changed since slicevid wrote it"), "\(kept)")
        #expect(pruned.stderr.contains("NL-102-1x1-de.jpg was written for job 'NL-102-1x1-de', no longer in the manifest, but is kept"), "\(pruned.stderr)")
    }

    @Test func onlyRendersTheNamedRowsAndGlobs() throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        let manifest = try Self.campaign(folder, rows: Array(Self.six.prefix(3)))
        let only = try BatchCLI.run(["batch", manifest, "--only", "NL-102", "--only", "NL-103-1x1-*", "--report", "r.json"], in: folder.path)
        #expect(only.status == 0, "\(only.stderr)")
        let ids = Self.jobs(try Self.report(folder.path + "/r.json")).map { $0["id"] as? String ?? "" }
        #expect(ids == ["NL-102-16x9-nl", "NL-102-16x9-de", "NL-102-9x16-nl", "NL-102-9x16-de", "NL-102-1x1-nl", "NL-102-1x1-de",
                        "NL-103-1x1-nl", "NL-103-1x1-de"])
        let typo = try BatchCLI.run(["batch", manifest, "--only", "NL-109"], in: folder.path)
        #expect(typo.status == 64 && typo.stderr == "slicevid: error: --only 'NL-109': no job has this feed key, and no job id matches it\n", "\(typo.stderr)")
        let sharded = try BatchCLI.run(["batch", manifest, "--prune", "--shard", "0/2"], in: folder.path)
        #expect(sharded.status == 64 && sharded.stderr.hasPrefix("slicevid: error: --prune works on the whole manifest"), "\(sharded.stderr)")
    }

    @Test("malformed feeds are one line with file:line:column and 64, rendering nothing", arguments: [
        ("sku,name,price\r\nA,x\r\n", "products.csv:2:4: the row has 2 fields; the header has 3"),
        ("sku,name,price\nA,\"x\"y,1\n", "products.csv:2:6: 'y' after the closing quote"),
        ("sku,name,price\nA,x,1\nA,y,2\n", "products.csv:3:1: the key (sku) 'A' is also on line 2"),
        ("sku,name,price\nA,../../x,1\n", "{name} is '../../x' (from products.csv:2:3, column name)"),
    ])
    func malformedFeeds(_ feed: String, expected: String) throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        let manifest = try Self.campaign(folder)
        try folder.write("products.csv", feed)
        if expected.contains("{name}") {
            try folder.campaign(jobs: [["id": "{sku}", "rows": ["file": "products.csv", "key": "sku"], "images": ["s0.png", "s1.png"],
                                        "outputs": "out/{name}/{id}.mp4"]])
        }
        let run = try BatchCLI.run(["batch", manifest], in: folder.path)
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1 && run.stderr.contains(expected), "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path + "/out").isEmpty)
    }

    @Test func aFeedOnStandardInputForPipelines() throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        let manifest = try folder.campaign(jobs: [["id": "{sku}", "rows": ["file": "-", "key": "sku", "format": "jsonl"],
                                                   "images": ["s0.png", "s1.png"], "outputs": "out/{id}.jpg"]])
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try BatchCLI.binary)
        process.arguments = ["batch", manifest, "--report", "r.json"]
        process.currentDirectoryURL = URL(fileURLWithPath: folder.path)
        let input = Pipe(), errors = Pipe()
        (process.standardInput, process.standardError, process.standardOutput) = (input, errors, FileHandle.nullDevice)
        try process.run()
        try input.fileHandleForWriting.write(contentsOf: Data("{\"sku\": \"A\"}\n{\"sku\": 7}\n".utf8))
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 0, "\(stderr)")
        #expect(Self.jobs(try Self.report(folder.path + "/r.json")).map { $0["id"] as? String } == ["A", "7"])
        #expect(FileManager.default.fileExists(atPath: folder.path + "/out/A.jpg") && FileManager.default.fileExists(atPath: folder.path + "/out/7.jpg"))
    }

    @Test func latin1AndAMillionRowsAreOneLineEach() throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        let manifest = try Self.campaign(folder)
        try Data(Array("sku,name,price\r\nA,Caf".utf8) + [0xE9] + Array(",1\r\n".utf8)).write(to: URL(fileURLWithPath: folder.path + "/products.csv"))
        let latin1 = try BatchCLI.run(["batch", manifest], in: folder.path)
        #expect(latin1.status == 64 && latin1.stderr.split(separator: "\n").count == 1, "\(latin1.stderr)")
        #expect(latin1.stderr.contains("rows: products.csv:2:6: byte 0xE9 is not UTF-8"), "\(latin1.stderr)")
        var text = "sku,name,price\n"
        for row in 0..<1_000_000 { text += "S\(row),n,1\n" }
        try folder.write("products.csv", text)
        let million = try BatchCLI.run(["batch", manifest, "--check"], in: folder.path)
        #expect(million.status == 64 && million.stderr.split(separator: "\n").count == 1, "\(million.stderr)")
        #expect(million.stderr.contains("products.csv:16668: the manifest makes more than 100000 jobs"), "\(million.stderr)")
    }

    @Test func aSignalWhileTheManifestComesOnStdinEndsTheReadWithItsLine() throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        // Started as a shell starts it: SIGTERM at its default action and not blocked (this
        // test thread may block it, and a child inherits the mask), so a slicevid that has no
        // trap yet dies of it rather than leaving it pending.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["--default-signal=INT,TERM", try BatchCLI.binary, "batch", "-"]
        process.currentDirectoryURL = URL(fileURLWithPath: folder.path)
        let input = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try BatchCLI.withStopSignalsUnblocked { try process.run() }
        // A writer that never closes the pipe; the signal comes once slicevid has read what
        // was written (the pipe is empty again), so it is waiting in the read. Without a trap
        // set before the read, SIGTERM would end it by default, with no line.
        let writer = input.fileHandleForWriting
        try writer.write(contentsOf: Data("{\"jobs\": [".utf8))
        try BatchCLI.waitUntil {
            var pending: Int32 = 0
            return ioctl(writer.fileDescriptor, UInt(FIONREAD), &pending) == 0 && pending == 0
        }
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationReason == .exit && process.terminationStatus == 143, "\(process.terminationReason) \(process.terminationStatus)")
        #expect(stderr == "slicevid: error: stdin: interrupted by SIGTERM while reading the manifest; nothing was rendered\n", "\(stderr)")
        try? writer.close()
    }
}
