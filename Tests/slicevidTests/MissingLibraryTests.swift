// libavfilter is opened only when a run has a song (CAVFilter), and libheif only for a HEIC
// (CHeif), so a machine without either still renders video from other stills; a run that needs
// the missing one fails with 69 and one line naming the library. The library is hidden from one child process: /dev/null bind-mounted over its
// file in a private mount namespace, which disappears with the child.

import Foundation
import Glibc
import SliceKit
import SliceMedia
import StillFixtures
import Testing

@Suite("runs on a machine without libavfilter or libheif")
struct MissingLibraryTests {
    /// The file the dynamic loader opens for `soname` on this machine (read from this process's
    /// mappings after opening it the way slicevid does); nil when it does not load.
    static func libraryFile(_ soname: String) -> String? {
        // /proc files report no size, so the mappings are read to their end, not by their size.
        guard dlopen(soname, RTLD_NOW | RTLD_LOCAL) != nil,
              let data = FileHandle(forReadingAtPath: "/proc/self/maps")?.readDataToEndOfFile() else { return nil }
        let maps = String(decoding: data, as: UTF8.self)
        // The mapping's path is the file the loader resolved the name to.
        let path = maps.split(separator: "\n").compactMap { $0.split(separator: " ", omittingEmptySubsequences: true).last }
            .first { $0.hasPrefix("/") && $0.contains("/" + soname) }
        return path.map(String.init)
    }

    static var isSupported: Bool { ReadOnlyFolder.isSupported }

    /// Runs slicevid with `file` replaced by an empty one.
    static func run(_ arguments: [String], hiding file: String, in folder: String) throws -> CLIResult {
        let script = "mount --bind /dev/null \"$1\" && shift && exec \"$@\""
        return try CLI.run(["--mount", "--propagation", "private", "/bin/sh", "-c", script, "sh", file, try CLI.binary()] + arguments,
                           in: folder, executable: "/usr/bin/unshare")
    }

    @Test("video renders without libavfilter; a song is refused with 69 before rendering",
          .enabled(if: isSupported, "needs root's unshare + mount to hide the library from one process"))
    func withoutLibavfilter() throws {
        let file = try #require(Self.libraryFile("libavfilter.so.8"), "libavfilter.so.8 is not among this process's mappings")
        try withScratchFolder { folder in
            try AudioFactsTests.song.write(to: URL(fileURLWithPath: folder + "/song.wav"))
            let video = try Self.run(["make"] + tinyClip + ["-o", "video.mp4"], hiding: file, in: folder)
            #expect(video.status == 0 && !video.signalled, "\(video)")
            #expect(try MediaReader.info(path: folder + "/video.mp4").frameCount == tinyClipFrames)

            let song = try Self.run(["make"] + tinyClip + ["--audio", "song.wav", "-o", "song.mp4"], hiding: file, in: folder)
            #expect(song.status == 69 && !song.signalled, "\(song)")
            #expect(song.stderrIsOneLine && song.stderr.contains("libavfilter.so.8:") && song.stderr.contains("install libavfilter8"),
                    "\(song)")
            #expect(!song.stderr.contains("rendering"), "refused before rendering: \(song)")
            #expect(!FileManager.default.fileExists(atPath: folder + "/song.mp4"))
            #expect(leftovers(in: folder).isEmpty, "\(leftovers(in: folder))")
        }
    }

    @Test("without libheif, a HEIC is refused with 69 naming the library; other stills render",
          .enabled(if: isSupported, "needs root's unshare + mount to hide the library from one process"))
    func withoutLibheif() throws {
        let file = try #require(Self.libraryFile("libheif.so.1"), "libheif.so.1 is not among this process's mappings")
        try withScratchFolder { folder in
            try HEIFWriter.heic(ColourChart.image(), to: folder + "/photo.heic")
            try Still.write(Still.squareOn(RGBAColor(red: 200, green: 40, blue: 40), width: 64, height: 36, side: 12), "b.png", in: folder)
            try Still.write(Still.squareOn(RGBAColor(red: 40, green: 40, blue: 200), width: 64, height: 36, side: 12), "c.png", in: folder)
            let pngs = try Self.run(["make"] + tinyClip + ["b.png", "c.png", "-o", "pngs.mp4"], hiding: file, in: folder)
            #expect(pngs.status == 0 && !pngs.signalled, "\(pngs)")
            #expect(try MediaReader.info(path: folder + "/pngs.mp4").frameCount == tinyClipFrames)

            let heic = try Self.run(["make"] + tinyClip + ["photo.heic", "b.png", "-o", "heic.mp4"], hiding: file, in: folder)
            #expect(heic.status == 69 && !heic.signalled, "\(heic)")
            #expect(heic.stderrIsOneLine && heic.stderr.contains("photo.heic") && heic.stderr.contains("libheif.so.1")
                    && heic.stderr.contains("install libheif1"), "\(heic)")
            #expect(!FileManager.default.fileExists(atPath: folder + "/heic.mp4"))
            #expect(leftovers(in: folder).isEmpty, "\(leftovers(in: folder))")
        }
    }
}
