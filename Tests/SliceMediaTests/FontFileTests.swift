// Font files as the text engine takes them: read once into sealed memory, so a font rewritten
// in place while text is drawn changes nothing under Pango; web fonts drawn with their own
// glyphs; and font bombs (a WOFF that unpacks to far more than it holds, a collection of many
// faces) refused from their headers, at once, naming the file and the limit.

import Foundation
import SliceKit
import Synchronization
import Testing
@testable import SliceMedia

@Suite("Font files")
struct FontFileTests {
    /// Three stems of the variable test font, black, with `fonts` first.
    private func stems(_ fonts: [String], digests: [String: String] = [:]) -> TextLayer {
        var layer = TextLayer(name: "stems", text: "III", width: 400, height: 200, size: .pixels(100), fonts: fonts,
                              alignment: .start, color: RGBAColor(red: 0, green: 0, blue: 0))
        layer.family = VariableTestFont.family
        layer.fontDigests = digests
        return layer
    }

    private func write(_ bytes: [UInt8], to path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    /// Rewrites `path` in place, as `cp` does: the same file (inode), truncated, then written.
    private func rewrite(_ path: String, with bytes: [UInt8]) throws {
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(bytes))
        try handle.close()
    }

    @Test("a WOFF font is drawn with its own glyphs: the same pixels as the same font as a .ttf")
    func woffIsItsOwnFont() throws {
        try withTemporaryDirectory { folder in
            try write(VariableTestFont.bytes, to: folder + "/plain.ttf")
            try write(FontFiles.woff(VariableTestFont.bytes), to: folder + "/web.woff")
            let plain = try TextRenderer.render(stems([folder + "/plain.ttf"])).picture
            let web = try TextRenderer.render(stems([folder + "/web.woff"])).picture
            #expect(plain.inkBounds() != nil)
            let same = web.samples == plain.samples
            #expect(same)
        }
    }

