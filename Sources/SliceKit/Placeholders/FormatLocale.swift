// The locale a placeholder's format writes for (`de-DE`, `en-IE`, `ar-EG`): a language, an
// optional script and region, checked against the CLDR data linked into slicevid, so a typo
// (`de-DX`, `xx`) is refused instead of quietly falling back to another locale's rules.
// Nothing of the host's (LANG, LC_ALL, its default locale) is ever read.

import Foundation

/// A locale a format writes for, known to slicevid's CLDR data.
package struct FormatLocale: Sendable, Equatable {
    /// The tag in BCP 47 form, `de-DE`, for messages.
    package let tag: String
    /// The locale, for Foundation's formatters.
    let locale: Locale

    /// What a locale is written as, for messages.
    package static let accepted = "a language with an optional script and region, as in de-DE, en-IE, fr-FR, ar-EG, zh-Hans-CN (de_DE is read too)"

    /// Reads `text`.
    /// - Throws: why it is no locale slicevid knows.
    package init(_ text: String) throws(FormatProblem) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
            .flatMap { $0.split(separator: "_", omittingEmptySubsequences: false) }
        guard text.utf8.count <= 32, let first = parts.first, (2...3).contains(first.count), first.allSatisfy(Self.isLetter) else {
            throw FormatProblem("is not a locale; a locale is \(Self.accepted)")
        }
        let language = first.lowercased()
        var script: String?
        var region: String?
        for part in parts.dropFirst() {
            if script == nil, region == nil, part.count == 4, part.allSatisfy(Self.isLetter) {
                script = part.prefix(1).uppercased() + part.dropFirst().lowercased()
            } else if region == nil, (part.count == 2 && part.allSatisfy(Self.isLetter)) || (part.count == 3 && part.allSatisfy(\.isASCII) && part.allSatisfy(\.isNumber)) {
                region = part.uppercased()
            } else {
                throw FormatProblem("is not a locale; a locale is \(Self.accepted)")
            }
        }
        // The language (with its script) must be one CLDR has; a region any ISO 3166 one, as
        // de-US is German written with the United States' region settings.
        let base = ([language] + (script.map { [$0] } ?? [])).joined(separator: "_")
        guard Self.known.contains(base) else {
            throw FormatProblem("is not a language slicevid's CLDR data has (\(script == nil ? language : "\(language)-\(script!)"))")
        }
        if let region, !Self.regions.contains(region) {
            throw FormatProblem("names the region \(region), which is not an ISO 3166 region")
        }
        tag = ([language] + [script, region].compactMap { $0 }).joined(separator: "-")
        locale = Locale(identifier: ([base] + [region].compactMap { $0 }).joined(separator: "_"))
    }

    private static func isLetter(_ character: Character) -> Bool {
        character.isASCII && character.isLetter
    }

    /// The languages (and language-script pairs) CLDR has, as ICU names them: `de`, `sr_Latn`.
    private static let known: Set<String> = Set(Locale.availableIdentifiers)

    /// ISO 3166 regions, two letters or three digits (`DE`, `419`).
    private static let regions: Set<String> = Set(Locale.Region.isoRegions.map(\.identifier))
}

/// Why a format cannot write a value, or a locale is none: the words after the value in a message.
package struct FormatProblem: Error, Sendable, Equatable, CustomStringConvertible {
    package let description: String

    package init(_ description: String) {
        self.description = description
    }
}
