// Feeds as exports write them, end to end: one template for a column per locale (`{name_{locale}}`)
// from a sheet's CRLF export with its trailing blank line, a German edit rendering the German
// clips alone; a feed in a folder whose name is not UTF-8; a giant cell refused at once (64).

import Foundation
import Glibc
import SliceKit
import Testing

@Suite(.timeLimit(.minutes(10))) struct FeedDataCLITests {
    /// As a sheet saves it: CRLF line ends, and a blank line at the end.
    static func products(de: String = "Kaffee") -> String {
        "sku,name_en,name_de\r\nA,Coffee,\(de)\r\nB,Mug,Becher\r\n\r\n"
    }

    @Test func oneTemplateForAColumnPerLocaleAndAGermanEditRendersTheGermanClipsAlone() throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        try folder.write("products.csv", Self.products())
        try folder.write("promo.json", #"{"layers": [{"on": "over", "text": "{title}", "box": [0, 0.5, 1, 0.5], "min-size": 60}]}"#)
        let manifest = try folder.campaign(jobs: [[
            "id": "{sku}-{locale}", "rows": ["file": "products.csv", "key": "sku"], "matrix": ["locale": ["en", "de"]],
            "images": ["s0.png", "s1.png"], "layout": "promo.json", "vars": ["title": "{name_{locale}}"],
            "outputs": ["out/{locale}/{id}.jpg"],
        ]])
        let first = try BatchCLI.run(["batch", manifest, "--log-format", "plain"], in: folder.path)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(folder.files("out/en") == [".A-en.jpg.slicevid.json", ".B-en.jpg.slicevid.json", "A-en.jpg", "B-en.jpg"])
        // What the clip shows, as its record says it: the locale's name, never `{name_en}`.
        let record = try String(contentsOfFile: folder.path + "/out/en/.A-en.jpg.slicevid.json", encoding: .utf8)
        #expect(record.contains("\"layer 1 text Coffee\"") && record.contains("\"row name_en \\\"Coffee\\\"\"") && !record.contains("name_de"), "\(record)")

        try folder.write("products.csv", Self.products(de: "Röstkaffee"))
        let plan = try BatchCLI.run(["batch", manifest, "--plan"], in: folder.path)
        #expect(plan.status == 0, "\(plan.stderr)")
        #expect(plan.stderr.contains("job 'A-en': up to date\n") && plan.stderr.contains("job 'B-en': up to date\n") && plan.stderr.contains("job 'B-de': up to date\n"),
                "\(plan.stderr)")
        #expect(plan.stderr.contains("job 'A-de': will render: name_de 'Kaffee' → 'Röstkaffee'"), "\(plan.stderr)")
        #expect(plan.stderr.hasSuffix("4 jobs: 3 up to date, 1 to render\n"), "\(plan.stderr)")
    }

    @Test func aFeedInAFolderWhoseNameIsNotUTF8IsRead() throws {
        try withScratchFolder { folder in
            let campaign = ArgumentBytes.name("export-", 0xFF, "")
            try makeFolder(ArgumentBytes(folder).slash(campaign))
            for name in ["a.png", "b.png"] {
                let made = try Still.write(RGBAImage(width: 64, height: 36, color: RGBAColor(red: 200, green: 30, blue: 30)), name, in: folder)
                try write(try Data(contentsOf: URL(fileURLWithPath: made)), to: ArgumentBytes(folder).slash(campaign).slash(ArgumentBytes(name)))
            }
            try write(Data("sku\nA\nB\n".utf8), to: ArgumentBytes(folder).slash(campaign).slash("products.csv"))
            try write(Data(#"""
                {"defaults": {"size": "64x36", "fps": 10, "hold": 0.2, "duration": 0.3, "slices": 8},
                 "jobs": [{"id": "{sku}", "rows": {"file": "products.csv", "key": "sku"}, "images": ["a.png", "b.png"], "outputs": ["out/{id}.jpg"]}]}
                """#.utf8), to: ArgumentBytes(folder).slash(campaign).slash("m.json"))
            let check = try CLI.run(bytes: ["batch", "--check", campaign.slash("m.json")], in: folder)
            #expect(check.status == 0 && check.stderr.contains("2 jobs checked, all ready"), "\(check)")
        }
    }

    @Test func aGiantCellIsRefusedAsItIsReadInOneLine() throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        // 200 MB in one cell of an unused column (sparse: its bytes are NULs, and cost nothing).
        let feed = try folder.write("products.csv", "sku,notes\nA,")
        let descriptor = open(feed, O_WRONLY)
        #expect(descriptor >= 0 && ftruncate(descriptor, 200_000_000) == 0)
        close(descriptor)
        let manifest = try folder.campaign(jobs: [["id": "{sku}", "rows": ["file": "products.csv", "key": "sku"],
                                                   "images": ["s0.png", "s1.png"], "outputs": ["out/{id}.jpg"]]])
        let check = try BatchCLI.run(["batch", "--check", manifest], in: folder.path)
        #expect(check.status == 64 && check.stderr == "slicevid: error: \(manifest): jobs[0]: rows: products.csv:2: the row is longer than 1 MiB, the most a feed's row may be (a cell this long is no product's; check the export)\n",
                "\(check.stderr)")
        #expect(folder.files("out").isEmpty)
    }
}
