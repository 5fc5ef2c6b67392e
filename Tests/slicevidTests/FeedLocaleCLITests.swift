// A feed with raw numbers and dates and a name column per locale, one job template for six
// locales, as a user runs it: each clip's price and date are written as CLDR has them for its
// locale; the host's LANG, LC_ALL, TZ and ICU variables change no byte (a run under another
// environment finds everything up to date); a German cell re-renders only the German clips; a
// price change shows in --plan as the clips show it; a bad cell is 64 naming its place.

import Foundation
import Testing

@Suite(.serialized, .timeLimit(.minutes(10))) struct FeedLocaleCLITests {
    static let locales = ["de-DE", "en-IE", "fr-FR", "nl-NL", "ar-EG", "ja-JP"]

    static let products = "sku,name_de-DE,name_en-IE,name_fr-FR,name_nl-NL,name_ar-EG,name_ja-JP,price,until\n"
        + "A,Kaffee,Coffee,Café,Koffie,قهوة,コーヒー,24.99,2026-12-04\n"
        + "B,Becher,Mug,Tasse,Mok,كوب,マグ,1234.5,2026-12-24\n"

    /// What each locale writes for A's price and date.
    static let written: [String: (price: String, date: String)] = [
        "de-DE": ("24,99\u{A0}€", "4. Dezember 2026"),
        "en-IE": ("€24.99", "4 December 2026"),
        "fr-FR": ("24,99\u{A0}€", "4 décembre 2026"),
        "nl-NL": ("€\u{A0}24,99", "4 december 2026"),
        "ar-EG": ("\u{200F}٢٤٫٩٩\u{A0}€", "٤ ديسمبر، ٢٠٢٦"),
        "ja-JP": ("€24.99", "2026年12月4日"),
    ]

    /// An environment that would change the bytes if slicevid read the host's locale or zone: a
    /// zone twelve hours behind UTC (midnight UTC is the day before there), and ICU pointed at
    /// folders that do not exist.
    static let alien: [String: String?] = [
        "LANG": "ar_EG.UTF-8", "LC_ALL": "ja_JP.UTF-8", "LC_NUMERIC": "fr_FR.UTF-8", "LC_TIME": "th_TH.UTF-8",
        "TZ": "Etc/GMT+12", "ICU_DATA": "/nonexistent", "ICU_TIMEZONE_FILES_DIR": "/nonexistent",
    ]

    static func campaign(_ folder: CampaignFolder) throws -> String {
        try folder.write("products.csv", products)
        try folder.write("promo.json", #"{"layers": [{"text": "{name_{locale}}", "box": [0, 0, 1, 0.34], "min-size": 30}, "#
            + #"{"text": "{price|currency:EUR}", "box": [0, 0.33, 1, 0.34], "min-size": 30}, {"text": "{until|date:long}", "box": [0, 0.66, 1, 0.34], "min-size": 30}]}"#)
        // A poster per job, large enough for three lines of text.
        return try folder.campaign(jobs: [[
            "layout": "promo.json", "id": "{sku}-{locale}",
            "rows": ["file": "products.csv", "key": "sku"], "matrix": ["locale": locales],
            "images": ["s0.png", "s1.png"], "outputs": ["out/{locale}/{id}.jpg"],
        ]], defaults: ["size": "320x180", "fps": 10, "hold": 0.2, "duration": 0.3, "slices": 8])
    }

    /// The lines of the sidecar of `out/LOCALE/ID.jpg`.
    static func producedBy(_ folder: CampaignFolder, _ locale: String, _ id: String) throws -> [String] {
        let data = try Data(contentsOf: URL(fileURLWithPath: "\(folder.path)/out/\(locale)/.\(id).jpg.slicevid.json"))
        let record = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try #require(record["producedBy"] as? [String])
    }

    /// The release binary `make build` leaves at `.build/release/slicevid`, when there is one.
    static var releaseBinary: String? {
        guard let debug = try? CLI.binary() else { return nil }
        // .build/<triple>/debug/slicevid → .build/release/slicevid (a link to .build/<triple>/release).
        let build = URL(fileURLWithPath: debug).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let release = build.appendingPathComponent("release/slicevid").path
        return FileManager.default.isExecutableFile(atPath: release) ? release : nil
    }

    @Test func sixLocalesOneTemplateTheSameBytesEverywhere() throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        let manifest = try Self.campaign(folder)
        let first = try BatchCLI.run(["batch", manifest, "--report", "r1.json"], in: folder.path)
        #expect(first.status == 0, "\(first.stderr)")
        for locale in Self.locales {
            let lines = try Self.producedBy(folder, locale, "A-\(locale)")
            let (price, date) = try #require(Self.written[locale])
            #expect(lines.contains("layer 2 text \(price)") && lines.contains("layer 3 text \(date)"), "\(locale): \(lines.filter { $0.hasPrefix("layer") })")
        }

        // Another machine's locale and zone: every clip is up to date (the same fingerprints,
        // the same formatted texts).
        let elsewhere = try CLI.run(["batch", manifest, "--plan"], in: folder.path, environment: Self.alien)
        #expect(elsewhere.status == 0 && elsewhere.stderr.contains("12 jobs: 12 up to date"), "\(elsewhere.stderr)")

        // A German name: the German clip alone.
        try folder.write("products.csv", Self.products.replacingOccurrences(of: "Kaffee", with: "Espresso"))
        let renamed = try BatchCLI.run(["batch", manifest, "--plan"], in: folder.path)
        #expect(renamed.stderr.contains("job 'A-de-DE': will render: name_de-DE 'Kaffee' → 'Espresso'; text of layer 1: 'Kaffee' → 'Espresso'\n"), "\(renamed.stderr)")
        #expect(renamed.stderr.contains("12 jobs: 11 up to date, 1 to render"), "\(renamed.stderr)")
        let second = try BatchCLI.run(["batch", manifest, "--report", "r2.json"], in: folder.path)
        #expect(second.status == 0, "\(second.stderr)")
        let report = try FeedCLITests.report(folder.path + "/r2.json")
        #expect(FeedCLITests.jobs(report).filter { $0["status"] as? String == "rendered" }.map { $0["id"] as? String ?? "" } == ["A-de-DE"])

        // A price: every locale's clip of that row, each change as the clip shows it.
        try folder.write("products.csv", Self.products.replacingOccurrences(of: "Kaffee", with: "Espresso").replacingOccurrences(of: "24.99", with: "22.99"))
        let repriced = try BatchCLI.run(["batch", manifest, "--plan"], in: folder.path)
        #expect(repriced.stderr.contains("job 'A-de-DE': will render: price '24,99\u{A0}€' → '22,99\u{A0}€'; text of layer 2: '24,99\u{A0}€' → '22,99\u{A0}€'\n"),
                "\(repriced.stderr)")
        #expect(repriced.stderr.contains("job 'A-en-IE': will render: price '€24.99' → '€22.99'"), "\(repriced.stderr)")
        // The right-to-left mark CLDR puts before an Arabic amount is shown as an escape in a log line.
        #expect(repriced.stderr.contains("job 'A-ar-EG': will render: price '\\u{200F}٢٤٫٩٩\u{A0}€' → '\\u{200F}٢٢٫٩٩\u{A0}€'"), "\(repriced.stderr)")
        #expect(repriced.stderr.contains("12 jobs: 6 up to date, 6 to render"), "\(repriced.stderr)")

        // A cell that is no number: 64, its line and column, the locale.
        try folder.write("products.csv", Self.products.replacingOccurrences(of: "1234.5", with: "\"1.234,50\""))
        let bad = try BatchCLI.run(["batch", manifest, "--check"], in: folder.path)
        #expect(bad.status == 64, "\(bad.stderr)")
        #expect(bad.stderr.contains("{price|currency:EUR} is '1.234,50' (from products.csv:3:31, column price) for the locale de-DE, which is not a number"),
                "\(bad.stderr)")
    }

    /// `make build`'s static binary carries the same CLDR data as the debug build: a campaign the
    /// debug build rendered is up to date for it, under another environment too. Runs when
    /// `.build/release/slicevid` is there (`make build`, or `swift build -c release
    /// --product slicevid --static-swift-stdlib`).
    @Test(.enabled(if: releaseBinary != nil, "no .build/release/slicevid: make build first"))
    func theReleaseBinaryWritesTheSame() throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        let manifest = try Self.campaign(folder)
        let debug = try BatchCLI.run(["batch", manifest], in: folder.path)
        #expect(debug.status == 0, "\(debug.stderr)")
        for environment: [String: String?] in [[:], Self.alien] {
            let release = try CLI.run(["batch", manifest, "--plan"], in: folder.path, executable: Self.releaseBinary, environment: environment)
            #expect(release.status == 0 && release.stderr.contains("12 jobs: 12 up to date"), "\(release.stderr)")
        }
    }
}
