// The fonts every text layer falls back on, from Debian packages that `make deps`, the .deb's
// Depends and the container image install: a fixed list of files in a fixed order, so a
// layer's look never depends on what else the machine has.

/// The default font set: Noto Sans for Latin, Greek and Cyrillic (German's ß, ä and € among
/// them), then Arabic, Hebrew, Devanagari (Hindi) and Thai from Noto, then IPAex Gothic for
/// Japanese (kana and the JIS X 0213 kanji).
package enum DefaultFonts {
    /// One font file of the set and the Debian package that installs it.
    package struct File: Sendable, Equatable {
        package let path: String
        package let debianPackage: String
    }

    /// The set, in fallback order: a character comes from the first file that has it. Regular
    /// and bold faces of each Noto family, so weights from 600 up find a bold face.
    package static let files: [File] = {
        let noto = "/usr/share/fonts/truetype/noto/"
        let families = ["NotoSans", "NotoSansArabic", "NotoSansHebrew", "NotoSansDevanagari", "NotoSansThai"]
        let notoFiles = families.flatMap { family in
            ["Regular", "Bold"].map { File(path: noto + family + "-" + $0 + ".ttf", debianPackage: "fonts-noto-core") }
        }
        return notoFiles + [File(path: "/usr/share/fonts/opentype/ipaexfont-gothic/ipaexg.ttf", debianPackage: "fonts-ipaexfont-gothic")]
    }()

    /// The Debian packages the set comes from, for messages and packaging.
    package static var packages: [String] {
        files.map(\.debianPackage).reduce(into: []) { list, name in if !list.contains(name) { list.append(name) } }
    }
}
