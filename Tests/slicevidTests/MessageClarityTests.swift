// Clear one-line messages for odd inputs: a JPEG of headers alone, paths too long for the
// system, and a broken preset file that shadows a built-in of its name.

import Foundation
import Glibc
import SliceKit
import SliceMedia
import Testing

@Suite(.timeLimit(.minutes(10))) struct MessageClarityTests {
    @Test func aJPEGOfHeadersAloneIsRefusedAsHoldingNoImage() throws {
        try withScratchFolder { folder in
            try StillWriter.write(RGBAImage(width: 64, height: 36, color: RGBAColor(red: 9, green: 99, blue: 199)), to: folder + "/full.jpg", format: .jpeg)
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/full.jpg")))
            // Everything before the first scan, then the end-of-image marker.
            let scan = try #require((0..<(bytes.count - 1)).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDA })
            try Data(bytes[..<scan] + [0xFF, 0xD9]).write(to: URL(fileURLWithPath: folder + "/empty.jpg"))
            let run = try CLI.make(tinyClip + ["--from", "empty.jpg", "--to", "full.jpg", "-o", "x.mp4"], in: folder)
            #expect(run.status == 65, "\(run)")
            #expect(run.stderrIsOneLine && run.stderr.contains("empty.jpg: has no image data"), "\(run)")
            #expect(!FileManager.default.fileExists(atPath: folder + "/x.mp4"))
        }
    }

    @Test func aPathTooLongSaysSoQuotedAndCut() throws {
        try withScratchFolder { folder in
            let long = String(repeating: "a", count: 300)
            for (arguments, status) in [(["make", "--from", long + ".png", "--to", "b.png", "-o", "x.mp4"], Int32(66)),
                                        (["probe", long + ".png"], 66), (["batch", long + ".json", "--check"], 66),
                                        (["make", "--preset", long + ".json", "--dry-run"], 66),
                                        (["make", "-o", long + "/x.mp4", "--dry-run"], 73)] {
                let run = try CLI.run(arguments, in: folder)
                #expect(run.status == status, "\(arguments[0]): \(run)")
                #expect(run.stderrIsOneLine && run.stderr.contains("name too long"), "\(arguments[0]): \(run)")
                #expect(!run.stderr.contains(long) && run.stderr.contains("characters)"), "\(arguments[0]): \(run)")
            }
        }
    }

    @Test("a sequence FFmpeg's image2 muxer cannot write is refused before rendering, and nothing is written anywhere")
    func aSequenceImage2CannotWriteIsRefusedUpFront() throws {
        try withScratchFolder { folder in
            // Four folders of 250 bytes: the frames' paths, in the temporary folder, pass 1023
            // bytes. image2 cut such a path short and wrote the first frame there (beside the
            // temporary folder), then failed with "Invalid argument".
            let deep = (0..<4).map { String(repeating: "\($0)", count: 250) }.joined(separator: "/")
            try FileManager.default.createDirectory(atPath: folder + "/" + deep, withIntermediateDirectories: true)
            for (output, status, words) in [("wide/f%1000d.png", Int32(64), "is not a frame pattern slicevid writes"),
                                            ("wide/f%20d.png", 64, "(N at most 19)"),
                                            (deep + "/f%05d.png", 73, "FFmpeg writes image sequences to paths of at most 1023 bytes")] {
                for dryRun in [false, true] {
                    let run = try CLI.make(tinyClip + ["-o", output] + (dryRun ? ["--dry-run"] : []), in: folder)
                    #expect(run.status == status, "\(output): \(run)")
                    #expect(run.stderrIsOneLine && run.stderr.contains(words), "\(output): \(run)")
                }
            }
            let files = FileManager.default.enumerator(atPath: folder)?.compactMap { $0 as? String }
                .filter { path in (try? FileManager.default.attributesOfItem(atPath: folder + "/" + path)[.type] as? FileAttributeType) != .typeDirectory }
            #expect(files == [], "\(files ?? [])")
            #expect(!FileManager.default.fileExists(atPath: folder + "/wide"))
        }
    }

    @Test func aBrokenPresetFileIsNotListedAsTheBuiltInItShadows() throws {
        try withScratchFolder { folder in
            try FileManager.default.createDirectory(atPath: folder + "/presets", withIntermediateDirectories: true)
            try Data("{\"fps\": 30,}".utf8).write(to: URL(fileURLWithPath: folder + "/presets/smooth.json"))
            let run = try CLI.run(["presets"], in: folder, environment: ["SLICEVID_PRESETS": folder + "/presets"])
            #expect(run.status == 64, "\(run)")
            #expect(run.stderr.contains("smooth.json"), "\(run)")
            #expect(!run.stdout.contains("smooth "), "listed as the built-in that --preset smooth would not load: \(run.stdout)")
            #expect(run.stdout.contains("spring "), "\(run.stdout)")
        }
    }
}
