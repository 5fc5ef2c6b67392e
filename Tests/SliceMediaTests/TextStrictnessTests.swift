// Strict like the rest of slicevid: a character no font has is refused naming it (U+XXXX), the
// layer and the fonts tried, never drawn as a box; font files that are missing, not fonts,
// bitmap fonts or too big are refused naming the file; every number is checked. One line each,
// with the exit code its kind documents.

import Foundation
import Glibc
import SliceKit
import Testing
@testable import SliceMedia

@Suite("text layers: strictness")
struct TextStrictnessTests {
    static func expectOneLine(_ error: TextError, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!error.description.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) },
                "one line without control characters: \(error)", sourceLocation: sourceLocation)
    }

    @Test("a character none of the fonts has: 65 naming it as U+XXXX, its place, the layer and the fonts tried")
    func unknownCharacter() throws {
        let layer = TextLayer(name: "greeting", text: "Hello 😀 there 🎉", width: 600, height: 120, size: .pixels(40))
        let error = try #require(throws: TextError.self) { try TextRenderer.render(layer) }
        #expect(error.kind == .unknownCharacter && error.exitCode == 65)
        let line = error.description
        #expect(line.hasPrefix("layer 'greeting': none of its fonts can draw U+1F600 GRINNING FACE"), "\(line)")
        #expect(line.contains("character 7 of 'Hello 😀 there 🎉'") && line.contains("and 1 more: U+1F389"), "\(line)")
        #expect(line.contains("the default set (Noto Sans, Noto Sans Arabic, Noto Sans Hebrew, Noto Sans Devanagari, Noto Sans Thai, IPAexGothic)"), "\(line)")
        Self.expectOneLine(error)
    }

    @Test("only the layer's fonts and the default set are tried: Georgian, which DejaVu on this machine has, is refused until the layer names DejaVu")
    func systemFontsNeverEnter() throws {
        var layer = TextLayer(name: "georgian", text: "გამარჯობა", width: 600, height: 120, size: .pixels(40))
        let error = try #require(throws: TextError.self) { try TextRenderer.render(layer) }
        #expect(error.kind == .unknownCharacter && error.description.contains("U+10D2 GEORGIAN LETTER GAN"), "\(error)")
        layer.fonts = [TestFonts.dejaVu]
        let rendered = try TextRenderer.render(layer)
        #expect(rendered.picture.inkBounds() != nil)
        // Named, the file is among the fonts tried (for Tibetan, which neither has).
        layer.text = "ཀ"
        let still = try #require(throws: TextError.self) { try TextRenderer.render(layer) }
        #expect(still.description.contains("U+0F40 TIBETAN LETTER KA") && still.description.contains("fonts tried: '\(TestFonts.dejaVu)', the default set ("), "\(still)")
    }

    @Test("an ellipsis does not hide an unknown character in the cut part")
    func unknownBehindEllipsis() throws {
        var layer = TextLayer(name: "legal", text: "Prices include VAT and delivery 😀", width: 200, height: 60, size: .pixels(24))
        layer.wrap = false
        layer.ellipsis = true
        let error = try #require(throws: TextError.self) { try TextRenderer.render(layer) }
        #expect(error.kind == .unknownCharacter && error.description.contains("U+1F600"), "\(error)")
    }

    @Test("control characters other than \\n are refused, escaped in the message")
    func controlCharacters() throws {
        for text in ["a\u{7}b", "tab\there", "cr\r\nlf", "nul\u{0}", "next\u{85}line", "para\u{2029}graph"] {
            let error = try #require(throws: TextError.self) { try TextRenderer.render(plainLayer(text)) }
            #expect(error.kind == .invalidSetting && error.description.contains("control character U+"), "\(error)")
            Self.expectOneLine(error)
        }
        #expect(throws: TextError.self) { try TextRenderer.render(plainLayer("   \n ")) }
    }

    @Test("font files: missing or not a regular file is 66; not a font, a bitmap font or too big is 65; each names the file")
    func fontFiles() throws {
        try withTemporaryDirectory { folder in
            func refusal(_ path: String) throws -> TextError {
                var layer = plainLayer("Flat White")
                layer.fonts = [path]
                return try #require(throws: TextError.self) { try TextRenderer.render(layer) }
            }
            let missing = try refusal(folder + "/Missing.ttf")
            #expect(missing.kind == .fontMissing && missing.exitCode == 66 && missing.mediaError.kind == .inputMissing)
            #expect(missing.description.hasPrefix("font '\(folder)/Missing.ttf': "), "\(missing)")

            let directory = try refusal(folder)
            #expect(directory.kind == .fontMissing, "\(directory)")

            // A FIFO is refused at once, never opened (fontconfig would block on it).
            #expect(mkfifo(folder + "/pipe.ttf", 0o600) == 0)
            #expect(try refusal(folder + "/pipe.ttf").kind == .fontMissing)

            try "not a font at all".write(toFile: folder + "/Text.ttf", atomically: true, encoding: .utf8)
            let text = try refusal(folder + "/Text.ttf")
            #expect(text.kind == .fontInvalid && text.exitCode == 65 && text.description.contains("is not a font"), "\(text)")
            FileManager.default.createFile(atPath: folder + "/Empty.otf", contents: Data())
            #expect(try refusal(folder + "/Empty.otf").kind == .fontInvalid)

            try Self.bitmapFont.write(toFile: folder + "/Bitmap.bdf", atomically: true, encoding: .utf8)
            let bitmap = try refusal(folder + "/Bitmap.bdf")
            #expect(bitmap.kind == .fontInvalid && bitmap.description.contains("is a BDF font"), "\(bitmap)")

            // Sparse: 65 MB of nothing costs no disk.
            #expect(FileManager.default.createFile(atPath: folder + "/Huge.ttf", contents: nil))
            #expect(truncate(folder + "/Huge.ttf", 65 << 20) == 0)
            let huge = try refusal(folder + "/Huge.ttf")
            #expect(huge.kind == .fontInvalid && huge.description.contains("up to 64 MiB"), "\(huge)")
            for error in [missing, directory, text, bitmap, huge] { Self.expectOneLine(error) }
        }
    }

    @Test("a default font whose package is missing is 69 naming the package")
    func defaultFontMissing() throws {
        let defaults = DefaultFonts.files.dropLast() + [DefaultFonts.File(path: "/nonexistent/ipaexg.ttf", debianPackage: "fonts-ipaexfont-gothic")]
        let error = try #require(throws: TextError.self) { try TextRenderer.render(plainLayer("Flat White"), defaults: Array(defaults)) }
        #expect(error.kind == .unavailable && error.exitCode == 69, "\(error)")
        #expect(error.description.hasPrefix("default font '/nonexistent/ipaexg.ttf': ") && error.description.contains("install the Debian package fonts-ipaexfont-gothic"), "\(error)")
    }

    @Test("a family not among the layer's fonts is refused, listing the families there are")
    func unknownFamily() throws {
        var layer = plainLayer("Flat White")
        layer.family = "Helvetica"
        let error = try #require(throws: TextError.self) { try TextRenderer.render(layer) }
        #expect(error.kind == .invalidSetting && error.description.contains("'Helvetica' is not in its fonts") && error.description.contains("'Noto Sans'"), "\(error)")
        layer.family = "noto sans hebrew"
        layer.text = "אבג abc"
        #expect(try TextRenderer.render(layer).picture.inkBounds() != nil)
    }

    @Test("every size is checked before use, the message naming it", arguments: [
        TextLayer.Size.pixels(.nan), .pixels(0), .pixels(5000), .pixels(.infinity),
        .auto(min: 20, max: 10), .auto(min: -.infinity, max: 10), .auto(min: 10, max: .nan),
    ])
    func sizes(_ size: TextLayer.Size) throws {
        var layer = plainLayer("Flat White")
        layer.size = size
        let error = try #require(throws: TextError.self) { try TextRenderer.render(layer) }
        #expect(error.kind == .invalidSetting && error.description.contains("size"), "\(error)")
    }

    @Test("boxes, weights, lines, plates, outlines, shadows and languages out of range are refused")
    func settings() throws {
        let bad: [(String, (inout TextLayer) -> Void)] = [
            ("box", { $0.width = 0 }), ("box", { $0.height = -5 }), ("box", { $0.width = 20000 }),
            ("more than", { $0.width = 16384; $0.height = 16384 }),
            ("weight", { $0.weight = 0 }), ("max-lines", { $0.maxLines = 0 }), ("line height", { $0.lineHeight = .nan }),
            ("plate padding", { $0.plate = .init(color: .black, padding: -1) }),
            ("leaves no room", { $0.plate = .init(color: .black, padding: 60) }),
            ("plate padding", { $0.plate = .init(color: .black, radius: .infinity) }),
            ("outline width", { $0.outline = .init(width: 0, color: .black) }),
            ("outline width", { $0.outline = .init(width: .nan, color: .black) }),
            ("shadow offset", { $0.shadow = .init(x: .infinity, y: 0, color: .black) }),
            ("shadow blur", { $0.shadow = .init(x: 1, y: 1, blur: -1, color: .black) }),
            ("language", { $0.language = "de DE" }), ("language", { $0.language = "" }),
            ("family", { $0.family = "A,B" }), ("font path", { $0.fonts = [""] }),
        ]
        for (named, change) in bad {
            var layer = plainLayer("Flat White")
            change(&layer)
            let error = try #require(throws: TextError.self) { try TextRenderer.render(layer) }
            #expect(error.kind == .invalidSetting && error.exitCode == 65 && error.description.contains(named), "\(named): \(error)")
            Self.expectOneLine(error)
        }
    }

    /// A BDF bitmap font with one glyph: fontconfig reads it, Pango would skip it.
    static let bitmapFont = """
        STARTFONT 2.1
        FONT -misc-test-medium-r-normal--8-80-75-75-c-80-iso10646-1
        SIZE 8 75 75
        FONTBOUNDINGBOX 8 8 0 0
        STARTPROPERTIES 3
        FAMILY_NAME "Test"
        FONT_ASCENT 8
        FONT_DESCENT 0
        ENDPROPERTIES
        CHARS 1
        STARTCHAR A
        ENCODING 65
        SWIDTH 500 0
        DWIDTH 8 0
        BBX 8 8 0 0
        BITMAP
        FF
        81
        81
        81
        81
        81
        81
        FF
        ENDCHAR
        ENDFONT

        """
}
