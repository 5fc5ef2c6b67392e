// The one door to Pango, Cairo and fontconfig: opened on the first text layer, entered by one
// thread at a time, with the font sets made so far kept for the next layer.

import CText
import Glibc
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
    /// Font sets made so far, most recently used last.
    struct State: ~Copyable {
        var sets: [(key: [FileIdentity], fonts: TextFonts)] = []
    }

    /// A font file's identity: a set is made again when a file is replaced or changed.
    struct FileIdentity: Equatable {
        var path: String
        var device: UInt64, inode: UInt64, size: Int64, modified: Int, modifiedNanoseconds: Int
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
    /// - Throws: `TextError(.unavailable)` when the libraries do not load; the font set's
    ///   errors; `body`'s.
    static func withFonts<Result: Sendable>(_ files: [String], defaults: [DefaultFonts.File], layer: String,
                                  _ body: (TextFonts) throws(TextError) -> Result) throws(TextError) -> Result {
        guard loaded else {
            let why = String(cString: slicevid_text_error())
            throw TextError(.unavailable, layer: layer,
                            message: "text needs Pango, Cairo and fontconfig, and they did not load (\(InputText.excerpt(why))); install libpango-1.0-0, libpangocairo-1.0-0, libpangoft2-1.0-0, libcairo2 and libfontconfig1")
        }
        let key = (files + defaults.map(\.path)).map(identity)
        return try state.withLock { (state: inout State) throws(TextError) -> Result in
            let now = inside.add(1, ordering: .sequentiallyConsistent).newValue
            mostInside.max(now, ordering: .sequentiallyConsistent)
            defer { inside.subtract(1, ordering: .sequentiallyConsistent) }
            return try body(try fonts(key, files: files, defaults: defaults, layer: layer, in: &state))
        }
    }

    /// The font set for `key` from `state`, made and kept when it is not there yet.
    private static func fonts(_ key: [FileIdentity], files: [String], defaults: [DefaultFonts.File], layer: String,
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

    /// What a file is now, by its name (zeros when it cannot be looked at: the font set's own
    /// checks then say why).
    private static func identity(_ path: String) -> FileIdentity {
        var info = stat()
        guard FileSystem.stat(path, &info) == 0 else {
            return FileIdentity(path: path, device: 0, inode: 0, size: -1, modified: 0, modifiedNanoseconds: 0)
        }
        return FileIdentity(path: path, device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
                            modified: info.st_mtim.tv_sec, modifiedNanoseconds: info.st_mtim.tv_nsec)
    }
}
