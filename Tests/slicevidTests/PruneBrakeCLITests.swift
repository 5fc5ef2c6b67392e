// The prune brake as a nightly run meets it: a feed export cut short to one row would make
// `--prune` delete nearly every product's clip; the run deletes nothing, says so in one line with
// the counts and exits 3. `--plan` says the same beforehand; a withdrawn product within the limit
// is pruned as before; `--prune-max` moves the limit.

import Foundation
import Testing

@Suite(.serialized, .timeLimit(.minutes(10))) struct PruneBrakeCLITests {
    static func feed(_ skus: [String]) -> String { "sku\n" + skus.map { "\($0)\n" }.joined() }

    /// One poster per row: four rows are four outputs.
    static func campaign(_ folder: CampaignFolder) throws -> String {
        try folder.write("products.csv", feed(["A", "B", "C", "D"]))
        return try folder.campaign(jobs: [["id": "{sku}", "rows": ["file": "products.csv", "key": "sku"],
                                           "images": ["s0.png", "s1.png"], "outputs": ["out/{sku}.jpg"]]])
    }

    static func outputs(_ folder: CampaignFolder) -> [String] { folder.files("out").filter { !$0.hasPrefix(".") } }

    @Test("a one-row export's prune is refused (3) and nothing is deleted; --plan says so first")
    func oneRowExport() throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        let manifest = try Self.campaign(folder)
        #expect(try BatchCLI.run(["batch", manifest], in: folder.path).status == 0)
        let before = folder.files("out")
        #expect(Self.outputs(folder) == ["A.jpg", "B.jpg", "C.jpg", "D.jpg"])

        try folder.write("products.csv", Self.feed(["A"]))
        let plan = try BatchCLI.run(["batch", manifest, "--plan", "--prune"], in: folder.path)
        #expect(plan.status == 0, "\(plan.stderr)")
        #expect(plan.stderr.contains("the prune brake would hold: this run would prune 3 of 4 outputs (75%), more than --prune-max 25%; it would delete nothing and exit 3"),
                "\(plan.stderr)")

        let run = try BatchCLI.run(["batch", manifest, "--prune", "--report", "r.json", "-q"], in: folder.path)
        #expect(run.status == 3, "\(run.stderr)")
        #expect(folder.files("out") == before, "the brake let files go")
        // One line for the brake (a timestamp first: the log is plain), none for each file it kept.
        let lines = run.stderr.split(separator: "\n")
        #expect(lines.filter { $0.contains("prune") }.map { $0.drop { $0 != " " }.dropFirst() }
                == ["slicevid: error: \(manifest): prune refused: it would delete 3 of 4 outputs (75%), more than --prune-max 25%; nothing was deleted (a feed cut short? check it, then run again with a higher --prune-max)"],
                "\(run.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder.path + "/r.json"))) as? [String: Any])
        #expect(report["status"] as? String == "prune-refused")
        let brake = try #require(report["prune_brake"] as? [String: Any])
        #expect(brake["deleting"] as? Int == 3 && brake["outputs"] as? Int == 4 && brake["limit"] as? String == "25%" && brake["held"] as? Bool == true)
        let orphans = try #require(report["orphans"] as? [[String: Any]])
        #expect(orphans.count == 3 && orphans.allSatisfy { $0["pruned"] as? Bool == false && ($0["kept"] as? String ?? "").hasPrefix("the prune brake held: this run would delete 3 of 4 outputs (75%)") },
                "\(orphans)")
        #expect((report["counts"] as? [String: Int])?["pruned"] == 0)

        // A count says how many, whatever the share: 2 is not enough, 3 is.
        let two = try BatchCLI.run(["batch", manifest, "--prune", "--prune-max", "2"], in: folder.path)
        #expect(two.status == 3 && folder.files("out") == before, "\(two.stderr)")
        let three = try BatchCLI.run(["batch", manifest, "--prune", "--prune-max", "3"], in: folder.path)
        #expect(three.status == 0, "\(three.stderr)")
        #expect(Self.outputs(folder) == ["A.jpg"])
    }

    @Test("a quarter is allowed, more is not: one product of four leaves and is pruned, then one of three is held")
    func theDefaultShare() throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        let manifest = try Self.campaign(folder)
        #expect(try BatchCLI.run(["batch", manifest], in: folder.path).status == 0)
        try folder.write("products.csv", Self.feed(["A", "B", "C"]))
        let check = try BatchCLI.run(["batch", manifest, "--check", "--prune"], in: folder.path)
        #expect(check.stderr.contains("this run would prune 1 of 4 outputs (25%), within --prune-max 25%"), "\(check.stderr)")
        let pruned = try BatchCLI.run(["batch", manifest, "--prune"], in: folder.path)
        #expect(pruned.status == 0 && Self.outputs(folder) == ["A.jpg", "B.jpg", "C.jpg"], "\(pruned.stderr)")
        // One of three is 33.4%: held, unless the limit says a share that allows it.
        try folder.write("products.csv", Self.feed(["A", "B"]))
        #expect(try BatchCLI.run(["batch", manifest, "--prune"], in: folder.path).status == 3)
        #expect(Self.outputs(folder) == ["A.jpg", "B.jpg", "C.jpg"])
        #expect(try BatchCLI.run(["batch", manifest, "--prune", "--prune-max", "34%"], in: folder.path).status == 0)
        #expect(Self.outputs(folder) == ["A.jpg", "B.jpg"])
    }

    @Test("--prune-max takes a whole share with % or a whole count, and only with --prune", arguments: [
        (["--prune", "--prune-max", "101%"], "--prune-max: '101%' is more than all of them"),
        (["--prune", "--prune-max", "-1"], "--prune-max: '-1' is not a share or a count"),
        (["--prune", "--prune-max", "2.5%"], "--prune-max: '2.5%' is not a share or a count"),
        (["--prune", "--prune-max", "99999999999999999999"], "--prune-max: '99999999999999999999' is not a share or a count"),
        (["--prune-max", "10%"], "--prune-max limits --prune; give --prune too, or drop it"),
    ])
    func badLimits(_ flags: [String], _ words: String) throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        let manifest = try Self.campaign(folder)
        let run = try BatchCLI.run(["batch", manifest] + flags, in: folder.path)
        #expect(run.status == 64 && run.stderr.hasPrefix("slicevid: error: \(words)"), "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1 && Self.outputs(folder).isEmpty, "\(run.stderr)")
    }
}
