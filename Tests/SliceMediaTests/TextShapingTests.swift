// Shaping through HarfBuzz with bidi, checked in the pixels: Hebrew and Arabic run right to left
// and Arabic letters join, Devanagari forms conjuncts, Thai stacks its marks, and German,
// Hindi, Thai and Japanese all draw with the default fonts. pango-view, rendering the same font
// file with the same options, is the peer for Arabic.

import Foundation
import SliceKit
import Testing
@testable import SliceMedia

@Suite("text shaping: right to left, joined, conjuncts, every default script")
struct TextShapingTests {
    /// A layer in the default fonts at `size`, black, in a box wide enough for one line.
    static func layer(_ text: String, alignment: TextLayer.Alignment = .start, size: Double = 64,
                      fonts: [String] = [], width: Int = 900) -> TextLayer {
        TextLayer(name: "shaping", text: text, width: width, height: Int(size * 2.5), size: .pixels(size), fonts: fonts,
                  alignment: alignment, color: RGBAColor(red: 0, green: 0, blue: 0))
    }

    static func ink(_ text: String, alignment: TextLayer.Alignment = .start, size: Double = 64, fonts: [String] = []) throws -> (RGBA16Image, PixelBounds) {
        let picture = try TextRenderer.render(layer(text, alignment: alignment, size: size, fonts: fonts)).picture
        return (picture, try #require(picture.inkBounds(), "no ink for \(text)"))
    }

    @Test("Hebrew reads right to left: its first letter is rightmost, and start alignment is the right edge")
    func hebrewRightToLeft() throws {
        let (word, wordInk) = try Self.ink("שלום", alignment: .start)
        let (first, firstInk) = try Self.ink("ש", alignment: .start)
        let (last, lastInk) = try Self.ink("ם", alignment: .end)
        // Start is the right for a Hebrew paragraph: the ink hugs the right edge, not the left.
        #expect(wordInk.x1 > 900 - 12 && wordInk.x0 > 450, "\(wordInk)")
        // The first letter (shin), set alone at the same edge, is the word's rightmost glyph,
        // pixel for pixel; the last (final mem), set alone at the end (left) edge, its leftmost.
        #expect(firstInk.x1 == wordInk.x1, "shin \(firstInk), word \(wordInk)")
        for x in firstInk.x0..<firstInk.x1 {
            for y in 0..<word.height { #expect(word.sample(3, x, y) == first.sample(3, x, y), "column \(x)"); if word.sample(3, x, y) != first.sample(3, x, y) { return } }
        }
        let (wordAtEnd, atEndInk) = try Self.ink("שלום", alignment: .end)
        #expect(atEndInk.x0 < 12 && lastInk.x0 == atEndInk.x0, "mem \(lastInk), word at the end \(atEndInk)")
        for x in lastInk.x0..<lastInk.x1 {
            for y in 0..<wordAtEnd.height where wordAtEnd.sample(3, x, y) != last.sample(3, x, y) {
                Issue.record("column \(x), row \(y) differs from the final mem alone")
                return
            }
        }
    }

    @Test("English stays left to right: start is the left edge")
    func latinStartIsLeft() throws {
        let (_, ink) = try Self.ink("Flat White", alignment: .start)
        #expect(ink.x0 < 12 && ink.x1 < 600, "\(ink)")
    }

    @Test("Arabic letters join: one unbroken stroke, narrower than the letters set apart")
    func arabicJoins() throws {
        // Beh, yeh, teh join on both sides: joined, the word's ink has no empty column.
        let (word, ink) = try Self.ink("بيت")
        let gaps = (ink.x0..<ink.x1).filter { !word.columnHasInk($0) }
        #expect(gaps.isEmpty, "empty columns inside the joined word: \(gaps)")
        // The same letters forced apart (zero-width non-joiners between them) take their
        // isolated forms, which are wider and leave gaps.
        let (apart, apartInk) = try Self.ink("ب\u{200C}ي\u{200C}ت")
        let apartGaps = (apartInk.x0..<apartInk.x1).filter { !apart.columnHasInk($0) }
        #expect(!apartGaps.isEmpty, "isolated letters should stand apart")
        #expect(apartInk.width > ink.width + 20, "joined \(ink.width) px, isolated \(apartInk.width) px")
        // Right to left: start alignment puts it at the right edge.
        #expect(ink.x1 > 900 - 12, "\(ink)")
    }

    @Test("Arabic matches pango-view drawing the same font file with the same options",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/pango-view"), "needs pango-view (pango1.0-tools; make test installs it)"))
    func arabicMatchesPangoView() throws {
        try withTemporaryDirectory { folder in
            let fonts = folder + "/fonts"
            try FileManager.default.createDirectory(atPath: fonts, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: TestFonts.notoArabic, toPath: fonts + "/NotoSansArabic-Regular.ttf")
            // A fontconfig configuration holding that one font: pango-view cannot pick another.
            let config = folder + "/fonts.conf"
            try """
            <?xml version="1.0"?>
            <fontconfig><dir>\(fonts)</dir><cachedir>\(folder)/cache</cachedir></fontconfig>
            """.write(toFile: config, atomically: true, encoding: .utf8)
            let text = "مرحبا بالعالم"
            let peer = Process()
            peer.executableURL = URL(fileURLWithPath: "/usr/bin/pango-view")
            peer.arguments = ["--pixels", "--font=Noto Sans Arabic 64", "--hinting=none", "--antialias=gray", "--hint-metrics=off",
                              "--subpixel-positions", "--margin=0", "--background=transparent", "--foreground=#000000",
                              "-q", "-o", folder + "/peer.png", "-t", text]
            peer.environment = ["FONTCONFIG_FILE": config, "HOME": folder, "PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"]
            try peer.run()
            peer.waitUntilExit()
            #expect(peer.terminationStatus == 0)
            let png = try Data(contentsOf: URL(fileURLWithPath: folder + "/peer.png"))
            let size = png[16..<24].withUnsafeBytes { ($0.loadUnaligned(fromByteOffset: 0, as: UInt32.self).bigEndian,
                                                       $0.loadUnaligned(fromByteOffset: 4, as: UInt32.self).bigEndian) }
            let theirs = try StillDecoder.load(path: folder + "/peer.png", width: Int(size.0), height: Int(size.1), fit: .contain,
                                               background: RGBAColor(red: 0, green: 0, blue: 0, alpha: 0))
            // End alignment: the left edge for Arabic, where pango-view starts its line too, so both
            // put glyphs at the same fractions of a pixel.
            let (ours, ourInk) = try Self.ink(text, alignment: .end, fonts: [TestFonts.notoArabic])
            var theirInk: PixelBounds?
            for y in 0..<theirs.height {
                for x in 0..<theirs.width where theirs[x, y].alpha > 0 {
                    var b = theirInk ?? PixelBounds(x0: x, y0: y, x1: x + 1, y1: y + 1)
                    b.x0 = min(b.x0, x); b.x1 = max(b.x1, x + 1); b.y0 = min(b.y0, y); b.y1 = max(b.y1, y + 1)
                    theirInk = b
                }
            }
            let peerInk = try #require(theirInk)
            // Same shaping and rasterizing: the same ink, pixel for pixel, wherever each put its origin.
            #expect(peerInk.width == ourInk.width && peerInk.height == ourInk.height, "pango-view \(peerInk), ours \(ourInk)")
            var differing = 0
            for y in 0..<min(peerInk.height, ourInk.height) {
                for x in 0..<min(peerInk.width, ourInk.width) {
                    let a = Int(theirs[peerInk.x0 + x, peerInk.y0 + y].alpha)
                    let b = Int(RGBA16Image.eightBit(ours.sample(3, ourInk.x0 + x, ourInk.y0 + y)))
                    if abs(a - b) > 1 { differing += 1 }
                }
            }
            #expect(differing == 0, "\(differing) pixels differ from pango-view's")
        }
    }

    @Test("a layer's language picks its letter forms, for the runs of its own script only")
    func language() throws {
        func render(_ text: String, _ language: String) throws -> [UInt16] {
            var layer = Self.layer(text, fonts: [TestFonts.notoArabic])
            layer.language = language
            return try TextRenderer.render(layer).picture.samples
        }
        // Urdu writes Extended Arabic-Indic four, five and six differently from Arabic and Persian.
        let digits = "۴۵۶"
        #expect(try render(digits, "ur") != render(digits, "und"))
        #expect(try render(digits, "fa") == render(digits, "und"))
        // A German layer's Arabic run is not German: it takes no language at all.
        #expect(try render("Preis " + digits, "de") == render("Preis " + digits, "und"))
    }

    @Test("Devanagari forms conjuncts: क्ष is one glyph, narrower than क and ष side by side")
    func devanagariConjunct() throws {
        let (_, conjunct) = try Self.ink("क्ष")
        let (_, ka) = try Self.ink("क")
        let (_, ssa) = try Self.ink("ष")
        #expect(conjunct.width < ka.width + ssa.width - 10, "क्ष \(conjunct.width) px, क \(ka.width) + ष \(ssa.width)")
    }

    @Test("Thai stacks its vowel and tone marks above the letters")
    func thaiMarks() throws {
        let (_, bare) = try Self.ink("สวสด")
        let (_, marked) = try Self.ink("สวัสดี")
        #expect(marked.y0 < bare.y0 - 5, "marks above: \(marked) vs \(bare)")
        // The marks sit on their letters: the word is no wider for them.
        #expect(abs(marked.width - bare.width) < 8, "\(marked.width) vs \(bare.width)")
    }

    @Test("German, Hebrew, Arabic, Hindi, Thai and Japanese all draw with the default fonts", arguments: [
        "Größe: 2,49 € – Straße, Äpfel", "שלום עולם", "مرحبا بالعالم", "नमस्ते दुनिया", "สวัสดีชาวโลก", "こんにちは世界、東京タワー",
    ])
    func defaultFontsCover(_ text: String) throws {
        let rendered = try TextRenderer.render(TextLayer(name: "greeting", text: text, width: 1200, height: 160,
                                                         size: .auto(min: 10, max: 96)))
        let ink = try #require(rendered.picture.inkBounds(above: 65000), "no solid ink")
        #expect(ink.width > 100 && ink.height > 20, "\(ink)")
        #expect(rendered.size > 40, "set at \(rendered.size) px")
    }

    @Test("German ß, ä and € each have a glyph of their own (no unknown-glyph box)", arguments: ["ß", "ä", "€"])
    func germanCharacters(_ character: String) throws {
        let (picture, ink) = try Self.ink(character)
        // A hex box is a hollow rectangle: these glyphs are not, and differ from each other.
        #expect(ink.width > 10 && ink.height > 10)
        let (other, _) = try Self.ink(character == "ß" ? "ä" : "ß")
        #expect(picture.samples != other.samples)
    }
}
