// Formats write a feed's raw values as CLDR says a locale writes them: pinned here against the
// strings of CLDR 46 as ICU 76 in Swift's Foundation carries it (linked into slicevid), narrow
// no-break spaces (U+202F), no-break spaces (U+00A0), Arabic-Indic digits and bidirectional
// marks included. The numbers, prices and percentages are CLDR's own (Python Babel's CLDR 45 and
// 47 tables give the same patterns and symbols); two date patterns are those of Apple's edition
// of ICU, which Swift's Foundation uses: ar-EG's long date has an Arabic comma before the year
// and ja-JP's full date a space before the weekday, where CLDR has neither. A value that is not
// what the format needs, a format or a locale slicevid does not know, is refused, never guessed.

import Testing
@testable import SliceKit

@Suite struct ValueFormatTests {
    static func write(_ value: String, _ format: String, _ locale: String) throws -> String {
        try Placeholders.fill("{v|\(format)}", values: ["v": value, "locale": locale])
    }

    /// What each locale writes for 1234.5 EUR, 1234567.891, 0.15, -5 JPY and 2026-12-04
    /// (short, medium, long, full).
    static let pinned: [(locale: String, strings: [String])] = [
        ("de-DE", ["1.234,50\u{A0}€", "1.234.567,891", "15\u{A0}%", "-5\u{A0}¥",
                   "04.12.26", "04.12.2026", "4. Dezember 2026", "Freitag, 4. Dezember 2026"]),
        ("en-IE", ["€1,234.50", "1,234,567.891", "15%", "-JP¥5",
                   "04/12/2026", "4 Dec 2026", "4 December 2026", "Friday 4 December 2026"]),
        ("fr-FR", ["1\u{202F}234,50\u{A0}€", "1\u{202F}234\u{202F}567,891", "15\u{A0}%", "-5\u{A0}JPY",
                   "04/12/2026", "4 déc. 2026", "4 décembre 2026", "vendredi 4 décembre 2026"]),
        ("nl-NL", ["€\u{A0}1.234,50", "1.234.567,891", "15%", "JP¥\u{A0}-5",
                   "04-12-2026", "4 dec 2026", "4 december 2026", "vrijdag 4 december 2026"]),
        // Arabic-Indic digits (U+0660…), the Arabic decimal and group signs (U+066B, U+066C) and
        // percent sign (U+066A), with the right-to-left and Arabic letter marks CLDR puts in.
        ("ar-EG", ["\u{200F}١٬٢٣٤٫٥٠\u{A0}€", "١٬٢٣٤٬٥٦٧٫٨٩١", "١٥٪\u{61C}", "\u{61C}-\u{200F}٥\u{A0}JP¥",
                   "٤\u{200F}/١٢\u{200F}/٢٠٢٦", "٠٤\u{200F}/١٢\u{200F}/٢٠٢٦", "٤ ديسمبر، ٢٠٢٦", "الجمعة، ٤ ديسمبر، ٢٠٢٦"]),
        ("ja-JP", ["€1,234.50", "1,234,567.891", "15%", "-¥5",
                   "2026/12/04", "2026/12/04", "2026年12月4日", "2026年12月4日 金曜日"]),
    ]

