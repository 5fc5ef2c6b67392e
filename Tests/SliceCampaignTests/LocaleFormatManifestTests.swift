// A feed's raw values formatted per locale in a manifest: the locale is `{locale}`'s value (a
// matrix value or a feed column; in a layout a var too); a cell a format cannot write is 64
// naming the feed's line and column and the locale; a job's fingerprint holds the columns it
// uses, with what its formats wrote of them, so `--plan` shows a change as the clip shows it.

import Foundation
import ScratchFixtures
import SliceKit
import SliceMedia
import Testing
@testable import SliceCampaign
@testable import SlicePipeline

@Suite struct LocaleFormatManifestTests {
    /// Two products: a name per locale, one numeric price, a date.
    static let products = "sku,name_de-DE,name_en-IE,price,until\nA,Kaffee,Coffee,24.99,2026-12-04\nB,Becher,Mug,1234.5,2026-12-24\n"

    static let layout = #"{"layers": [{"on": "over", "text": "{name_{locale}}", "box": [0, 0, 1, 0.3]}, "#
        + #"{"on": "over", "text": "{price|currency:EUR}", "box": [0, 0.3, 1, 0.3]}, {"on": "over", "text": "{until|date:long}", "box": [0, 0.6, 1, 0.3]}]}"#

    /// A manifest over `products.csv` with a de-DE/en-IE matrix and the layout; `job` changes it.
    static func manifest(_ scratch: Scratch, products: String = products, job: [String: Any] = [:]) throws -> String {
        try scratch.still("a.png", index: 0)
        try scratch.still("b.png", index: 1)
        try scratch.text("products.csv", products)
        try scratch.text("promo.json", layout)
        var template: [String: Any] = [
            "id": "{sku}-{locale}", "rows": ["file": "products.csv", "key": "sku"], "matrix": ["locale": ["de-DE", "en-IE"]],
            "images": ["a.png", "b.png"], "layout": "promo.json", "outputs": ["out/{locale}/{id}.mp4"],
        ]
        for (key, value) in job { template[key] = value }
        return try scratch.json("campaign.json", ["defaults": tinyDefaults, "jobs": [template]])
    }

    static func layerTexts(_ job: ManifestJob) throws -> [String] {
        let request = try job.request()
        let plan = try LayoutPlan.resolve(try #require(request.layout), width: 64, height: 36, stills: 2, variables: request.variables, safeZones: [])
        return plan.layers.compactMap { if case .text(let text) = $0.content { text.template } else { nil } }
    }

    @Test("a layout writes each job's values for its locale; the fingerprint keeps what the formats wrote")
    func formattedPerLocale() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let jobs = try Manifest.load(path: try Self.manifest(scratch), presets: testPresets).jobs
        #expect(jobs.map(\.id) == ["A-de-DE", "A-en-IE", "B-de-DE", "B-en-IE"])
        #expect(try Self.layerTexts(jobs[0]) == ["Kaffee", "24,99\u{A0}€", "4. Dezember 2026"])
        #expect(try Self.layerTexts(jobs[1]) == ["Coffee", "€24.99", "4 December 2026"])
        #expect(try Self.layerTexts(jobs[2]) == ["Becher", "1.234,50\u{A0}€", "24. Dezember 2026"])
        // The locale's own name column, the price and the date; not the other locale's name.
        #expect(jobs[0].row?.values.map(\.column) == ["sku", "name_de-DE", "price", "until"])
        #expect(jobs[1].row?.values.map(\.column) == ["sku", "name_en-IE", "price", "until"])
        #expect(jobs[0].row?.values.first { $0.column == "price" }?.shown == ["24,99\u{A0}€"])
        let fingerprint = Fingerprint(sequence: jobs[1].sequence, imageHashes: ["a", "b"], version: "test", row: jobs[1].row?.values ?? [])
        #expect(fingerprint.lines.contains(#"row price "24.99" as "€24.99""#), "\(fingerprint.lines)")
    }

