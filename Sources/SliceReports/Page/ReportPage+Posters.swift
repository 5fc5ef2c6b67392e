// Where the report page's own posters live: a folder beside the page (`index.files` beside
// `index.html`), one JPEG per job named after its id, so the page and its folder can be copied
// or served together.

import Foundation
import Glibc
import SliceKit
import SliceMedia
import SlicePipeline

extension ReportPage {
    /// The longest side of a poster made for the page, in pixels: sharp in a tile on a dense
    /// screen, and some 20–40 KB.
    package static let posterSide = 480

    /// Whether `path` names a page (`.html` or `.htm`, any case) rather than a JSON report.
    package static func isPage(_ path: String) -> Bool {
        let lower = path.lowercased()
        return lower.hasSuffix(".html") || lower.hasSuffix(".htm")
    }

    /// `path` with its extension replaced by `newExtension` (`index.html` → `index.json`).
    package static func sibling(of path: String, extension newExtension: String) -> String {
        let url = URL(fileURLWithPath: path)
        let name = url.deletingPathExtension().lastPathComponent
        let folder = (path as NSString).deletingLastPathComponent
        return (folder.isEmpty ? "" : folder + "/") + name + "." + newExtension
    }

    /// The folder of the page's posters: `index.files` beside `index.html`.
    package static func posterFolder(for page: String) -> String { sibling(of: page, extension: "files") }

    /// The file name of a job's poster: its id when that is a plain file name (letters, digits,
    /// `.`, `_`, `-`, not hidden, not long), else the id's plain characters and a hash of the id,
    /// so that no two ids share a poster.
    package static func posterName(for id: String) -> String {
        let plain = id.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0)) }
        if plain, !id.isEmpty, !id.hasPrefix("."), id.utf8.count <= 120 { return id + ".jpg" }
        let kept = String(String.UnicodeScalarView(id.unicodeScalars.map { scalar -> Unicode.Scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "_-".unicodeScalars.contains(scalar)) ? scalar : "_"
        }.prefix(60)))
        return (kept.isEmpty ? "job" : kept) + "-" + SHA256.hex(of: id).prefix(16) + ".jpg"
    }
}

extension ReportPage {
    /// Refuses, before anything renders, a poster folder that is there but is not a folder, or
    /// is a link: posters go into a folder of the page's own, never through a link elsewhere.
    /// - Throws: `SlicevidError(.outputBlocked)` naming the report setting and the folder.
    package static func checkPosterFolder(for page: String) throws(SlicevidError) {
        let folder = posterFolder(for: page)
        var status = stat()
        guard FileSystem.lstat(folder, &status) == 0 else { return }
        let kind = status.st_mode & S_IFMT
        guard kind != S_IFDIR else { return }
        throw SlicevidError(.outputBlocked, "\(setting: .report) \(InputText.quoted(page)): \(InputText.quoted(folder)), where the page's posters go, \(FileKind.described(kind)); move it away or give the page another name")
    }
}