    @Test("a font rewritten in place while its text is drawn (cp new.ttf Brand.ttf): no crash, the text drawn from the bytes read, the next render from the new ones")
    func rewrittenWhileDrawn() throws {
        try withTemporaryDirectory { folder in
            let brand = folder + "/Brand.ttf", pristine = folder + "/Pristine.ttf"
            let dejaVu = Array(try Data(contentsOf: URL(fileURLWithPath: TestFonts.dejaVu)))
            try write(dejaVu, to: brand)
            try write(dejaVu, to: pristine)
            func hello(_ font: String) -> TextLayer {
                var layer = plainLayer("Hello, Brand", width: 500, height: 100)
                layer.size = .auto(min: 12, max: 90)
                layer.fonts = [font]
                return layer
            }
            let expected = try TextRenderer.render(hello(pristine)).picture
            // Once Pango has laid the text out in Brand.ttf, and before its sizes are tried and its
            // glyphs drawn, the file becomes a much smaller font under the same name and inode.
            // The process's mappings are read there too, while the face is surely open (later, a
            // test beside this one may have had the engine drop its faces).
            let mapsDuringDrawing = Mutex(""), handedCopies = Mutex(false)
            TextDrawing.afterFirstLayout.withLock { hook in
                // Only this test's text: one drawn beside it (the same process) passes on.
                hook = { [self] layer in
                    guard layer.fonts == [brand] else { return false }
                    // What the engine was handed for Brand.ttf: its sealed copies, never the file.
                    let handed = (try? FontStore.load(brand))?.memories.map(\.path) ?? []
                    let links = handed.map { (try? FileManager.default.destinationOfSymbolicLink(atPath: $0)) ?? $0 }
                    handedCopies.withLock { $0 = !links.isEmpty && links.allSatisfy { $0.hasPrefix("/memfd:slicevid-font") } }
                    try? rewrite(brand, with: VariableTestFont.bytes)
                    let maps = (try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8)) ?? ""
                    mapsDuringDrawing.withLock { $0 = maps }
                    return true
                }
            }
            defer { TextDrawing.afterFirstLayout.withLock { $0 = nil } }
            let drawn = try TextRenderer.render(hello(brand)).picture
            // FreeType and HarfBuzz map the font files they open; the one under the name was
            // never opened, only its sealed copy in memory, so no rewrite can fault under a
            // mapping. (Whether the copy is mapped at that moment depends on what cairo's face
            // cache kept open, so what was handed is checked, not the mapping: with many tests
            // beside this one, 'mapsCopies' failed in full runs.)
            let maps = mapsDuringDrawing.withLock { $0 }
            #expect(!maps.contains(brand))
            #expect(handedCopies.withLock { $0 }, "the engine was handed Brand.ttf's sealed copies")
            #expect(try Data(contentsOf: URL(fileURLWithPath: brand)) == Data(VariableTestFont.bytes))
            let same = drawn.samples == expected.samples
            #expect(same, "drawn from the bytes the render read")
            try write(VariableTestFont.bytes, to: folder + "/fresh.ttf")
            let rewritten = try TextRenderer.render(stems([brand])).picture
            let fresh = try TextRenderer.render(stems([folder + "/fresh.ttf"])).picture
            let renewed = rewritten.samples == fresh.samples
            #expect(renewed, "the next render reads the new bytes")
        }
    }

    @Test("a font whose bytes are not the ones the run's plan read fails with one line naming it")
    func changedSincePlanned() throws {
        try withTemporaryDirectory { folder in
            let brand = folder + "/Brand.ttf"
            try write(VariableTestFont.bytes, to: brand)
            let planned = try FontStore.load(brand).digest
            _ = try TextRenderer.render(stems([brand], digests: [brand: planned]))
            try rewrite(brand, with: FontFiles.collection(VariableTestFont.bytes, faces: 2))
            let error = #expect(throws: TextError.self) { try TextRenderer.render(stems([brand], digests: [brand: planned])) }
            #expect(error?.kind == .fontChanged)
            #expect(error?.exitCode == 65)
            #expect(error?.description == "font '\(brand)': changed while the run used it: its bytes are not the ones the run checked (layer 'stems'); run again once it is final")
        }
    }

    @Test("a WOFF that unpacks past 64 MiB is refused from its header, naming the font and the limit")
    func woffBomb() throws {
        try withTemporaryDirectory { folder in
            // 80 MiB of zeros in a table of their own: about 80 KB of file.
            let zeros = FontFiles.deflatedZeros(80 << 20)
            let bomb = folder + "/bomb.woff"
            try write(FontFiles.woff(VariableTestFont.bytes, extra: [("zzzz", zeros, 80 << 20)]), to: bomb)
            let error = #expect(throws: TextError.self) { try TextRenderer.render(stems([bomb])) }
            #expect(error?.kind == .fontInvalid)
            #expect(error?.description == "font '\(bomb)': unpacks to 80 MiB; fonts up to 64 MiB unpacked are accepted (layer 'stems')")
            // Just under the limit it is a font like any other.
            let fits = folder + "/fits.woff"
            try write(FontFiles.woff(VariableTestFont.bytes, extra: [("zzzz", FontFiles.deflatedZeros(60 << 20), 60 << 20)]), to: fits)
            #expect(try TextRenderer.render(stems([fits])).picture.inkBounds() != nil)
        }
    }

    @Test("a WOFF2 declaring more than 64 MiB unpacked is refused before anything is unpacked")
    func woff2Bomb() throws {
        try withTemporaryDirectory { folder in
            let bomb = folder + "/bomb.woff2"
            try write(FontFiles.woff2(total: 1 << 30, unpacked: 1 << 30), to: bomb)
            let error = #expect(throws: TextError.self) { try TextRenderer.render(stems([bomb])) }
            #expect(error?.description == "font '\(bomb)': unpacks to 1024 MiB; fonts up to 64 MiB unpacked are accepted (layer 'stems')")
        }
    }

    @Test("a collection of more than 64 faces is refused at once; 64 are drawn with")
    func collectionBomb() throws {
        try withTemporaryDirectory { folder in
            let many = folder + "/many.ttc"
            try write(FontFiles.collection(VariableTestFont.bytes, faces: 100_000), to: many)
            let error = #expect(throws: TextError.self) { try TextRenderer.render(stems([many])) }
            #expect(error?.description == "font '\(many)': is a collection of 100000 faces; at most 64 are accepted (layer 'stems')")
            let most = folder + "/most.ttc"
            try write(FontFiles.collection(VariableTestFont.bytes, faces: 64), to: most)
            #expect(try TextRenderer.render(stems([most])).picture.inkBounds() != nil)
            let over = folder + "/over.ttc"
            try write(FontFiles.collection(VariableTestFont.bytes, faces: 65), to: over)
            #expect(throws: TextError.self) { try TextRenderer.render(stems([over])) }
        }
    }

    @Test("a face with more than 256 named instances is refused, as is a table past the end of the file")
    func instancesAndTables() throws {
        try withTemporaryDirectory { folder in
            var font = VariableTestFont.bytes
            let fvar = try #require(FontFiles.tables(of: font).firstIndex { $0.tag == Array("fvar".utf8) })
            let offset = FontFiles.be32(font, 12 + 16 * fvar + 8)
            font.replaceSubrange((offset + 12)..<(offset + 14), with: FontFiles.be16(300))
            let instances = folder + "/instances.ttf"
            try write(font, to: instances)
            let error = #expect(throws: TextError.self) { try TextRenderer.render(stems([instances])) }
            #expect(error?.description == "font '\(instances)': has 300 named instances in a face; at most 256 are accepted (layer 'stems')")

            let cut = folder + "/cut.ttf"
            try write(Array(VariableTestFont.bytes.dropLast(8)), to: cut)
            let damaged = #expect(throws: TextError.self) { try TextRenderer.render(stems([cut])) }
            #expect(damaged?.description.hasPrefix("font '\(cut)': is damaged: its ") == true)
            #expect(damaged?.description.hasSuffix(" table lies past the end of the file (layer 'stems')") == true)
        }
    }
}
