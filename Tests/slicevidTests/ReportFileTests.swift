// `batch --report FILE` replaces only an earlier slicevid report: someone's file, a link or a
// folder at the path is refused (73, named) before anything renders, and left as it was.

import Foundation
import Glibc
import Testing

@Suite(.serialized, .timeLimit(.minutes(10))) struct ReportFileTests {
    private func campaign(_ folder: CampaignFolder) throws -> String {
        _ = try folder.still("s0.png", index: 0)
        _ = try folder.still("s1.png", index: 1)
        return try folder.campaign(jobs: [["id": "a", "images": ["s0.png", "s1.png"], "outputs": ["out/a.mp4"]]])
    }

    @Test func someoneElsesFileAtTheReportPathIsRefusedAndKept() throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        let manifest = try campaign(folder)
        let notes = try folder.write("notes.json", "{\"mine\": true}")
        let run = try BatchCLI.run(["batch", manifest, "--report", "notes.json"], in: folder.path)
        #expect(run.status == 73)
        #expect(run.stderr.split(separator: "\n").count == 1 && run.stderr.contains("notes.json") && run.stderr.contains("not a slicevid report"))
        #expect(FileManager.default.contents(atPath: notes) == Data("{\"mine\": true}".utf8))
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/out/a.mp4"))
    }

    @Test func aLinkAtTheReportPathIsNeverWrittenThrough() throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        let manifest = try campaign(folder)
        let victim = try folder.write("victim.txt", "precious")
        #expect(symlink(victim, folder.path + "/report.json") == 0)
        let run = try BatchCLI.run(["batch", manifest, "--report", "report.json"], in: folder.path)
        #expect(run.status == 73)
        #expect(run.stderr.contains("report.json") && run.stderr.contains("is a link"))
        #expect(FileManager.default.contents(atPath: victim) == Data("precious".utf8))
    }

    @Test func anEarlierReportIsReplacedAndForceReplacesAnything() throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        let manifest = try campaign(folder)
        #expect(try BatchCLI.run(["batch", manifest, "--report", "report.json"], in: folder.path).status == 0)
        #expect(try folder.report().statuses == ["a": "rendered"])
        let again = try BatchCLI.run(["batch", manifest, "--report", "report.json"], in: folder.path)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try folder.report().statuses == ["a": "skipped"])
        _ = try folder.write("other.json", "not json")
        #expect(try BatchCLI.run(["batch", manifest, "--force", "--report", "other.json"], in: folder.path).status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder.path + "/other.json"))) as? [String: Any]
        #expect(object?["status"] as? String == "ok")
        #expect(folder.leftovers().isEmpty)
        #expect(folder.files(".").filter { $0.contains(".slicevid-") }.isEmpty)
    }
}
