// A placeholder's format — `{price|currency:EUR}`, `{count|number}`, `{discount|percent}`,
// `{until|date:long}` — writes a feed's raw value (a number as a program writes it, `24.99`; a
// date as ISO 8601, `2026-12-04`) the way a locale's readers expect it: `24,99 €` in de-DE,
// `€24.99` in en-IE. The rules are CLDR's, applied by Foundation's formatters over ICU, whose
// data is linked into slicevid; each formatter is given the locale, calendar and time zone, so
// the host's LANG, LC_ALL or TZ never change a byte.

import Foundation
import Synchronization

/// One format a placeholder may ask for.
package enum ValueFormat: Sendable, Equatable {
    /// The number with the locale's digits, decimal sign and grouping; as many decimals as the
    /// value is written with, or `digits`.
    case number(digits: Int?)
    /// An amount of `code` (ISO 4217), with that currency's decimals and the locale's symbol
    /// and pattern.
    case currency(code: String)
    /// A fraction as a percentage (0.15 is 15 %); decimals as the value has them beyond
    /// hundredths, or `digits`.
    case percent(digits: Int?)
    /// A calendar date in one of CLDR's lengths.
    case date(DateLength)

    /// CLDR's lengths of a date: `04.12.26`, `04.12.2026`, `4. Dezember 2026`, with the weekday.
    package enum DateLength: String, Sendable, CaseIterable {
        case short, medium, long, full
    }

    /// The formats, for messages.
    package static let accepted = "number, number:DECIMALS, percent, percent:DECIMALS, currency:CODE (an ISO 4217 code such as EUR) "
        + "or date:LENGTH (short, medium, long or full)"

    /// The most decimals a format may ask for.
    package static let mostDecimals = 6

    /// Reads a format as written after `|` (its placeholders filled); nil when it is none.
    package init?(parsing text: String) {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let argument = parts.count == 2 ? parts[1] : nil
        func decimals() -> Int?? {
            guard let argument else { return .some(nil) }
            guard argument.count == 1, let digits = Int(argument), (0...Self.mostDecimals).contains(digits) else { return nil }
            return .some(digits)
        }
        switch parts[0] {
        case "number":
            guard let digits = decimals() else { return nil }
            self = .number(digits: digits)
        case "percent":
            guard let digits = decimals() else { return nil }
            self = .percent(digits: digits)
        case "currency":
            guard let code = argument, code.count == 3, code.allSatisfy({ $0.isASCII && $0.isUppercase }),
                  Self.currencies.contains(code) else { return nil }
            self = .currency(code: code)
        case "date":
            guard let length = argument.flatMap(DateLength.init(rawValue:)) else { return nil }
            self = .date(length)
        default:
            return nil
        }
    }

    /// `value` written for `locale`.
    /// - Throws: why `value` is not what the format needs (a number, or a date).
    package func write(_ value: String, locale: FormatLocale) throws(FormatProblem) -> String {
        let style = locale.locale
        switch self {
        case .number(let digits):
            let number = try FormatNumber(value)
            return number.value.formatted(.number.locale(style).precision(.fractionLength(digits ?? number.decimals))
                .rounded(rule: .toNearestOrAwayFromZero))
        case .currency(let code):
            let number = try FormatNumber(value)
            return number.value.formatted(.currency(code: code).locale(style).rounded(rule: .toNearestOrAwayFromZero))
        case .percent(let digits):
            let number = try FormatNumber(value)
            return number.value.formatted(.percent.locale(style).precision(.fractionLength(digits ?? max(0, number.decimals - 2)))
                .rounded(rule: .toNearestOrAwayFromZero))
        case .date(let length):
            let date = try Self.date(value)
            return Self.dateFormatters.withLock { formatters in
                let key = "\(locale.tag) \(length.rawValue)"
                if let formatter = formatters[key] { return formatter.string(from: date) }
                let formatter = Self.dateFormatter(style, length: length)
                // A feed whose rows name thousands of locales keeps a few hundred formatters, not all.
                if formatters.count >= 256 { formatters.removeAll() }
                formatters[key] = formatter
                return formatter.string(from: date)
            }
        }
    }

    /// CLDR's pattern for a date of `length` (Date.FormatStyle's date styles are skeletons, not
    /// these), in the locale's own calendar (th-TH counts Buddhist years), in UTC: a date is the
    /// day written, wherever slicevid runs.
    private static func dateFormatter(_ locale: Locale, length: DateLength) -> DateFormatter {
        let formatter = DateFormatter()
        var calendar = Calendar(identifier: locale.calendar.identifier)
        calendar.locale = locale
        calendar.timeZone = utc
        formatter.locale = locale
        formatter.calendar = calendar
        formatter.timeZone = utc
        formatter.dateStyle = switch length {
        case .short: .short
        case .medium: .medium
        case .long: .long
        case .full: .full
        }
        formatter.timeStyle = .none
        return formatter
    }

    /// Date formatters by locale and length: making one costs ICU most of a millisecond, and a
    /// campaign writes the same few thousands of times. Used under the lock (a formatter is not
    /// safe to share between threads).
    private static let dateFormatters = Mutex<[String: DateFormatter]>([:])

    /// ISO 4217 codes, as CLDR lists them.
    private static let currencies: Set<String> = Set(Locale.Currency.isoCurrencies.map(\.identifier))

    private static let utc = TimeZone(secondsFromGMT: 0)!

    /// The day `text` names, `YYYY-MM-DD` (ISO 8601's calendar date), at midnight UTC.
    private static func date(_ text: String) throws(FormatProblem) -> Date {
        let problem = FormatProblem("is not a date; a date is written as ISO 8601 has it, YYYY-MM-DD (2026-12-04)")
        let scalars = Array(text.unicodeScalars)
        guard scalars.count == 10, scalars[4] == "-", scalars[7] == "-" else { throw problem }
        func number(_ range: Range<Int>) -> Int? {
            guard scalars[range].allSatisfy({ ("0"..."9").contains($0) }) else { return nil }
            return scalars[range].reduce(0) { $0 * 10 + Int($1.value - 48) }
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), year >= 1 else { throw problem }
        var gregorian = Calendar(identifier: .gregorian)
        gregorian.timeZone = utc
        let components = DateComponents(year: year, month: month, day: day)
        // 2026-02-30 would roll over into March: refused, not moved.
        guard (1...12).contains(month), (1...31).contains(day), let date = gregorian.date(from: components),
              gregorian.dateComponents([.year, .month, .day], from: date) == components else {
            throw FormatProblem("is not a day of the calendar; a date is written as ISO 8601 has it, YYYY-MM-DD (2026-12-04)")
        }
        return date
    }
}