    @Test("a German cell changes only the German jobs' fingerprints; a price change reads as each clip shows it")
    func fingerprintsPerLocale() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = try Self.manifest(scratch)
        func fingerprints() throws -> [String: Fingerprint] {
            let jobs = try Manifest.load(path: path, presets: testPresets).jobs
            return Dictionary(uniqueKeysWithValues: jobs.map { job in
                (job.id, Fingerprint(sequence: job.sequence, imageHashes: ["a", "b"], version: "test", row: job.row?.values ?? []))
            })
        }
        let before = try fingerprints()
        try scratch.text("products.csv", Self.products.replacingOccurrences(of: "Kaffee", with: "Espresso"))
        let renamed = try fingerprints()
        #expect(renamed.filter { $0.value != before[$0.key] }.keys.sorted() == ["A-de-DE"])
        try scratch.text("products.csv", Self.products.replacingOccurrences(of: "24.99", with: "22.99"))
        let repriced = try fingerprints()
        #expect(repriced.filter { $0.value != before[$0.key] }.keys.sorted() == ["A-de-DE", "A-en-IE"])
        func reasons(_ id: String) -> [String] {
            RenderReason.rowChanges(from: before[id]!.lines.filter { $0.hasPrefix("row ") },
                                    to: repriced[id]!.lines.filter { $0.hasPrefix("row ") }).map(\.description)
        }
        #expect(reasons("A-de-DE") == ["price '24,99\u{A0}€' → '22,99\u{A0}€'"])
        #expect(reasons("A-en-IE") == ["price '€24.99' → '€22.99'"])
        // A raw change the format does not show (24.991 → 24.994) still says what changed.
        let shownAlike = RenderReason.rowChanges(from: [#"row price "24.991" as "€24.99""#], to: [#"row price "24.994" as "€24.99""#])
        #expect(shownAlike.map(\.description) == ["price '24.991' → '24.994'"])
    }

    @Test("a cell a format cannot write is 64 naming the feed's line and column and the locale")
    func badCells() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let bad = Self.products.replacingOccurrences(of: "1234.5", with: "\"1.234,50\"")
        let error = try #require(Self.refusal(try Self.manifest(scratch, products: bad)))
        #expect(error.category == .usage)
        #expect(error.message.contains("job 'B-de-DE': layout: '\(scratch.path)/promo.json': layer 2: text: {price|currency:EUR} is '1.234,50' "
                                       + "(from products.csv:3:14, column price) for the locale de-DE, which is not a number; write digits with a '.'"),
                "\(error.message)")
        // In a job's field, the same line.
        let inVars = try #require(Self.refusal(try Self.manifest(scratch, products: Self.products.replacingOccurrences(of: "2026-12-24", with: "24.12.2026"),
                                                                 job: ["vars": ["when": "{until|date:short}"]])))
        #expect(inVars.message.contains("jobs[0]: vars.when: {until|date:short} is '24.12.2026' (from products.csv:3:21, column until) "
                                        + "for the locale de-DE, which is not a date"), "\(inVars.message)")
        // A job with a format and no locale is told where one comes from.
        let noLocale = try #require(Self.refusal(try Self.manifest(scratch, job: ["matrix": ["lang": ["de"]], "id": "{sku}-{lang}",
                                                                                  "outputs": ["out/{id}.mp4"], "vars": ["p": "{price|number}"]])))
        #expect(noLocale.message.contains("vars.p: {price|number} writes its value for a locale, and this job has no {locale}"), "\(noLocale.message)")
        let unknown = try #require(Self.refusal(try Self.manifest(scratch, job: ["matrix": ["locale": ["de-DX"]], "outputs": ["out/{id}.mp4"]])))
        #expect(unknown.message.contains("{price|currency:EUR}: the locale 'de-DX' names the region DX, which is not an ISO 3166 region"),
                "\(unknown.message)")
    }

    @Test("a var named locale serves the layout's formats")
    func localeFromVars() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = try Self.manifest(scratch, job: ["matrix": ["market": ["nl"]], "id": "{sku}-{market}", "outputs": ["out/{id}.mp4"],
                                                    "vars": ["locale": "nl-NL", "name_nl-NL": "{name_en-IE}"]])
        let jobs = try Manifest.load(path: path, presets: testPresets).jobs
        #expect(try Self.layerTexts(jobs[0]) == ["Coffee", "€\u{A0}24,99", "4 december 2026"])
    }

    static func refusal(_ path: String) -> SlicevidError? {
        do { _ = try Manifest.load(path: path, presets: testPresets); return nil } catch { return error }
    }
}
