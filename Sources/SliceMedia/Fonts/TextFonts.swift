// A layer's fonts as one private font set: its own files, then the default set, each read,
// checked and sealed in memory by FontStore, then added from there (an outline font
// fontconfig reads, with family names Pango can take).

import CText
import SliceKit

/// A private font set (`slicevid_text_fonts`): only these files' faces, whatever the machine has.
///
/// Not thread-safe: made, used and freed only under `TextEngine`'s lock.
final class TextFonts {
    let pointer: OpaquePointer
    /// Family names in fallback order, each once: the layer's files' first, then the default set's.
    let families: [String]
    /// The families of the layer's own files (not the default set's), for `family` and messages.
    let layerFamilies: [String]

    /// Adds `files` (the layer's own, in order) and then `defaults` (the default set's), as
    /// `FontStore` read them.
    /// - Parameter layer: the layer's name, for messages.
    /// - Throws: `TextError(.fontInvalid)` naming the file: fontconfig finds no face in it, a
    ///   bitmap or colour font, a family name with a comma.
    init(files: [LoadedFont], defaults: [LoadedFont], layer: String) throws(TextError) {
        guard let pointer = slicevid_text_fonts_create() else {
            throw TextError(.unavailable, layer: layer, message: "out of memory making a font set")
        }
        self.pointer = pointer
        var families: [String] = [], layerFamilies: [String] = []
        do throws(TextError) {
            for path in files {
                for family in try Self.add(path, to: pointer, layer: layer) where !layerFamilies.contains(family) {
                    layerFamilies.append(family)
                }
            }
            families = layerFamilies
            for file in defaults {
                for family in try Self.add(file, to: pointer, layer: layer) where !families.contains(family) { families.append(family) }
            }
            guard slicevid_text_fonts_finish(pointer) != 0 else {
                throw TextError(.unavailable, layer: layer, message: "Pango could not make a font map for its fonts")
            }
        } catch {
            slicevid_text_fonts_free(pointer)
            throw error
        }
        self.families = families
        self.layerFamilies = layerFamilies
    }

    deinit { slicevid_text_fonts_free(pointer) }

    /// The fonts a character was looked for in, as messages list them: the layer's files
    /// (`files`, in order) and the default set's families.
    func tried(files: [String]) -> String {
        let own = files.map { InputText.quoted($0) }
        let defaults = families.filter { !layerFamilies.contains($0) }.map(InputText.excerpt)
        return (own + ["the default set (\(defaults.joined(separator: ", ")))"]).joined(separator: ", ")
    }

    /// Adds one file's fonts (as sealed in memory) to the set and returns its faces' family names.
    private static func add(_ font: LoadedFont, to fonts: OpaquePointer, layer: String) throws(TextError) -> [String] {
        let subject = "font \(InputText.quoted(font.path))"
        let first = slicevid_text_fonts_face_count(fonts)
        var added: Int32 = 0
        for memory in font.memories {
            let count = slicevid_text_fonts_add_file(fonts, memory.path)
            guard count > 0 else {
                throw TextError(.fontInvalid, subject: subject,
                                message: count == 0 ? "is not a font (fontconfig finds no face in it); text layers take OpenType and TrueType fonts (.otf, .ttf, .ttc, .woff, .woff2) (layer \(InputText.quoted(layer)))"
                                                    : "could not be added to the font set: out of memory (layer \(InputText.quoted(layer)))")
            }
            added += count
        }
        var families: [String] = []
        for index in first..<(first + added) {
            // Pango draws only outline fonts; it would silently skip a bitmap or Type 1 face.
            let format = slicevid_text_fonts_face_format(fonts, index).map { String(cString: $0) } ?? "unknown"
            guard format == "TrueType" || format == "CFF" else {
                throw TextError(.fontInvalid, subject: subject,
                                message: "is a \(InputText.excerpt(format)) font; text layers take OpenType and TrueType fonts (.otf, .ttf, .ttc, .woff, .woff2) (layer \(InputText.quoted(layer)))")
            }
            guard slicevid_text_fonts_face_color(fonts, index) == 0 else {
                throw TextError(.fontInvalid, subject: subject,
                                message: "is a colour font (emoji); text layers draw in one colour and take outline fonts (layer \(InputText.quoted(layer)))")
            }
            guard let family = slicevid_text_fonts_face_family(fonts, index).map({ String(cString: $0) }), !family.isEmpty else {
                throw TextError(.fontInvalid, subject: subject, message: "has a face without a family name (layer \(InputText.quoted(layer)))")
            }
            // Pango takes a comma as the separator of its family list.
            guard !family.contains(",") else {
                throw TextError(.fontInvalid, subject: subject,
                                message: "has the family name \(InputText.quoted(family)), with a comma, which Pango cannot name (layer \(InputText.quoted(layer)))")
            }
            if !families.contains(family) { families.append(family) }
        }
        return families
    }
}
