// One filler for a manifest's placeholders: a column per locale read by a nested placeholder,
// vars (the defaults' too) filled for each job, no `{word}` left behind, a job's fingerprint
// holding the feed values it uses and no others, an output's options from the manifest's text
// alone, and every value placed in a path — a layout's image paths among them — held to one rule.

import Foundation
import ScratchFixtures
import SliceKit
import SliceMedia
import Testing
@testable import SliceCampaign
@testable import SlicePipeline

@Suite struct PlaceholderManifestTests {
    /// Two products, a name and a price column per locale.
    static let products = "sku,name_en,name_de,price_en,price_de\nA,Coffee,Kaffee,€12.50,\"12,50 €\"\nB,Mug,Becher,€9.95,\"9,95 €\"\n"

    /// A manifest over `products.csv` with an en/de matrix; `job` and `defaults` change it.
    static func manifest(_ scratch: Scratch, job: [String: Any] = [:], defaults: [String: Any] = [:], layout: String? = nil) throws -> String {
        try scratch.still("a.png", index: 0)
        try scratch.still("b.png", index: 1)
        if let layout { try scratch.text("promo.json", layout) }
        var template: [String: Any] = [
            "id": "{sku}-{locale}", "rows": ["file": "products.csv", "key": "sku"], "matrix": ["locale": ["en", "de"]],
            "images": ["a.png", "b.png"], "outputs": ["out/{locale}/{id}.mp4"],
        ]
        for (key, value) in job { template[key] = value }
        return try scratch.json("campaign.json", ["defaults": tinyDefaults.merging(defaults) { $1 }, "jobs": [template]])
    }

    static func refusal(_ path: String) -> SlicevidError? {
        do { _ = try Manifest.load(path: path, presets: testPresets); return nil } catch { return error }
    }

