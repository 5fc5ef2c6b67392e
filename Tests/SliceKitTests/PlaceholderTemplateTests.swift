// The one placeholder grammar: literal braces, nested placeholders filled inner first, values
// placed as data (never read again as a template), every stray brace refused, formats read at the
// seam, and the path rule on each value placed in a path.

import Glibc
import Testing
@testable import SliceKit

@Suite struct PlaceholderTemplateTests {
    static let values = ["locale": "en", "name_en": "Coffee", "name_de": "Kaffee", "sku": "NL-101", "shelf": "a/b"]

    @Test("a nested placeholder is filled inner first, at any depth up to the limit")
    func nested() throws {
        #expect(try Placeholders.fill("{name_{locale}}", values: Self.values) == "Coffee")
        #expect(try Placeholders.fill("{sku}: {name_{locale}} ({locale})", values: Self.values) == "NL-101: Coffee (en)")
        // The inner value makes part of a name, wherever in it.
        #expect(try Placeholders.fill("{{{name_{locale}}}}", values: Self.values) == "{Coffee}")
        // `{x{x{a}}}`: a is 1, x1 is 2, x2 is 3: each level names the next.
        func nesting(_ depth: Int) -> String { depth == 1 ? "{a}" : "{x" + nesting(depth - 1) + "}" }
        var deep = ["a": "1"]
        for level in 1...9 { deep["x\(level)"] = String(level + 1) }
        #expect(try Placeholders.fill(nesting(PlaceholderTemplate.maximumDepth), values: deep) == String(PlaceholderTemplate.maximumDepth))
        #expect(throws: Placeholders.Failure.self) { try Placeholders.fill(nesting(PlaceholderTemplate.maximumDepth + 1), values: deep) }
    }

    @Test("a value is data: it is placed as it is, braces and all, and never filled again")
    func valuesStayData() throws {
        let values = ["title": "{name_en}", "name_en": "Coffee"]
        #expect(try Placeholders.fill("{title}", values: values) == "{name_en}")
        #expect(try Placeholders.fill("a {{b}} {title}", values: values) == "a {b} {name_en}")
    }

    @Test("a placeholder with no value, or one nested values make no name of, is an error naming it")
    func missingNames() {
        #expect(throws: Placeholders.Failure.missing("name_fr")) { try Placeholders.fill("{name_{locale}}", values: ["locale": "fr"]) }
        #expect(throws: Placeholders.Failure.missing("locale")) { try Placeholders.fill("{name_{locale}}", values: [:]) }
        #expect(throws: Placeholders.Failure.notAName(placeholder: "{name_{shelf}}", name: "name_a/b")) {
            try Placeholders.fill("{name_{shelf}}", values: Self.values)
        }
    }

    @Test("every brace that opens or closes nothing is refused, naming what was written", arguments: [
        ("a } b", "}"), ("{sku", "{sku"), ("out/{sku.mp4", "{sku.mp4"), ("{ a }", "{ a }"), ("{}", "{}"), ("{9lives}", "{9lives}"),
        ("{name_{locale}", "{name_{locale}"), ("{na me_{locale}}", "{na me_{locale}}"), ("{a|}", "{a|}"),
    ])
    func strayBraces(_ template: String, _ shown: String) {
        #expect(throws: Placeholders.Failure.malformed(shown)) { try Placeholders.fill(template, values: Self.values) }
        #expect(Placeholders.problem(.malformed(shown)).hasSuffix("and {{ or }} for a literal brace"))
    }

    @Test("a format is read as one, filled inner first, and written for the locale {locale} names")
    func formatSeam() throws {
        let template = try PlaceholderTemplate(parsing: "{price|currency:{currency}}")
        #expect(template.single?.format != nil)
        #expect(try Placeholders.fill("{price|currency:{currency}}", values: ["price": "24.99", "currency": "EUR", "locale": "en-IE"]) == "€24.99")
        #expect(throws: Placeholders.Failure.format(placeholder: "{price|currency:{currency}}", format: "currency:euro")) {
            try Placeholders.fill("{price|currency:{currency}}", values: ["price": "24.99", "currency": "euro", "locale": "en-IE"])
        }
        #expect(Placeholders.problem(.format(placeholder: "{p|x}", format: "x")).contains("a format is number"))
    }

    @Test("the names a fill asks for: nested ones and the names they make")
    func names() throws {
        #expect(try PlaceholderTemplate(parsing: "{sku}-{name_{locale}}").names(with: Self.values) == ["sku", "locale", "name_en"])
        #expect(try Placeholders.names(in: "{a}{b}{a}{c_{d}}") == ["a", "b", "d"])
    }

    @Test("a value placed in a path stays below the folder the template names, and fits a path", arguments: [
        ("../../private/x", "must not hold a '..' part"),
        ("a/../../x", "must not hold a '..' part"),
        ("/etc/passwd", "must not start with /"),
        ("a\nb", "must not hold control characters"),
        ("", "must not be empty"),
        (String(repeating: "x", count: Int(NAME_MAX) + 1), "a part of this one is \(Int(NAME_MAX) + 1)"),
        (String(repeating: "x/", count: Int(PATH_MAX) / 2 + 1), "at most \(PATH_MAX) bytes"),
    ])
    func pathRule(_ value: String, _ expected: String) throws {
        do {
            _ = try Placeholders.fill(path: "/srv/logos/{brand}.png", values: ["brand": value])
            Issue.record("accepted \(value.prefix(40))")
        } catch {
            guard case .path(let placeholder, let shown, let problem) = error else { Issue.record("\(error)"); return }
            #expect(placeholder == "{brand}" && shown == value && problem.contains(expected), "\(problem)")
        }
        // The same value in text is text.
        #expect(try Placeholders.fill("/srv/logos/{brand}.png", values: ["brand": value]) == "/srv/logos/\(value).png")
    }

    @Test("in a path, values inside a name are names, not paths; the value placed is held to the rule")
    func pathRuleOnPlacedValues() throws {
        #expect(try Placeholders.fill(path: "logos/{brand_{locale}}.png", values: ["locale": "en", "brand_en": "acme"]) == "logos/acme.png")
        #expect(try Placeholders.fill(path: "logos/{brand}/{sku}.png", values: ["brand": "acme/2026", "sku": "1"]) == "logos/acme/2026/1.png")
        #expect(throws: Placeholders.Failure.path(placeholder: "{brand_{locale}}", value: "../x",
                                                  problem: PathValue.problem("../x")!)) {
            try Placeholders.fill(path: "logos/{brand_{locale}}.png", values: ["locale": "en", "brand_en": "../x"])
        }
    }
}
