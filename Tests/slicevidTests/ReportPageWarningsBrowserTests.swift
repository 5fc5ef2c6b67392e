// The morning page shows the run's layout warnings, one line per layout and aspect (a batch
// tells each once), escaped: checked in Debian's headless Chromium as the other page tests are.

import Foundation
import Testing

extension ReportPageBrowserTests {
    @Test func theLayoutWarningsAreOnThePageOneLinePerLayoutAndAspectEscaped() throws {
        _ = try Chromium.path()
        try withScratchFolder { folder in
            // White text on white stills, its layer named with markup: four jobs in two aspects.
            try ReadableCLITests.campaign(##"{"layers": [{"name": "<i>name</i>", "text": "Flat White", "box": [0.1, 0.3, 0.8, 0.4], "color": "#FFFFFF"}]}"##, in: folder)
            let job = #"{"images": ["white.png", "white.png"], "layout": "layout.json", "fps": 10, "hold": 0.3, "duration": 0.6, "slices": 8, "encoder-preset": "ultrafast""#
            let jobs = [("a", "320x180"), ("b", "180x320"), ("c", "320x180"), ("d", "180x320")].map { id, size in
                "\(job), \"id\": \"\(id)\", \"size\": \"\(size)\", \"outputs\": [\"\(id).mp4\"]}"
            }
            try writeFile(folder + "/campaign.json", Data(#"{"jobs": [\#(jobs.joined(separator: ", "))]}"#.utf8))
            let run = try CLI.run(["batch", "campaign.json", "--report", "index.html", "-j", "1"], in: folder)
            #expect(run.status == 0, "\(run)")

            let dom = try Chromium.run(["--dump-dom", URL(fileURLWithPath: folder + "/index.html").absoluteString], in: folder)
            try #require(dom.status == 0, "\(dom)")
            let list = try #require(dom.stdout.firstMatch(of: /<details class="warnings" open=""><summary>([^<]*)<\/summary><ul>(.*?)<\/ul><\/details>/),
                                    "no warnings on the page: \(dom.stdout.prefix(3000))")
            #expect(list.1 == "2 layout warnings", "\(list.0)")
            let items = String(list.2).components(separatedBy: "<li>").dropFirst()
            #expect(items.count == 2, "\(list.0)")
            // One per aspect, from the first job of each; the layer's name shown as text, not markup.
            #expect(items.filter { $0.contains(" at 320x180: layer '&lt;i&gt;name&lt;/i&gt;': contrast 1.00:1") && $0.contains("(job a)") }.count == 1, "\(list.0)")
            #expect(items.filter { $0.contains(" at 180x320: layer '&lt;i&gt;name&lt;/i&gt;': contrast 1.00:1") && $0.contains("(job b)") }.count == 1, "\(list.0)")
            #expect(!String(list.0).contains("<i>"), "\(list.0)")
        }
    }
}
