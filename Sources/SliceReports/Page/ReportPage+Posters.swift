// Where the report page's own posters live: a folder beside the page (`index.files` beside
// `index.html`), one JPEG per job named after its id, so the page and its folder can be copied
// or served together.

import Foundation
import Glibc
import SliceCampaign
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
    /// `.`, `_`, `-`, not hidden, not long), else the id's plain characters and 128 bits of a
    /// hash of the id. A plain id that ends as a hashed name does (`-` and 32 hex digits) is
    /// hashed too, so the two kinds never meet and no two ids share a poster.
    package static func posterName(for id: String) -> String {
        func isPlain(_ scalar: Unicode.Scalar) -> Bool {
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "._-".unicodeScalars.contains(scalar))
        }
        let plain = id.unicodeScalars.allSatisfy(isPlain)
        if plain, !id.isEmpty, !id.hasPrefix("."), id.utf8.count <= 120, !looksHashed(id) { return id + ".jpg" }
        let kept = String(String.UnicodeScalarView(id.unicodeScalars.map { scalar -> Unicode.Scalar in
            isPlain(scalar) && scalar != "." ? scalar : "_"
        }.prefix(60)))
        return (kept.isEmpty ? "job" : kept) + "-" + SHA256.hex(of: id).prefix(hashDigits) + ".jpg"
    }

    /// Hex digits of the id's hash in a poster's name: 128 bits, which no one can make collide.
    private static let hashDigits = 32

    /// Whether `id` ends as a hashed poster name does: `-` and `hashDigits` lowercase hex digits.
    private static func looksHashed(_ id: String) -> Bool {
        let tail = id.utf8.suffix(hashDigits + 1)
        return tail.count == hashDigits + 1 && tail.first == UInt8(ascii: "-")
            && tail.dropFirst().allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
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

extension ReportPage {
    /// Refuses, before anything renders, a manifest one of whose outputs is where the page at
    /// `page` puts a job's poster (`p.files/A.jpg`), as two outputs on one file are refused:
    /// each run would write the one over the other. Every job's poster is claimed, whether or
    /// not this run renders it.
    /// - Throws: `SlicevidError(.usage)` naming the manifest, the job, the output and the page.
    package static func checkPosterPaths(of manifest: Manifest, page: String) throws(SlicevidError) {
        let folder = posterFolder(for: URL(fileURLWithPath: page).standardizedFileURL.path)
        var claims = OutputClaims()
        for job in manifest.jobs {
            for place in job.outputs.compactMap({ OutputPlace($0.destination) }) { claims.claim(place, by: job.id) }
        }
        for job in manifest.jobs where !job.writesPicture {
            guard let place = OutputPlace(.file(folder + "/" + posterName(for: job.id))) else { continue }
            if let other = claims.conflict(with: place) {
                let what = other.place.path == place.path ? "is" : "is the same file as"
                throw SlicevidError(.usage, "\(manifest.path): \(ManifestReader.place(ofJob: other.job)): outputs: \(other.place.path) \(what) "
                    + "the poster \(setting: .report) \(InputText.quoted(page)) makes for \(ManifestReader.place(ofJob: job.id)) (\(place.path)); "
                    + "every output needs its own path (give the output or the page another name)")
            }
            claims.claim(place, by: job.id)
        }
    }
}