    @Test("a nested placeholder reads the locale's column, in vars (the job's and the defaults') and in paths")
    func aColumnPerLocale() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.text("products.csv", Self.products)
        let path = try Self.manifest(scratch, job: ["vars": ["title": "{name_{locale}}"], "outputs": ["out/{locale}/{name_{locale}}-{id}.mp4"]],
                                     defaults: ["vars": ["legal": "{price_{locale}} incl. VAT", "brand": "Acme"]])
        let jobs = try Manifest.load(path: path, presets: testPresets).jobs
        #expect(jobs.map(\.id) == ["A-en", "A-de", "B-en", "B-de"])
        let variables = try jobs.map { try $0.request().variables }
        #expect(variables.map { $0["title"] } == ["Coffee", "Kaffee", "Mug", "Becher"])
        #expect(variables.map { $0["legal"] } == ["€12.50 incl. VAT", "12,50 € incl. VAT", "€9.95 incl. VAT", "9,95 € incl. VAT"])
        #expect(variables[0]["brand"] == "Acme")
        #expect(jobs[1].outputPaths == [scratch.path + "/out/de/Kaffee-A-de.mp4"])
        // Not a `{word}` left anywhere: in the variables, the paths, or the ids.
        for job in jobs {
            #expect(!(try job.request().variables.values.contains { $0.contains("{") }) && !job.outputPaths.contains { $0.contains("{") })
        }
    }

    @Test("a nested placeholder that names nothing is an error naming the field and what it made")
    func namingNothing() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.text("products.csv", Self.products)
        let cases: [([String: Any], [String: Any], String)] = [
            (["matrix": ["locale": ["en", "fr"]], "vars": ["title": "{name_{locale}}"]], [:],
             "jobs[0]: vars.title: {name_fr} (made by {name_{locale}}) is not a placeholder of this job"),
            (["vars": ["title": "{name_{lang}}"]], [:], "jobs[0]: vars.title: {lang} is not a placeholder of this job"),
            ([:], ["vars": ["legal": "{prise_{locale}}"]], "jobs[0]: defaults.vars.legal: {prise_en} (made by {prise_{locale}}) is not a placeholder"),
            (["outputs": ["out/{name_{locale}.mp4"]], [:], "jobs[0]: outputs[0]: '{name_{locale}.mp4' is not a placeholder; write {name}"),
        ]
        for (job, defaults, expected) in cases {
            let error = try #require(Self.refusal(try Self.manifest(scratch, job: job, defaults: defaults)), "\(job) was accepted")
            #expect(error.category == .usage && error.message.contains(expected), "\(error.message)")
        }
        // The defaults' own var is filled only where a job does not set its own.
        let own = try Manifest.load(path: try Self.manifest(scratch, job: ["vars": ["legal": "x"]], defaults: ["vars": ["legal": "{nothing}"]]),
                                    presets: testPresets)
        #expect(try own.jobs[0].request().variables["legal"] == "x")
    }

    @Test("a job's fingerprint holds the feed values it uses: an edit to the German price leaves the English clips alone")
    func fingerprintsHoldUsedColumns() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.text("products.csv", Self.products)
        let layout = #"{"layers": [{"on": "over", "text": "{title}", "box": [0, 0, 1, 0.5]}, {"on": "over", "text": "{price_{locale}}", "box": [0, 0.5, 1, 0.5]}]}"#
        let path = try Self.manifest(scratch, job: ["layout": "promo.json", "vars": ["title": "{name_{locale}}", "unused": "{sku}"]], layout: layout)
        func fingerprints() throws -> [String: Fingerprint] {
            let jobs = try Manifest.load(path: path, presets: testPresets).jobs
            return Dictionary(uniqueKeysWithValues: jobs.map { job in
                (job.id, Fingerprint(sequence: job.sequence, imageHashes: ["a", "b"], version: "test", row: job.row?.values ?? []))
            })
        }
        let jobs = try Manifest.load(path: path, presets: testPresets).jobs
        #expect(jobs[0].row?.values.map(\.column) == ["sku", "name_en", "price_en"])
        #expect(jobs[1].row?.values.map(\.column) == ["sku", "name_de", "price_de"])
        let before = try fingerprints()
        try scratch.text("products.csv", Self.products.replacingOccurrences(of: "\"12,50 €\"", with: "\"11,90 €\""))
        let after = try fingerprints()
        #expect(after["A-en"] == before["A-en"] && after["B-en"] == before["B-en"] && after["B-de"] == before["B-de"])
        #expect(after["A-de"] != before["A-de"])
        let reasons = RenderReason.rowChanges(from: before["A-de"]!.lines.filter { $0.hasPrefix("row ") },
                                              to: after["A-de"]!.lines.filter { $0.hasPrefix("row ") })
        #expect(reasons.map(\.description) == ["price_de '12,50 €' → '11,90 €'"])
    }

    @Test("a long value is kept in a fingerprint as its SHA-256, never as itself")
    func longValuesAsDigests() {
        let long = String(repeating: "A long description. ", count: 200)
        let fingerprint = Fingerprint(sequence: SequenceSpec(base: TransitionSpec(), imageCount: 2), imageHashes: ["a", "b"], version: "test",
                                      row: [.init(column: "sku", text: "A"), .init(column: "description", text: long)])
        #expect(fingerprint.lines.contains("row sku \"A\""))
        #expect(fingerprint.lines.contains("row description sha256:" + SHA256.hex(of: long)))
        #expect(fingerprint.lines.allSatisfy { $0.utf8.count < 400 })
        let edited = Fingerprint(sequence: SequenceSpec(base: TransitionSpec(), imageCount: 2), imageHashes: ["a", "b"], version: "test",
                                 row: [.init(column: "sku", text: "A"), .init(column: "description", text: long + ".")])
        #expect(edited.value != fingerprint.value)
        let reason = RenderReason.rowChanges(from: fingerprint.lines.filter { $0.hasPrefix("row ") }, to: edited.lines.filter { $0.hasPrefix("row ") })
        #expect(reason.count == 1 && reason[0].field == "description" && reason[0].description.contains("a long value (sha256:"), "\(reason)")
    }

    @Test("an output's options come from the manifest's text: a value is placed in the path alone")
    func optionsFromTheManifestAlone() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.text("products.csv", Self.products)
        try scratch.text("cells.csv", "sku,file,name\nA,clip.mp4:crf=51:preset=ultrafast,x:crf=51\n")
        func load(_ outputs: [String]) throws -> Manifest {
            try Manifest.load(path: try Self.manifest(scratch, job: ["rows": ["file": "cells.csv", "key": "sku"], "matrix": ["locale": ["en"]],
                                                                     "outputs": outputs]), presets: testPresets)
        }
        // The cell's colon stays in the file's name: no crf, no preset.
        let placed = try load(["out/{name}.mp4", "out/{id}.webm:crf=40"])
        #expect(placed.jobs[0].outputPaths == [scratch.path + "/out/x:crf=51.mp4", scratch.path + "/out/A-en.webm"])
        #expect(placed.jobs[0].outputs[0].settings.crf == nil && placed.jobs[0].outputs[0].settings.preset == nil)
        #expect(placed.jobs[0].outputs[1].settings.crf == 40)
        // At the end of a template the cell is a file name with an extension slicevid does not know.
        let ending = try #require(Self.refusal(try Self.manifest(scratch, job: ["rows": ["file": "cells.csv", "key": "sku"], "outputs": ["out/{file}"]])))
        #expect(ending.category == .usage && ending.message.contains("out/clip.mp4:crf=51:preset=ultrafast: unknown output type"), "\(ending.message)")
        // Options take no placeholders.
        let filledOption = try #require(Self.refusal(try Self.manifest(scratch, job: ["outputs": ["out/{id}.webm:crf={sku}"]])))
        #expect(filledOption.message.contains("outputs[0]: the options after the path (':crf={sku}') are the manifest's own and take no placeholders"),
                "\(filledOption.message)")
    }

    @Test("a value placed in a layout's image path is held to the path rule, as one in images is")
    func layoutImagePaths() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try FileManager.default.createDirectory(atPath: scratch.path + "/logos", withIntermediateDirectories: true)
        try scratch.still("logos/acme.png", index: 2)
        try scratch.still("private.png", index: 3)
        let layout = #"{"layers": [{"on": "over", "image": "logos/{brand}.png", "box": [0, 0, 0.5, 0.5]}]}"#
        try scratch.text("products.csv", "sku,brand\nA,acme\nB,../private\n")
        let inLayout = try #require(Self.refusal(try Self.manifest(scratch, job: ["layout": "promo.json"], layout: layout)))
        #expect(inLayout.category == .usage, "\(inLayout.message)")
        #expect(inLayout.message.contains("job 'B-en': layout: '\(scratch.path)/promo.json': layer 1: image: {brand} is '../private': a value placed in a path must not hold a '..' part"),
                "\(inLayout.message)")
        let inImages = try #require(Self.refusal(try Self.manifest(scratch, job: ["images": ["logos/{brand}.png", "b.png"]])))
        #expect(inImages.category == .usage && inImages.message.contains("images[0]: {brand} is '../private'"), "\(inImages.message)")
        // The same rule for make's --var, at the layout's plan, and for a manifest's layout file.
        let loaded = try Layout.load(path: scratch.path + "/promo.json")
        do {
            _ = try LayoutPlan.resolve(loaded, width: 64, height: 36, stills: 2, variables: ["brand": "/etc/x"], safeZones: [])
            Issue.record("an absolute value was placed in the image's path")
        } catch {
            #expect(error.category == .usage && error.message(KeyWording()).contains("image: {brand} is '/etc/x': a value placed in a path must not start with /"),
                    "\(error.message(KeyWording()))")
        }
        try scratch.text("climb.csv", "sku,brand\nB,../private\n")
        let layoutFile = try #require(Self.refusal(try Self.manifest(scratch, job: ["layout": "{brand}/promo.json",
                                                                               "rows": ["file": "climb.csv", "key": "sku"]])))
        #expect(layoutFile.message.contains("layout: {brand} is '../private'"), "\(layoutFile.message)")
        let fine = try LayoutPlan.resolve(loaded, width: 64, height: 36, stills: 2, variables: ["brand": "acme"], safeZones: [])
        #expect(fine.files == [scratch.path + "/logos/acme.png"])
    }
}