    @Test("each locale writes numbers, prices, percentages and dates as CLDR has them", arguments: pinned)
    func cldrStrings(_ locale: String, _ strings: [String]) throws {
        let written = [
            try Self.write("1234.5", "currency:EUR", locale), try Self.write("1234567.891", "number", locale),
            try Self.write("0.15", "percent", locale), try Self.write("-5", "currency:JPY", locale),
        ] + (try ["short", "medium", "long", "full"].map { try Self.write("2026-12-04", "date:\($0)", locale) })
        // Compared scalar by scalar: a U+00A0 where CLDR has U+202F is a difference.
        #expect(written.map { Array($0.unicodeScalars) } == strings.map { Array($0.unicodeScalars) },
                "\(written.map { $0.unicodeScalars.map { $0.value < 128 ? String($0) : "U+" + String($0.value, radix: 16, uppercase: true) }.joined() })")
    }

    @Test("a number is read exactly as a program writes it; decimals as written, or as asked; halves away from zero")
    func numbers() throws {
        #expect(try Self.write("24.99", "currency:EUR", "de-DE") == "24,99\u{A0}€")
        #expect(try Self.write("24.99", "currency:EUR", "en-IE") == "€24.99")
        #expect(try Self.write("24.5", "currency:EUR", "de") == "24,50\u{A0}€")
        #expect(try Self.write("1999", "currency:JPY", "ja-JP") == "￥1,999" || (try Self.write("1999", "currency:JPY", "ja-JP")) == "¥1,999")
        // 24.985 is 24,99: ICU's own default (half to even) would write 24,98.
        #expect(try Self.write("24.985", "currency:EUR", "de-DE") == "24,99\u{A0}€")
        #expect(try Self.write("24.50", "number", "de-DE") == "24,50")
        #expect(try Self.write("1234", "number", "de-DE") == "1.234")
        #expect(try Self.write("1234.5678", "number:2", "de-DE") == "1.234,57")
        #expect(try Self.write("+1e3", "number", "en-IE") == "1,000")
        #expect(try Self.write("1.5e-3", "number", "en-IE") == "0.0015")
        #expect(try Self.write("0.125", "percent", "en-IE") == "12.5%")
        #expect(try Self.write("0.125", "percent:0", "en-IE") == "13%")
        #expect(try Self.write("-0.2", "percent", "de-DE") == "-20\u{A0}%")
    }

    @Test("a value that is no number, or one out of bounds, is refused naming the value and the locale", arguments: [
        "24,99", "€24.99", "1.234,50", " 24.99", "24.99 ", "", "abc", "1.", ".5", "1e", "--1", "0x10", "1_000", "24.99€", "١٢",
        "1e99999", "1234567890123456789", "0.0000000000000000001", "1e19",
    ])
    func notNumbers(_ value: String) {
        #expect {
            try Self.write(value, "currency:EUR", "de-DE")
        } throws: { error in
            guard case .value(let placeholder, let name, let written, let locale, let problem) = error as? Placeholders.Failure else { return false }
            return placeholder == "{v|currency:EUR}" && name == "v" && written == value && locale == "de-DE"
                && (problem.hasPrefix("is not a number") || problem.hasPrefix("is a number out of bounds"))
        }
    }

    @Test("a date is a real day written as ISO 8601", arguments: ["2026-02-30", "2026-13-01", "04.12.2026", "2026-12-4", "2026-12-04T10:00:00Z", "0000-01-01", "12/04/2026"])
    func notDates(_ value: String) {
        #expect(throws: Placeholders.Failure.self) { try Self.write(value, "date:long", "de-DE") }
    }

    @Test("a locale is a language CLDR has, with an optional script and a real region")
    func locales() throws {
        #expect(try Self.write("24.99", "currency:EUR", "de_DE") == "24,99\u{A0}€")
        #expect(try Self.write("24.99", "currency:EUR", "DE-de") == "24,99\u{A0}€")
        #expect(try Self.write("24.99", "currency:EUR", "de-CH") == "EUR\u{A0}24.99" || (try Self.write("24.99", "currency:EUR", "de-CH")).contains("24.99"))
        #expect(try Self.write("1234.5", "number", "zh-Hans-CN") == "1,234.5")
        for bad in ["xx", "de-DX", "de-DE-x", "german", "", "de--DE", "d", "de-DE-u-nu-latn"] {
            #expect {
                try Self.write("24.99", "currency:EUR", bad)
            } throws: { error in
                guard case .locale(_, let locale, _) = error as? Placeholders.Failure else { return false }
                return locale == bad
            }
        }
        #expect(throws: Placeholders.Failure.noLocale(placeholder: "{v|number}")) { try Placeholders.fill("{v|number}", values: ["v": "1"]) }
    }

    @Test("a format slicevid does not have is refused as the template is read", arguments: [
        "currency:eur", "currency:XYZ", "currency", "date", "date:tiny", "number:7", "percent:x", "number:", "money", "number:1:2",
    ])
    func unknownFormats(_ format: String) {
        #expect(throws: Placeholders.Failure.format(placeholder: "{price|\(format)}", format: format)) {
            try Placeholders.names(in: "{price|\(format)}")
        }
        #expect(Placeholders.problem(.format(placeholder: "{price|\(format)}", format: format)).contains("a format is number, number:DECIMALS, percent"))
    }

    @Test("a format with placeholders is read once they are filled; the locale counts as a name the template uses")
    func formatsWithPlaceholders() throws {
        let values = ["price_de": "24.99", "price_en": "22.5", "code": "EUR", "locale": "de", "lang": "de"]
        #expect(try Placeholders.fill("{price_{lang}|currency:{code}}", values: values) == "24,99\u{A0}€")
        #expect(throws: Placeholders.Failure.format(placeholder: "{price_{lang}|currency:{code}}", format: "currency:eur")) {
            try Placeholders.fill("{price_{lang}|currency:{code}}", values: values.merging(["code": "eur"]) { $1 })
        }
        let template = try PlaceholderTemplate(parsing: "{price_{lang}|currency:{code}} {sku}")
        // A value its format would refuse hides no name after it.
        #expect(template.names(with: values.merging(["price_de": "oops"]) { $1 }) == ["lang", "code", "price_de", "locale", "sku"])
    }
}
