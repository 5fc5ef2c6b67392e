// libavfilter is opened only when a run has a song (CAVFilter), so a machine without it still
// renders video, and a run with a song there fails before rendering with 69 and one line naming
// the library. The library is hidden from one child process: /dev/null bind-mounted over its
// file in a private mount namespace, which disappears with the child.

import Foundation
import Glibc
import SliceMedia
import Testing

@Suite("runs on a machine without libavfilter")
struct MissingLibraryTests {
    /// libavfilter's file on this machine, as the dynamic loader finds it by the name slicevid opens.
    static let libraryFile: String? = {
        // /proc files report no size, so the mappings are read to their end, not by their size.
        guard dlopen("libavfilter.so.8", RTLD_NOW | RTLD_LOCAL) != nil,
              let data = FileHandle(forReadingAtPath: "/proc/self/maps")?.readDataToEndOfFile() else { return nil }
        let maps = String(decoding: data, as: UTF8.self)
        // The mapping's path is the file the loader resolved the name to.
        let path = maps.split(separator: "\n").compactMap { $0.split(separator: " ", omittingEmptySubsequences: true).last }
            .first { $0.hasPrefix("/") && $0.contains("/libavfilter.so.8") }
        return path.map(String.init)
    }()

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
        let file = try #require(Self.libraryFile, "libavfilter.so.8 is not among this process's mappings")
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
}
