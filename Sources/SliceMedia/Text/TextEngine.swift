// The one door to Pango, Cairo and fontconfig: opened on the first text layer, entered by one
// thread at a time, with the font sets made so far kept for the next layer.

import CText
import SliceKit
import Synchronization

/// Loads the text libraries and serialises every call into them.
///
/// Why one lock for all of it: a Pango font map, its context and the layouts made from it are
/// not thread-safe (the font map fills unlocked caches of fontsets, fonts and coverage while a
/// layout is itemized and shaped), and the font sets here are shared by every job of the
/// process. Text is laid out and drawn once per card and output size, never per frame, so
/// taking turns costs nothing a render would notice; colouring the coverage runs outside.
/// Pango's own default font map (librsvg's, for SVG stills) is a different object, safe to
/// use from another thread at the same time.
package enum TextEngine {
    /// Font sets made so far, most recently used last, keyed by their files' digests in order:
    /// a set is made again when a file's bytes change.
    struct State: ~Copyable {
        var sets: [(key: [String], fonts: TextFonts)] = []
    }

    /// How many font sets are kept: a campaign's layouts use a few.
    static let capacity = 8

    private static let state = Mutex(State())
    /// Threads inside the lock now, and the most there ever were: `TextEngineTests` checks the
    /// latter stays 1 under concurrent renders.
    private static let inside = Atomic<Int>(0)
    private static let mostInside = Atomic<Int>(0)

    /// The most threads that were ever inside the libraries at once (1 while the lock holds).
    package static var mostAtOnce: Int { mostInside.load(ordering: .relaxed) }

    /// Whether the libraries loaded: once per process, on the first text layer.
    private static let loaded: Bool = slicevid_text_load() != 0

    /// Runs `body` with the libraries loaded, alone, and with `layer`'s font set (its `files`,
    /// then `defaults`): made on first use, kept for later layers.
    /// - Parameter digests: SHA-256 (hex) of files as the run's plan read them: a file whose
    ///   bytes are now others is refused (`.fontChanged`).
    /// - Throws: `TextError(.unavailable)` when the libraries do not load or a default font is
    ///   missing; `FontStore`'s errors; `.fontChanged`; the font set's errors; `body`'s.
    static func withFonts<Result: Sendable>(_ files: [String], digests: [String: String] = [:], defaults: [DefaultFonts.File], layer: String,
                                            _ body: (TextFonts) throws(TextError) -> Result) throws(TextError) -> Result {
        guard loaded else {
            let why = String(cString: slicevid_text_error())
            throw TextError(.unavailable, layer: layer,
                            message: "text needs Pango, Cairo, fontconfig and FreeType, and they did not load (\(InputText.excerpt(why))); install libpango-1.0-0, libpangocairo-1.0-0, libpangoft2-1.0-0, libcairo2, libfontconfig1 and libfreetype6")
        }
        // Read (or found unchanged) outside the lock: a new font's bytes are copied and checked
        // while other layers draw.
        var own: [LoadedFont] = []
        for path in files {
            let font: LoadedFont
            do {
                font = try FontStore.load(path)
            } catch {
                throw TextError(error.kind, subject: error.subject, message: "\(error.message) (layer \(InputText.quoted(layer)))")
            }
            if let expected = digests[path], expected != font.digest {
                throw TextError(.fontChanged, subject: "font \(InputText.quoted(path))",
                                message: "changed while the run used it: its bytes are not the ones the run checked (layer \(InputText.quoted(layer))); run again once it is final")
            }
            own.append(font)
        }
        var standard: [LoadedFont] = []
        for file in defaults {
            do {
                standard.append(try FontStore.load(file.path))
            } catch where error.kind == .fontMissing {
                throw TextError(.unavailable, subject: "default font \(InputText.quoted(file.path))",
                                message: "\(error.message) (layer \(InputText.quoted(layer))); install the Debian package \(file.debianPackage)")
            }
        }
        let key = (own + standard).map(\.digest)
        return try state.withLock { (state: inout State) throws(TextError) -> Result in
            let now = inside.add(1, ordering: .sequentiallyConsistent).newValue
            mostInside.max(now, ordering: .sequentiallyConsistent)
            defer { inside.subtract(1, ordering: .sequentiallyConsistent) }
            return try body(try fonts(key, files: own, defaults: standard, layer: layer, in: &state))
        }
    }

    /// The font set for `key` from `state`, made and kept when it is not there yet.
    private static func fonts(_ key: [String], files: [LoadedFont], defaults: [LoadedFont], layer: String,
                              in state: inout State) throws(TextError) -> TextFonts {
        let fonts: TextFonts
        if let index = state.sets.firstIndex(where: { $0.key == key }) {
            fonts = state.sets.remove(at: index).fonts
        } else {
            fonts = try TextFonts(files: files, defaults: defaults, layer: layer)
            if state.sets.count == capacity { state.sets.removeFirst() }
        }
        state.sets.append((key, fonts))
        return fonts
    }
}
