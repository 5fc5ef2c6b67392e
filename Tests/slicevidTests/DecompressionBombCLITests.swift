// Decompression bombs cost at most their limit (issue 23, item 5): a 1 MB PNG whose iCCP chunk
// inflates to 1 GiB was refused only after 8 s at 2.1 GB; one whose zTXt did rendered, at
// 2.1 GB, and `probe` read both the same way. Each is now refused with 65 and one line naming
// the chunk and the limit, under 300 MB (peak resident memory, measured by wait4).

import Foundation
import SliceKit
import SliceMedia
import StillFixtures
import Testing

@Suite("slicevid with decompression bombs")
struct DecompressionBombCLITests {
    /// The most resident memory a refused bomb may cost (the bound).
    static let bound = 300 << 20

    @Test("a PNG whose iCCP, zTXt or iTXt inflates to 1 GiB is refused by make and probe with 65 and one line, in under 300 MB")
    func gibibyteBombs() throws {
        let bomb = FixtureFiles.zlibBomb(inflating: 1 << 30)
        try withScratchFolder { folder in
            let helper = try StillMemoryTests.buildHelper(in: folder)
            let plain = folder + "/plain.png"
            try writeFile(plain, Data(FixtureFiles.png()))
            for (name, chunk, words) in [("iccp.png", FixtureFiles.iCCP(bomb), ["ICC colour profile (iCCP)", "16 MiB"]),
                                         ("ztxt.png", FixtureFiles.zTXt(bomb), ["zTXt", "16 MiB"]),
                                         ("itxt.png", FixtureFiles.iTXt(bomb), ["iTXt", "16 MiB"])] {
                let path = folder + "/" + name
                try writeFile(path, Data(FixtureFiles.png(before: chunk)))
                for command in [["make", "--from", path, "--to", plain] + tinyClip + ["-o", folder + "/out.mp4"], ["probe", path]] {
                    let result = try CLI.run(command, in: folder)
                    #expect(result.status == 65 && result.stderrIsOneLine, "\(command[0]) \(name): \(result)")
                    #expect(result.stderr.hasPrefix("slicevid: error: \(path): "), "\(result)")
                    for word in words { #expect(result.stderr.contains(word), "\(command[0]) \(name): \(result)") }
                    let peak = try StillMemoryTests.peakMemory(command, helper: helper)
                    #expect(peak.status == 65 && peak.bytes < Self.bound, "\(command[0]) \(name): \(peak.bytes >> 20) MB peak")
                }
                #expect(leftovers(in: folder).isEmpty && !FileManager.default.fileExists(atPath: folder + "/out.mp4"))
            }
        }
    }

    @Test("probe refuses an APNG whose header chunks (its extradata) hold a zTXt bomb")
    func animatedPNGHeader() throws {
        try withScratchFolder { folder in
            let apng = folder + "/anim.apng"
            let made = try CLI.run(["-v", "error", "-f", "lavfi", "-i", "testsrc=size=32x24:rate=5:duration=0.4", "-plays", "0", "-f", "apng", apng],
                                   in: folder, executable: "/usr/bin/ffmpeg")
            try #require(made.status == 0, "\(made)")
            #expect(try CLI.run(["probe", apng], in: folder).status == 0)
            var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: apng)))
            // Right after IHDR: before acTL and the first fcTL, in what the demuxer calls the header.
            bytes.insert(contentsOf: FixtureFiles.zTXt(FixtureFiles.zlibBomb(inflating: 256 << 20)), at: 33)
            try writeFile(apng, Data(bytes))
            let result = try CLI.run(["probe", apng], in: folder)
            #expect(result.status == 65 && result.stderrIsOneLine && result.stderr.contains("zTXt"), "\(result)")
        }
    }
}
